"""The OpenAPI description: what each operation takes and answers, and the
schema's own view. The answers' shapes are api.play.rest.answers, where
each both builds its answer and is what this schema documents.

Views describe themselves with ``documented(ok={200: SomeOut}, errors=(404,))``;
every operation also gets the errors any request can meet (403, 429, 503),
in the one error shape (ErrorOut). The schemathesis test
(tests/api/play/test_play_schemathesis.py) checks live answers against it.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import JSONRenderer

import solitaire
from api import errors
from api.play.rest.answers import ErrorOut

# What each error status means, beside the codes it carries (api.errors).
_STATUS_WORDS = {
    400: "Bad input (`bad_request` carries `fields`)",
    401: "Not authenticated",
    403: "Not allowed",
    404: "Not found",
    409: "In conflict with the state things are in",
    415: "The body is not JSON",
    422: "Not a legal move now",
    429: "Too many requests; `Retry-After` says when to try again",
    503: "Unavailable for a moment; `Retry-After` says when to try again",
}


def _described(status: int) -> str:
    codes = ", ".join(f"`{code}`" for code in errors.codes_of_status(status))
    return f"{_STATUS_WORDS[status]}: {codes}."


ERRORS = {status: _described(status) for status in _STATUS_WORDS}
# What any request can meet: a bad token or a missing CSRF header, the
# throttles, and a database outage.
ALWAYS = (401, 403, 429, 503)
# What any request with a JSON body can also meet.
WITH_BODY = (400, 415)

RETRY_AFTER = OpenApiParameter(
    "Retry-After", OpenApiTypes.INT, OpenApiParameter.HEADER, response=[429, 503],
    description="Seconds to wait before trying again.",
)


def error_responses(*statuses: int) -> dict:
    return {
        status: OpenApiResponse(ErrorOut, description=ERRORS[status])
        for status in sorted(set(statuses) | set(ALWAYS))
    }


def documented(*, ok: dict, errors: tuple[int, ...] = (), request=None, body: bool | None = None,
               parameters: list | None = None, **kwargs):
    """extend_schema with the answers an operation gives: ``ok`` maps success
    statuses to serializers (or None for no body), ``errors`` the error statuses
    beyond ALWAYS (and WITH_BODY when the operation takes a body)."""
    takes_body = request is not None if body is None else body
    statuses = (*errors, *(WITH_BODY if takes_body else ()))
    return extend_schema(
        request=request,
        responses={**ok, **error_responses(*statuses)},
        parameters=[*(parameters or []), RETRY_AFTER],
        **kwargs,
    )


GAME = OpenApiParameter("game", str, OpenApiParameter.PATH, enum=list(solitaire.GAMES))
DATE = OpenApiParameter(
    "date", OpenApiTypes.DATE, OpenApiParameter.PATH,
    description="YYYY-MM-DD, a day in the daily time zone (anything else: 400 bad_date).",
)
MONTH = OpenApiParameter(
    # Years 0001-9999, months 01-12: what the API reads as a month.
    "month", str, OpenApiParameter.PATH,
    pattern=r"^([1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-(0[1-9]|1[0-2])$",
    description="YYYY-MM (anything else: 400 bad_month).",
)


class BodyOnDeleteSchema(AutoSchema):
    """drf-spectacular describes the bodies of PUT, PATCH and POST only;
    DELETE /api/v1/me takes one too (the password or the confirmation)."""

    def _get_request_body(self, direction="request"):
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"


# -- the schema itself ---------------------------------------------------------------


def postprocess_exclusive_moves(result, generator, request, public):
    """A move request carries ``move`` or ``moves``, never both, never neither
    (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    move_in = result.get("components", {}).get("schemas", {}).get("MoveIn")
    if move_in is not None:
        move_in["oneOf"] = [{"required": ["move"]}, {"required": ["moves"]}]
    return result


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema (YAML, or JSON when asked); when it cannot be
    answered (a 503 while the database is down, a 429), the error is JSON in
    the one error shape, like every other answer."""

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response
