"""One JSON error shape for the whole API:

    {"error": {"code": "illegal_move", "message": "...", "fields": {}}}

``code`` is stable for clients (the page translates by it); ``message`` is
human text in the request's language. A 409 ``stale_version`` also carries
``state``, the attempt as it is now. The shape is ErrorOut
(api.play.rest.answers), which builds every error body.

The one place where errors become HTTP answers: the domain's errors
(api.play.errors) by ``STATUS``, DRF's own (validation, throttling,
authentication) by their codes, and Django's 400/403/404/500 handlers.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response

from api import clock
from api.outages import RETRY_AFTER_SECONDS, database_unavailable
from api.play import errors
from api.play.rest.answers import ErrorOut
from api.play.rest.parsers import PayloadTooLarge

log = logging.getLogger(__name__)


# The HTTP status of each domain error (api.play.errors); a subclass not
# named here takes its nearest named base's.
STATUS = {
    errors.PlayError: status.HTTP_400_BAD_REQUEST,
    errors.IllegalMove: status.HTTP_422_UNPROCESSABLE_ENTITY,
    errors.StaleVersion: status.HTTP_409_CONFLICT,
    errors.AttemptFinished: status.HTTP_409_CONFLICT,
    errors.NothingToUndo: status.HTTP_409_CONFLICT,
    errors.DayOver: status.HTTP_409_CONFLICT,
    errors.AttemptNotOver: status.HTTP_409_CONFLICT,
    errors.AnalysisPending: status.HTTP_409_CONFLICT,
    errors.ActionLimit: status.HTTP_409_CONFLICT,
    errors.AttemptLimit: status.HTTP_409_CONFLICT,
    errors.RankedOpen: status.HTTP_409_CONFLICT,
    errors.BatchNotHome: status.HTTP_422_UNPROCESSABLE_ENTITY,
    errors.Conflict: status.HTTP_409_CONFLICT,
    errors.NotFound: status.HTTP_404_NOT_FOUND,
    errors.FutureDate: status.HTTP_404_NOT_FOUND,
    errors.DayNotOver: status.HTTP_404_NOT_FOUND,
    errors.CsrfFailed: status.HTTP_403_FORBIDDEN,
    errors.HintNotForRanked: status.HTTP_403_FORBIDDEN,
    errors.HintsSealed: status.HTTP_403_FORBIDDEN,
    errors.AnalysisNotYet: status.HTTP_403_FORBIDDEN,
    errors.Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
    errors.HintsBusy: status.HTTP_503_SERVICE_UNAVAILABLE,
    errors.HeavyBusy: status.HTTP_429_TOO_MANY_REQUESTS,
    errors.Forbidden: status.HTTP_403_FORBIDDEN,
}


def _status(error: errors.PlayError) -> int:
    return next(STATUS[cls] for cls in type(error).__mro__ if cls in STATUS)


def _retry_after(error: errors.PlayError) -> float | None:
    if isinstance(error, errors.Unavailable):
        return RETRY_AFTER_SECONDS
    if isinstance(error, errors.HintsBusy):
        return settings.PLAY_HINT_RETRY_AFTER
    if isinstance(error, errors.HeavyBusy):
        return settings.PLAY_HEAVY_RETRY_AFTER
    return None


def play_error_response(error: errors.PlayError) -> Response:
    """The answer to a domain error: its status, the one shape, Retry-After
    when waiting helps; a stale version carries the attempt as it is now."""
    extra, context = dict(error.extra), {}
    if isinstance(error, errors.StaleVersion):
        extra["state"], context["now"] = error.state, clock.now()
    response = Response(error_body(error.code, error.message, context=context, **extra),
                        status=_status(error))
    wait = _retry_after(error)
    if wait is not None:
        response["Retry-After"] = str(int(wait))
    return response


_DRF_CODES = {
    exceptions.ParseError: "bad_request",
    exceptions.ValidationError: "bad_request",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    PayloadTooLarge: "payload_too_large",
}


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
    if isinstance(exc, errors.PlayError):
        set_rollback()
        return play_error_response(exc)
    if isinstance(exc, RequestDataTooBig):  # Django's bound, met reading the body whole
        exc = PayloadTooLarge()
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
        return play_error_response(errors.CsrfFailed())  # DRF's SessionAuthentication
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # unexpected: Django's handler500 answers (JSON for /api/)
    if isinstance(exc, exceptions.ValidationError):
        code, message = "bad_request", _("Some fields are not valid.")
        fields = _flatten(exc.detail)
        response.data = error_body(code, message, fields)
        return response
    else:
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
        detail = exc.detail
        message = str(detail) if not isinstance(detail, (list, dict)) else _("The request is not valid.")
    response.data = error_body(code, message)
    return response


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def json_page_not_found(request, exception=None):
    """handler404: JSON for /api/ paths, Django's page elsewhere."""
    if _wants_json(request):
        return JsonResponse(error_body("not_found", _("Not found.")), status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def unavailable_response(request) -> HttpResponse:
    """503 with Retry-After: JSON in the one shape for /api/ paths, text elsewhere."""
    message = str(errors.Unavailable.message)
    if _wants_json(request):
        response = JsonResponse(error_body("unavailable", message), status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def json_server_error(request):
    """handler500: JSON for /api/ paths, Django's page elsewhere; a database
    that cannot be reached (raised outside a view, in a middleware) is a 503."""
    if database_unavailable(sys.exc_info()[1]):
        log.warning("Database unavailable: %r", sys.exc_info()[1])
        return unavailable_response(request)
    if _wants_json(request):
        return JsonResponse(
            error_body("server_error", _("Something went wrong on our side.")), status=500
        )
    from django.views.defaults import server_error

    return server_error(request)


def json_bad_request(request, exception=None):
    if _wants_json(request):
        return JsonResponse(error_body("bad_request", _("The request is not valid.")), status=400)
    from django.views.defaults import bad_request

    return bad_request(request, exception)


def json_permission_denied(request, exception=None):
    if _wants_json(request):
        return JsonResponse(error_body("forbidden", _("You may not do that.")), status=403)
    from django.views.defaults import permission_denied

    return permission_denied(request, exception)
