"""Rates: who the client is behind our proxies, and how often it may ask.

Imports nothing of api.play at module level: DRF loads the throttle classes
named in settings while api.errors is still being imported.

Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` and are read per
request (settings overrides apply at once); a scope with no rate there is
not limited. The scopes:

- ``anon`` (per address, requests without a player), ``user`` (per player);
- ``login_address``/``login_account``, ``token_address``/``token_account``
  (per address, and per username asked for), ``register_address``/
  ``register_account`` (per address, and per guest registering);
- ``guest_burst`` and ``guest`` (guests made per address: a burst per
  minute, and an hourly bound; both must allow);
- ``hint`` (hints per player, on top of ``user``);
- ``league_join`` (invite codes tried per player).
"""

from __future__ import annotations

import hashlib
import logging
import threading

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from api.outages import CACHE_ERRORS, cache_failed

log = logging.getLogger(__name__)

# DRF's read-then-write of a rate's history, made one step per process for
# caches without an atomic rate log (the laptop's per-process memory):
# requests at the same instant would all read the same history and pass.
_LOCAL_RATE_LOCK = threading.Lock()


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
                with _LOCAL_RATE_LOCK:
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
GuestBurstThrottle = _scoped("guest_burst", _ByAddress)
GuestAddressThrottle = _scoped("guest", _ByAddress)
# What making a guest must pass: the burst first (a refused request is not
# counted, so a flood spends none of the hour), then the hourly bound.
GUEST_THROTTLES = (GuestBurstThrottle, GuestAddressThrottle)

LeagueJoinThrottle = _scoped("league_join", _ByUser)


def allowed(*throttle_classes, request) -> float | None:
    """None when the request may go on under every one of these rates, else
    the seconds to wait (the longest). Each rate is asked in turn, and the
    first that refuses stops the others counting the request."""
    for throttle_class in throttle_classes:
        throttle = throttle_class()
        if not throttle.allow_request(request, None):
            return throttle.wait() or 1.0
    return None
