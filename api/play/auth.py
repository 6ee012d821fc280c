"""Who is asking: session (browser, CSRF enforced) or token (API clients),
and the guest player made on a first visit."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.middleware.csrf import CsrfViewMiddleware
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from api.outages import CACHE_ERRORS, cache_failed
from api.play.errors import CsrfFailed
from api.play.services import guest_create

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class _CSRFCheck(CsrfViewMiddleware):
    def _reject(self, request, reason):
        return reason


def csrf_enforce(request) -> None:
    """Check Django's CSRF token on a request that will create or change a
    session while not yet logged in (DRF checks it only for logged-in ones).
    Token-authenticated clients never reach here."""
    django_request = request._request
    check = _CSRFCheck(lambda req: None)
    check.process_request(django_request)
    reason = check.process_view(django_request, None, (), {})
    if reason:
        raise CsrfFailed()


def user_or_guest(request):
    """The requesting user; without one, a new guest, logged in to the session."""
    if request.user.is_authenticated:
        return request.user
    if request.method not in SAFE_METHODS:
        csrf_enforce(request)
    user = guest_create()
    login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.user = user
    return user


def _rate(scope: str) -> str | None:
    # Read at request time, so settings overrides (tests, env) apply at once.
    return settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)


class _RateReadPerRequest:
    """DRF reads a throttle's rate once, at class creation; read it per request."""

    def get_rate(self):
        return _rate(self.scope)

    def allow_request(self, request, view):
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except CACHE_ERRORS as error:
            # Fail open: an outage of the cache must not stop play.
            cache_failed(f"{type(self).__name__} lets the request through", error)
            return True


class PlayAnonThrottle(_RateReadPerRequest, AnonRateThrottle):
    pass


class PlayUserThrottle(_RateReadPerRequest, UserRateThrottle):
    pass


class PlayHintThrottle(_RateReadPerRequest, UserRateThrottle):
    """Hints' own rate per player (per address before a player exists)."""

    scope = "hint"
