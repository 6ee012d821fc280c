"""The growing lockout after wrong passwords, and the authentication
backend that applies it.

Wrong passwords for one username lock it out for a while that doubles with
each further failure (``AUTH_LOCKOUT_*``), on every way in: the API's login
and token, and the admin's login (the backend refuses a locked username
before hashing anything). The failures are counted in the database
(LoginFailure), so the lockout holds while the cache is down.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from api.db import CompiledQuery
from api.sessions import user_fields, user_read_with_session

log = logging.getLogger(__name__)


def _lockout_key(username: str) -> str:
    return hashlib.sha256(username.casefold().encode()).hexdigest()


def lockout_wait(username) -> float:
    """Seconds the username stays locked out (0: not locked). Read from the
    database (api.play.models.LoginFailure): the cache plays no part, so a
    cache outage does not lift the bound."""
    if not isinstance(username, str) or not username:
        return 0.0
    from api.play.models import LoginFailure  # models: not while DRF loads this module

    now = timezone.now()
    until = (LoginFailure.objects.filter(pk=_lockout_key(username), locked_until__gt=now)
             .values_list("locked_until", flat=True).first())
    return 0.0 if until is None else (until - now).total_seconds()


def lockout_failed(username) -> None:
    """One more wrong password for this username. Past AUTH_LOCKOUT_FREE_FAILURES
    it is locked out for AUTH_LOCKOUT_BASE_SECONDS, doubling with each further
    failure up to AUTH_LOCKOUT_MAX_SECONDS. The count is forgotten
    AUTH_LOCKOUT_MAX_SECONDS after the last failure. One row per username,
    updated under its row lock, so parallel failures all count."""
    if not isinstance(username, str) or not username:
        return
    from api.play.models import LoginFailure

    now = timezone.now()
    with transaction.atomic():
        row, _created = LoginFailure.objects.select_for_update().get_or_create(
            pk=_lockout_key(username), defaults={"last_failure_at": now})
        if now - row.last_failure_at > dt.timedelta(seconds=settings.AUTH_LOCKOUT_MAX_SECONDS):
            row.failures = 0
        row.failures += 1
        row.last_failure_at = now
        over = row.failures - settings.AUTH_LOCKOUT_FREE_FAILURES
        if over > 0:
            seconds = min(settings.AUTH_LOCKOUT_BASE_SECONDS * 2 ** min(over - 1, 30),
                          settings.AUTH_LOCKOUT_MAX_SECONDS)
            row.locked_until = now + dt.timedelta(seconds=seconds)
            log.warning("login locked out for %s s after %s failures", seconds, row.failures)
        row.save()


def lockout_clear(username) -> None:
    if isinstance(username, str) and username:
        from api.play.models import LoginFailure

        LoginFailure.objects.filter(pk=_lockout_key(username)).delete()


# What login() records in a session: the backend whose get_user reads it back.
SESSION_BACKEND = "api.play.accounts.lockout.LockoutModelBackend"


class LockoutModelBackend(ModelBackend):
    """ModelBackend that refuses a locked-out username before hashing, and
    counts wrong passwords (the API and the admin both log in through it).

    It is listed first in AUTHENTICATION_BACKENDS, and Django's ModelBackend
    after it only so that sessions that name it stay valid: for a username
    and password this backend answers (a user) or stops the chain
    (PermissionDenied), so a password is never hashed twice."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None or password is None:
            return None
        if lockout_wait(username) > 0:
            raise PermissionDenied  # Django stops here: no other backend, no hashing
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            lockout_failed(username)
            raise PermissionDenied
        lockout_clear(username)
        return user

    def get_user(self, user_id):
        """ModelBackend.get_user, on every request with a session: the row
        read with the session (api.sessions), else the same query as
        Django's, compiled once per connection (api.db)."""
        User = get_user_model()
        try:
            user_id = User._meta.pk.to_python(user_id)
        except ValidationError:  # a session naming no valid key: nobody, as Django's
            return None
        row = user_read_with_session(user_id) or _USER_BY_PK.first(user_id)
        if row is None:
            return None
        user = User.from_db("default", user_fields(), row)
        return user if self.user_can_authenticate(user) else None


# Built on first use (the lambda runs then): the user model is not known at import.
_USER_BY_PK = CompiledQuery(
    lambda pk: get_user_model()._default_manager.filter(pk=pk).values_list(*user_fields()),
    params=1,
)
