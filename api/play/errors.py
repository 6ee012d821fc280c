"""One JSON error shape for the whole API:

    {"error": {"code": "illegal_move", "message": "...", "fields": {}}}

``code`` is stable for clients (the page translates by it); ``message`` is
human text in the request's language. A 409 ``stale_version`` also carries
``state``, the attempt as it is now.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status

from api.outages import RETRY_AFTER_SECONDS, database_unavailable

log = logging.getLogger(__name__)


class PlayError(exceptions.APIException):
    """An error the services raise; views let it through to the handler."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"
    default_detail = gettext_lazy("The request is not valid.")

    def __init__(self, message=None, *, code: str | None = None, extra: dict | None = None):
        super().__init__(detail=message or self.default_detail, code=code or self.default_code)
        self.error_code = code or self.default_code
        self.extra = extra or {}


class InvalidMove(PlayError):
    default_code = "invalid_move"


class IllegalMove(PlayError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "illegal_move"


class StaleVersion(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "stale_version"
    default_detail = gettext_lazy(
        "The attempt has changed since that version (another tab moved first)."
    )


class AttemptFinished(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "attempt_finished"
    default_detail = gettext_lazy("This attempt is over: no more moves.")


class NothingToUndo(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "nothing_to_undo"
    default_detail = gettext_lazy("There is no move to undo.")


class NotFound(PlayError):
    status_code = status.HTTP_404_NOT_FOUND
    default_code = "not_found"
    default_detail = gettext_lazy("Not found.")


class FutureDate(PlayError):
    status_code = status.HTTP_404_NOT_FOUND
    default_code = "future_date"
    default_detail = gettext_lazy("That day has not begun yet.")


class DayNotOver(PlayError):
    status_code = status.HTTP_404_NOT_FOUND
    default_code = "day_not_over"
    default_detail = gettext_lazy("The solution is published once the day is over.")


class CsrfFailed(PlayError):
    status_code = status.HTTP_403_FORBIDDEN
    default_code = "csrf_failed"
    default_detail = gettext_lazy("The CSRF check failed: send the csrftoken cookie's value in X-CSRFToken.")


class HintNotForRanked(PlayError):
    status_code = status.HTTP_403_FORBIDDEN
    default_code = "hint_not_for_ranked"
    default_detail = gettext_lazy(
        "Hints are for practice: a ranked attempt gets none until it is finished."
    )


class DayOver(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "day_over"
    default_detail = gettext_lazy(
        "The day of this ranked attempt is over: its record stays as it was at midnight."
    )


class ActionLimit(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "action_limit"


class AttemptLimit(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "attempt_limit"


class Unavailable(PlayError):
    """A part the request needs (the database) cannot be reached: try again."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = gettext_lazy("The service is briefly unavailable: please try again shortly.")
    wait = RETRY_AFTER_SECONDS  # DRF's handler sends it as Retry-After


class HintsBusy(PlayError):
    """Every solver slot for hints is taken: ask again in a moment."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "hints_busy"
    default_detail = gettext_lazy(
        "Hints are busy right now: please ask again in a moment."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.wait = settings.PLAY_HINT_RETRY_AFTER  # DRF's handler sends it as Retry-After


class Conflict(PlayError):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


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
}


def error_body(code: str, message: str, fields: dict | None = None, **extra) -> dict:
    return {"error": {"code": code, "message": str(message), "fields": fields or {}, **extra}}


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

    if database_unavailable(exc):
        log.warning("Database unavailable: %r", exc)
        exc = Unavailable()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
        exc = CsrfFailed()  # DRF's SessionAuthentication, for a logged-in session
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # unexpected: Django's handler500 answers (JSON for /api/)
    extra: dict = {}
    if isinstance(exc, PlayError):
        code, message = exc.error_code, str(exc.detail)
        extra = exc.extra
    elif isinstance(exc, exceptions.ValidationError):
        code, message = "bad_request", _("Some fields are not valid.")
        fields = _flatten(exc.detail)
        response.data = error_body(code, message, fields)
        return response
    else:
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
        detail = exc.detail
        message = str(detail) if not isinstance(detail, (list, dict)) else _("The request is not valid.")
    response.data = error_body(code, message, **extra)
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
    message = str(Unavailable.default_detail)
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
