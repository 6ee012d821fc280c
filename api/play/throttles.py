"""Rates and lockouts: who the client is behind our proxies, how often it
may ask, and the growing lockout after wrong passwords.

Imports nothing of api.play at module level: DRF loads the throttle classes
named in settings while api.play.errors is still being imported.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` and are read per
request (settings overrides apply at once); a scope with no rate there is
not limited. The scopes:

- ``anon`` (per address, requests without a player), ``user`` (per player);
- ``login_address``/``login_account``, ``token_address``/``token_account``
  (per address, and per username asked for), ``register_address``/
  ``register_account`` (per address, and per guest registering);
- ``guest`` (guests made per address);
- ``hint`` (hints per player, on top of ``user``).

Wrong passwords for one username lock it out for a while that doubles with
each further failure (``AUTH_LOCKOUT_*``), on every way in: the API's login
and token, and the admin's login (the authentication backend refuses a
locked username before hashing anything). The failures are counted in the
database, so the lockout holds while the cache is down (the rates above fail
open then; the lockout still bounds the guesses per username).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from api.outages import CACHE_ERRORS, cache_failed

log = logging.getLogger(__name__)


# -- the client's address --------------------------------------------------------


def client_address(request) -> str:
    """The client's address as our own proxies saw it.

    With ``TRUSTED_PROXY_COUNT`` = 0 (the default) the socket's REMOTE_ADDR:
    X-Forwarded-For is ignored, since anyone can send it. With N trusted
    proxies in front, each appends the address it saw to X-Forwarded-For, so
    the N-th address from the right is the one the outermost of ours saw;
    a request carrying fewer than N addresses did not come through all of
    them, and REMOTE_ADDR is used."""
    meta = getattr(request, "META", None) or request._request.META
    remote = meta.get("REMOTE_ADDR", "") or "unknown"
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    hops = [h.strip() for h in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < count:
        return remote
    return hops[-count][:64]


# -- rates -----------------------------------------------------------------------------


def _rate(scope: str) -> str | None:
    # Read at request time, so settings overrides (tests, env) apply at once.
    return settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)


class _RateReadPerRequest:
    """DRF reads a throttle's rate once, at class creation; read it per
    request, and take the address from ``client_address``."""

    def get_rate(self):
        return _rate(self.scope)

    def get_ident(self, request):
        return client_address(request)

    verdict = None  # api.cache.RateVerdict, when the cache keeps the log

    def allow_request(self, request, view):
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            rate_log = getattr(self.cache, "rate_log", None)
            if rate_log is None:  # another cache (the laptop's): DRF's read and write
                return super().allow_request(request, view)
            self.key = self.get_cache_key(request, view)
            if self.key is None:
                return True
            self.now = self.timer()
            self.verdict = rate_log(self.key, now=self.now, duration=self.duration,
                                    limit=self.num_requests)
            return self.verdict.allowed
        except CACHE_ERRORS as error:
            # Fail open: an outage of the cache must not stop play.
            cache_failed(f"{type(self).__name__} lets the request through", error)
            return True

    def wait(self):
        """DRF's wait, from the log's count and oldest time; never more than
        the window (the log holds other processes' clocks, a little ahead)."""
        verdict = self.verdict
        if verdict is None:
            return super().wait()
        remaining = self.duration - (self.now - verdict.oldest) if verdict.count else self.duration
        remaining = min(self.duration, remaining)
        available = self.num_requests - verdict.count + 1
        return remaining / available if available > 0 else None


class PlayAnonThrottle(_RateReadPerRequest, AnonRateThrottle):
    pass


class PlayUserThrottle(_RateReadPerRequest, UserRateThrottle):
    pass


class PlayHintThrottle(_RateReadPerRequest, UserRateThrottle):
    """Hints' own rate per player (per address before a player exists)."""

    scope = "hint"


class _ScopedThrottle(_RateReadPerRequest, SimpleRateThrottle):
    """Counted per ``key(request)``, whoever is asking; None: not counted."""

    def __init__(self):  # the rate is read per request, not here
        pass

    def key(self, request) -> str | None:
        raise NotImplementedError

    def get_cache_key(self, request, view):
        key = self.key(request)
        if key is None:
            return None
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": digest}


class _ByAddress(_ScopedThrottle):
    def key(self, request):
        return client_address(request)


class _ByUsername(_ScopedThrottle):
    """Per username asked for (case folded), from the JSON body."""

    def key(self, request):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        return username.casefold() if isinstance(username, str) and username else None


class _ByUser(_ScopedThrottle):
    def key(self, request):
        user = getattr(request, "user", None)
        return f"user:{user.pk}" if user is not None and user.is_authenticated else None


def _scoped(name: str, base: type) -> type:
    return type(name, (base,), {"scope": name})


LoginAddressThrottle = _scoped("login_address", _ByAddress)
LoginAccountThrottle = _scoped("login_account", _ByUsername)
TokenAddressThrottle = _scoped("token_address", _ByAddress)
TokenAccountThrottle = _scoped("token_account", _ByUsername)
RegisterAddressThrottle = _scoped("register_address", _ByAddress)
RegisterAccountThrottle = _scoped("register_account", _ByUser)
GuestAddressThrottle = _scoped("guest", _ByAddress)


def allowed(throttle_class, request) -> float | None:
    """None when the request may go on, else the seconds to wait."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 1.0


# -- lockout after wrong passwords -------------------------------------------------------


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
SESSION_BACKEND = "api.play.throttles.LockoutModelBackend"


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
        """The session's user on every request: one plain query (api.play.rows)."""
        from api.play.rows import user_by_id  # models: not while DRF loads this module

        user = user_by_id(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
