"""The growing lockout after wrong passwords, and the authentication
backend that applies it.

Wrong passwords for one username lock it out for a while that doubles with
each further failure (``AUTH_LOCKOUT_*``), on every way in: the API's login
and token, and the admin's login (the backend refuses a locked username
before hashing anything).
"""

from __future__ import annotations

import hashlib
import logging
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError

from api.db import CompiledQuery
from api.outages import CACHE_ERRORS, cache_failed

log = logging.getLogger(__name__)


def _lockout_key(username: str) -> str:
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()[:32]
    return f"lockout:{digest}"


def lockout_wait(username) -> float:
    """Seconds the username stays locked out (0: not locked)."""
    if not isinstance(username, str) or not username:
        return 0.0
    try:
        state = cache.get(_lockout_key(username))
    except CACHE_ERRORS as error:
        cache_failed("no lockout is checked", error)
        return 0.0
    if not state:
        return 0.0
    return max(0.0, state["until"] - time.time())


def lockout_failed(username) -> None:
    """One more wrong password for this username. Past AUTH_LOCKOUT_FREE_FAILURES
    it is locked out for AUTH_LOCKOUT_BASE_SECONDS, doubling with each further
    failure up to AUTH_LOCKOUT_MAX_SECONDS. The count is forgotten
    AUTH_LOCKOUT_MAX_SECONDS after the last failure."""
    if not isinstance(username, str) or not username:
        return
    key = _lockout_key(username)
    try:
        state = cache.get(key) or {"failures": 0, "until": 0.0}
    except CACHE_ERRORS as error:
        cache_failed("the failure is not counted", error)
        return
    state["failures"] += 1
    over = state["failures"] - settings.AUTH_LOCKOUT_FREE_FAILURES
    if over > 0:
        seconds = min(settings.AUTH_LOCKOUT_BASE_SECONDS * 2 ** min(over - 1, 30),
                      settings.AUTH_LOCKOUT_MAX_SECONDS)
        state["until"] = time.time() + seconds
        log.warning("login locked out for %s s after %s failures", seconds, state["failures"])
    try:
        cache.set(key, state, timeout=settings.AUTH_LOCKOUT_MAX_SECONDS + 60)
    except CACHE_ERRORS as error:
        cache_failed("the failure is not counted", error)


def lockout_clear(username) -> None:
    if isinstance(username, str) and username:
        try:
            cache.delete(_lockout_key(username))
        except CACHE_ERRORS as error:
            cache_failed("the failure count stays", error)


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
        """ModelBackend.get_user, on every request with a session: the same
        query, compiled once per connection (api.db)."""
        User = get_user_model()
        try:
            user_id = User._meta.pk.to_python(user_id)
        except ValidationError:  # a session naming no valid key: nobody, as Django's
            return None
        row = _USER_BY_PK.first(user_id)
        if row is None:
            return None
        user = User.from_db("default", _user_fields(), row)
        return user if self.user_can_authenticate(user) else None


def _user_fields() -> list[str]:
    return [field.attname for field in get_user_model()._meta.concrete_fields]


# Built on first use (the lambda runs then): the user model is not known at import.
_USER_BY_PK = CompiledQuery(
    lambda pk: get_user_model()._default_manager.filter(pk=pk).values_list(*_user_fields()),
    params=1,
)
