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

from api.play.rest.answers import ErrorOut

ERRORS = {
    400: "Bad input (`bad_request` with `fields`, `bad_date`, `bad_month`, `invalid_move`, "
         "`bad_credentials`, `password_required`, `confirmation_required`, ...).",
    401: "`not_authenticated`: a token that is not valid, expired or revoked (or, deleting "
         "an account, no player in the session).",
    403: "`csrf_failed` (an unsafe request without the CSRF header), `forbidden`, "
         "`hint_not_for_ranked`, `hints_sealed`, `analysis_not_yet`.",
    404: "`not_found`, `unknown_game`, `future_date`, `deal_not_ready`, `day_not_over`, "
         "`before_first_day`.",
    409: "`stale_version` (with `state`), `attempt_finished`, `nothing_to_undo`, `day_over`, "
         "`action_limit`, `attempt_limit`, `attempt_not_over`, `analysis_pending`, `username_taken`, `already_registered`, "
         "`display_name_taken`, `conflict`.",
    415: "The body is not JSON (`unsupported_media_type`).",
    422: "`illegal_move` (with `move` and `reason`).",
    429: "`throttled`: too many requests; `Retry-After` says when to try again.",
    503: "`unavailable`: the database cannot be reached; `Retry-After` says when to try again.",
}
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


GAME = OpenApiParameter("game", str, OpenApiParameter.PATH, enum=["cruel", "flower"])
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
