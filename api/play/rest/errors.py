"""One JSON error shape for the whole API:

    {"error": {"code": "illegal_move", "message": "...", "fields": {}}}

``code`` is stable for clients (the page translates by it); ``message`` is
human text in the request's language. A 409 ``stale_version`` also carries
``state``, the attempt as it is now. The shape is ErrorOut
(api.play.rest.answers), which builds every error body.

The one place where errors become HTTP answers: the errors of api.errors
(each class names its code and status), DRF's own (validation, throttling,
authentication) as the api.errors class of their kind, and Django's
400/403/404/500 handlers.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response

from api import clock, errors
from api.outages import RETRY_AFTER_SECONDS, database_unavailable
from api.play.rest.answers import ErrorOut
from api.play.rest.parsers import too_large

log = logging.getLogger(__name__)


def _retry_after(error: errors.ApiError) -> float | None:
    if isinstance(error, errors.Unavailable):
        return RETRY_AFTER_SECONDS
    if isinstance(error, errors.HintsBusy):
        return settings.PLAY_HINT_RETRY_AFTER
    if isinstance(error, errors.HeavyBusy):
        return settings.PLAY_HEAVY_RETRY_AFTER
    if isinstance(error, errors.Throttled):
        return error.wait
    return None


def _message(error: errors.ApiError) -> str:
    """The error's message; a throttle's says how long to wait, in words."""
    if isinstance(error, errors.Throttled) and error.wait is not None:
        wait = ngettext("Try again in %(wait)d second.", "Try again in %(wait)d seconds.",
                        error.wait) % {"wait": error.wait}
        return f"{error.message} {wait}"
    return str(error.message)


def play_error_response(error: errors.ApiError) -> Response:
    """The answer to a domain error: its status, the one shape, Retry-After
    when waiting helps; a stale version carries the attempt as it is now."""
    extra, context = dict(error.extra), {}
    if isinstance(error, errors.StaleVersion):
        extra["state"], context["now"] = error.state, clock.now()
    response = Response(error_body(error.code, _message(error), context=context, **extra),
                        status=error.status)
    wait = _retry_after(error)
    if wait is not None:
        response["Retry-After"] = str(int(wait))
    return response


# DRF's own errors as the api.errors class of their kind (its code).
_DRF_ERRORS = {
    exceptions.ParseError: errors.ApiError,
    exceptions.ValidationError: errors.ApiError,
    exceptions.NotAuthenticated: errors.NotAuthenticated,
    exceptions.AuthenticationFailed: errors.NotAuthenticated,
    exceptions.PermissionDenied: errors.Forbidden,
    exceptions.NotFound: errors.NotFound,
    exceptions.MethodNotAllowed: errors.MethodNotAllowed,
    exceptions.NotAcceptable: errors.NotAcceptable,
    exceptions.UnsupportedMediaType: errors.UnsupportedMediaType,
    exceptions.Throttled: errors.Throttled,
}


# DRF's errors answered with the message of their api.errors class.
_OWN_WORDS = (exceptions.MethodNotAllowed, exceptions.NotAcceptable,
              exceptions.UnsupportedMediaType)


def error_body(code: str, message: str, fields: dict | None = None, *,
               context: dict | None = None, **extra) -> dict:
    """The one error shape; ``extra`` holds the values ErrorDetailOut names
    beside code, message and fields, ``context`` what they need (``now``
    for a ``state``)."""
    detail = {"code": code, "message": message, "fields": fields or {}, **extra}
    return ErrorOut.build(detail, **(context or {}))


def _flatten(detail) -> dict:
    """DRF's nested validation errors as {field: [messages]}."""
    if isinstance(detail, dict):
        return {
            str(key): [str(m) for m in value] if isinstance(value, list) else _flatten(value)
            for key, value in detail.items()
        }
    return {"non_field_errors": [str(m) for m in detail]} if isinstance(detail, list) else {}


def exception_handler(exc, context):
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every error in one shape."""
    # Imported here: DRF's views module reads the throttle classes, which import this one.
    from rest_framework.views import exception_handler as drf_exception_handler
    from rest_framework.views import set_rollback

    if database_unavailable(exc):
        log.warning("Database unavailable: %r", exc)
        exc = errors.Unavailable()
    if isinstance(exc, errors.ApiError):
        set_rollback()
        return play_error_response(exc)
    if isinstance(exc, RequestDataTooBig):  # Django's bound, met reading the body whole
        return play_error_response(too_large())
    if isinstance(exc, exceptions.Throttled):  # DRF's words of the wait are not translated
        return play_error_response(errors.Throttled(wait=exc.wait))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, PermissionDenied):
        return play_error_response(errors.Forbidden())
    elif isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
        return play_error_response(errors.CsrfFailed())  # DRF's SessionAuthentication
    elif isinstance(exc, _OWN_WORDS):  # our message: DRF's names the method or type in English
        return play_error_response(_DRF_ERRORS[type(exc)]())
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # unexpected: Django's handler500 answers (JSON for /api/)
    if isinstance(exc, exceptions.ValidationError):
        code, message = errors.ApiError.code, _("Some fields are not valid.")
        response.data = error_body(code, message, _flatten(exc.detail))
        return response
    kind = next((kind for cls, kind in _DRF_ERRORS.items() if isinstance(exc, cls)),
                errors.ApiError if response.status_code < 500 else errors.ServerError)
    detail = exc.detail
    message = str(detail) if not isinstance(detail, (list, dict)) else str(kind.message)
    response.data = error_body(kind.code, message)
    return response


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def _json(error: errors.ApiError) -> JsonResponse:
    """Django's handlers' answer to an /api/ path: the error in the one shape."""
    return JsonResponse(error_body(error.code, str(error.message)), status=error.status)


def json_page_not_found(request, exception=None):
    """handler404: JSON for /api/ paths, Django's page elsewhere."""
    if _wants_json(request):
        return _json(errors.NotFound())
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


@csrf_exempt  # nothing is done: no CSRF 403 before the 404
def json_path_not_found(request, *args, **kwargs) -> JsonResponse:
    """An /api/ path that names nothing: the JSON 404, whatever the method."""
    return _json(errors.NotFound())


def unavailable_response(request) -> HttpResponse:
    """503 with Retry-After: JSON in the one shape for /api/ paths, text elsewhere."""
    if _wants_json(request):
        response = _json(errors.Unavailable())
    else:
        response = HttpResponse(str(errors.Unavailable.message), status=503,
                                content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def json_server_error(request):
    """handler500: JSON for /api/ paths, Django's page elsewhere; a database
    that cannot be reached (raised outside a view, in a middleware) is a 503."""
    if database_unavailable(sys.exc_info()[1]):
        log.warning("Database unavailable: %r", sys.exc_info()[1])
        return unavailable_response(request)
    if _wants_json(request):
        return _json(errors.ServerError())
    from django.views.defaults import server_error

    return server_error(request)


def json_bad_request(request, exception=None):
    if _wants_json(request):
        return _json(errors.ApiError())
    from django.views.defaults import bad_request

    return bad_request(request, exception)


def json_permission_denied(request, exception=None):
    if _wants_json(request):
        return _json(errors.Forbidden())
    from django.views.defaults import permission_denied

    return permission_denied(request, exception)
