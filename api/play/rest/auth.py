"""Who is asking: session (browser, CSRF enforced) or token (API clients),
and the guest player made on a first visit."""

from __future__ import annotations

from django.contrib.auth import login
from django.middleware.csrf import CsrfViewMiddleware
from rest_framework import exceptions

from api.errors import CsrfFailed
from api.play.accounts.lockout import SESSION_BACKEND
from api.play.accounts.services import guest_create
from api.play.rest import throttles

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
    wait = throttles.allowed(*throttles.GUEST_THROTTLES, request=request)
    if wait is not None:
        raise exceptions.Throttled(wait=wait)
    user = guest_create()
    login(request._request, user, backend=SESSION_BACKEND)
    request.user = user
    return user
