"""The OpenAPI description of the API's answers: one home for the response
shapes of docs/API.md and for the one error shape.

Views describe themselves with ``documented(ok={200: SomeOut}, errors=(404,))``;
every operation also gets the errors any request can meet (403, 429, 503).
These serializers only describe: the views build their answers as plain dicts
(api.play.rest.answers), and the schemathesis test
(tests/api/play/test_play_schemathesis.py) checks the live answers against
this description.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

# -- errors ------------------------------------------------------------------------


class ErrorDetailOut(serializers.Serializer):
    code = serializers.CharField(help_text="Stable, machine-readable (docs/API.md lists them).")
    message = serializers.CharField(help_text="Human text in the request's language.")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Validation errors: a field's name to its messages.",
    )
    move = serializers.CharField(required=False, help_text="422 illegal_move: the canonical token.")
    reason = serializers.CharField(required=False, help_text="422 illegal_move: the engine's code.")
    state = serializers.DictField(
        required=False, help_text="409 stale_version: the attempt as it is now."
    )
    day_ended_at = serializers.DateTimeField(
        required=False, help_text="409 day_over: when the attempt's day ended."
    )
    index = serializers.IntegerField(
        required=False, help_text="A refused batch of moves: the 0-based index of the move refused."
    )


class ErrorOut(serializers.Serializer):
    error = ErrorDetailOut()


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

# Named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]: two fields called "status".
ATTEMPT_STATUSES = ["playing", "won", "blocked", "stalled", "abandoned"]
HINT_STATUSES = ["solved", "unsolvable", "unknown"]
ANALYSIS_STATUSES = ["pending", "done"]
VERDICTS = ["won", "lost", "still_winnable", "undecided"]

# -- answers -------------------------------------------------------------------------


class PlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_guest = serializers.BooleanField()


class TokenOut(serializers.Serializer):
    token = serializers.CharField()
    expires_at = serializers.DateTimeField(help_text="API_TOKEN_TTL_SECONDS after it was issued.")


class FoundationOut(serializers.Serializer):
    suit = serializers.CharField()
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


class PositionOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=["cruel", "flower"])
    notation = serializers.CharField()
    piles = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Cruel: 12 piles, base to top.",
    )
    columns = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Flower Garden: 6 columns, base to top.",
    )
    bouquet = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Flower Garden."
    )
    foundations = FoundationOut(many=True)
    cards_home = serializers.IntegerField()


class CountersOut(serializers.Serializer):
    cards_home = serializers.IntegerField()
    redeals = serializers.IntegerField()
    undos = serializers.IntegerField()
    moves = serializers.IntegerField()


class AttemptSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.DateField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=ATTEMPT_STATUSES)
    finished = serializers.BooleanField()
    version = serializers.IntegerField()
    counters = CountersOut()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    elapsed_seconds = serializers.FloatField()
    day_ends_at = serializers.DateTimeField()
    frozen = serializers.BooleanField(
        help_text="A ranked attempt whose day is over: its record is as it stood at midnight."
    )


class LegalOut(serializers.Serializer):
    card = serializers.CharField()
    targets = serializers.ListField(child=serializers.CharField())


class AttemptOut(AttemptSummaryOut):
    position = PositionOut()
    legal = LegalOut(many=True)
    can_redeal = serializers.BooleanField()
    can_undo = serializers.BooleanField()
    forced = serializers.ListField(
        child=serializers.CharField(),
        help_text="When foundation moves alone win from here: all of them, in an order that "
        "plays (send them as one batch of moves); else empty.",
    )
    safe = serializers.ListField(
        child=serializers.CharField(),
        help_text="Moves home proven never to lose a solution, in an order that plays "
        "(the solver's rule; every move of the forced finish); may be empty.",
    )
    last_action = serializers.CharField(allow_null=True)
    replayed = serializers.BooleanField()


class AttemptPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AttemptSummaryOut(many=True)


class DifficultyLevelOut(serializers.Serializer):
    level = serializers.ChoiceField(["easy", "medium", "hard", "very_hard"])
    step = serializers.IntegerField(help_text="1 (easy) to `of` (very hard)")
    of = serializers.IntegerField()
    percentile = serializers.IntegerField(
        help_text="0-100: the share of a large sample of solvable deals of the game with a lower solver figure")


class DealOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    ready = serializers.BooleanField()
    difficulty = serializers.FloatField(allow_null=True)
    difficulty_level = DifficultyLevelOut(
        allow_null=True, help_text="Where `difficulty` falls among a large sample of deals (api/deals/difficulty.py).")
    solution_length = serializers.IntegerField(allow_null=True)
    redeals = serializers.IntegerField(allow_null=True)
    day_over = serializers.BooleanField()
    position = PositionOut(required=False, help_text="Only once the day is over.")
    solution = serializers.CharField(required=False, help_text="Only once the day is over.")
    won_share = serializers.FloatField(
        required=False, allow_null=True,
        help_text="Only once the day is over: the share of its ranked attempts that were won (null: none).")
    my_attempts = AttemptSummaryOut(many=True)


class DailyOut(serializers.Serializer):
    date = serializers.DateField()
    time_zone = serializers.CharField()
    next_day_starts_at = serializers.DateTimeField()
    seconds_to_next_day = serializers.IntegerField()
    deals = DealOut(many=True)


class SolutionOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    moves = serializers.ListField(child=serializers.CharField())
    positions = serializers.ListField(
        child=serializers.CharField(),
        help_text="Position notation: positions[0] the start, positions[i] after move i.")


class LogOut(serializers.Serializer):
    start = serializers.CharField()
    actions = serializers.ListField(child=serializers.CharField())
    replay_ok = serializers.BooleanField()


class HintOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=HINT_STATUSES)
    move = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()


class MovesRedealsOut(serializers.Serializer):
    moves = serializers.IntegerField()
    redeals = serializers.IntegerField()


class LostAtOut(serializers.Serializer):
    move_number = serializers.IntegerField(help_text="1-based, along the attempt's line.")
    move = serializers.CharField(help_text="The move that lost the win.")
    keeping_move = serializers.CharField(help_text="A move from the position before it that "
                                         "keeps a win (the first of keeping_line).")
    keeping_line = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="A win from the position before that move; only once the deal's day is over "
        "(not while the analysis is sealed).")
    keeping_positions = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="With steps=true, once the day is over: the positions along keeping_line, "
        "in notation.")


class AnalysisOut(serializers.Serializer):
    attempt_id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=ANALYSIS_STATUSES)
    verdict = serializers.ChoiceField(
        choices=VERDICTS, allow_null=True,
        help_text="null while pending; `undecided`: the solver's budget settled nothing for "
        "sure, and no verdict is given.")
    lost_at = LostAtOut(allow_null=True)
    moves = serializers.ListField(child=serializers.CharField(),
                                  help_text="The attempt's line (the moves standing after undos).")
    mine = MovesRedealsOut()
    par = MovesRedealsOut(help_text="The moves and redeals of the deal's verified solution.")
    sealed = serializers.BooleanField(
        help_text="true while the deal's day lasts: lost_at carries the losing move and the "
        "keeping move, not keeping_line (it comes with the solution at day_ends_at).")
    day_ends_at = serializers.DateTimeField(help_text="When the deal's day ends.")
    solver_calls = serializers.IntegerField(required=False)
    positions = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="With steps=true, in position notation: positions[0] the start, "
        "positions[i] after move i.")


class CountAtOut(serializers.Serializer):
    move_number = serializers.IntegerField()
    count = serializers.IntegerField()


class LosingMoveOut(CountAtOut):
    move = serializers.CharField()


class PostMortemOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=ANALYSIS_STATUSES)
    ranked = serializers.IntegerField(required=False)
    won = serializers.IntegerField(required=False)
    lost = serializers.IntegerField(required=False)
    still_winnable = serializers.IntegerField(required=False)
    undecided = serializers.IntegerField(required=False)
    pending = serializers.IntegerField(required=False)
    lost_at = CountAtOut(many=True, required=False)
    losing_moves = LosingMoveOut(many=True, required=False)
    par = MovesRedealsOut(required=False)
    computed_at = serializers.DateTimeField(required=False)


class RecordOut(serializers.Serializer):
    attempt_id = serializers.IntegerField()
    cards_home = serializers.IntegerField()
    redeals = serializers.IntegerField()
    undos = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    status = serializers.CharField()
    won = serializers.BooleanField()
    ranked = serializers.BooleanField()


class CalendarDayOut(serializers.Serializer):
    date = serializers.DateField(help_text="YYYY-MM-DD in the daily time zone")
    has_deal = serializers.BooleanField(help_text="A verified deal was served that day.")
    difficulty_level = DifficultyLevelOut(allow_null=True, help_text="The day's deal's, as in a deal.")
    today = serializers.BooleanField()
    record = RecordOut(allow_null=True, help_text="The player's record that day, or null.")


class CalendarOut(serializers.Serializer):
    game = serializers.ChoiceField(choices=["cruel", "flower"])
    month = serializers.CharField(help_text="YYYY-MM")
    today = serializers.DateField()
    first_month = serializers.CharField(help_text="YYYY-MM: the month of the service's first day.")
    previous = serializers.CharField(allow_null=True, help_text="YYYY-MM, or null on the first month.")
    next = serializers.CharField(allow_null=True, help_text="YYYY-MM, or null on today's month.")
    days = CalendarDayOut(many=True, help_text="Every day of the month that has begun, from the first day on.")


class HistoryDayOut(serializers.Serializer):
    date = serializers.DateField()
    cruel = RecordOut(allow_null=True, required=False, help_text="Absent with ?game=flower.")
    flower = RecordOut(allow_null=True, required=False, help_text="Absent with ?game=cruel.")


class StreakOut(serializers.Serializer):
    current = serializers.IntegerField()
    longest = serializers.IntegerField()


class StreakDayOut(serializers.Serializer):
    date = serializers.DateField()
    state = serializers.ChoiceField(
        choices=["played", "frozen", "missed"],
        help_text="frozen: missed, and a freeze kept the streak going.")


class PlayedStreakOut(StreakOut):
    freezes = serializers.IntegerField(help_text="Freezes held (0 to 2).")
    next_freeze_in = serializers.IntegerField(help_text="Days to play for the next freeze.")
    days = StreakDayOut(many=True, help_text="From the first day played to today, newest "
                        "first; today only once played.")


class StreaksOut(serializers.Serializer):
    played = PlayedStreakOut(help_text="Forgiving: 7 days played earn a freeze, a missed day "
                             "spends one.")
    won = StreakOut()


class TotalsOut(serializers.Serializer):
    played = serializers.IntegerField(help_text="Days played on the day (a ranked attempt).")
    won = serializers.IntegerField(help_text="Of those, days whose ranked attempt was won.")


class BestOut(serializers.Serializer):
    cruel = RecordOut(allow_null=True, required=False)
    flower = RecordOut(allow_null=True, required=False)


class HistoryOut(serializers.Serializer):
    days = HistoryDayOut(many=True)
    streaks = StreaksOut()
    totals = TotalsOut()
    best = BestOut()


class LeaderboardEntryOut(serializers.Serializer):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    cards_home = serializers.IntegerField()
    undos = serializers.IntegerField()
    redeals = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    machine_pace = serializers.BooleanField(
        help_text="Played faster than a person plays: ranked after every other result.")
    is_me = serializers.BooleanField()


class LeaderboardMeOut(LeaderboardEntryOut):
    attempt_id = serializers.IntegerField()
    beaten = serializers.IntegerField()
    beaten_share = serializers.FloatField()


class CardsHomeCountOut(serializers.Serializer):
    cards_home = serializers.IntegerField()
    count = serializers.IntegerField()


class LeaderboardOut(serializers.Serializer):
    game = serializers.CharField()
    date = serializers.DateField()
    registered = serializers.BooleanField(
        help_text="true: the board of registered players only (?registered=true).")
    total = serializers.IntegerField()
    counts_as_of = serializers.DateTimeField()
    entries = LeaderboardEntryOut(many=True)
    me = LeaderboardMeOut(allow_null=True)
    cards_home = CardsHomeCountOut(
        many=True, help_text="The ranked attempts on the board per number of cards home (as `total`).")


class MyAccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_guest = serializers.BooleanField()
    has_password = serializers.BooleanField(help_text="Whether a password is set (never the password).")
    joined_at = serializers.DateTimeField()
    last_seen_at = serializers.DateTimeField(allow_null=True)


class MySessionOut(serializers.Serializer):
    expires_at = serializers.DateTimeField()


class MyTokenOut(serializers.Serializer):
    issued_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class MyLoginFailuresOut(serializers.Serializer):
    failures = serializers.IntegerField()
    last_failure_at = serializers.DateTimeField()
    locked_until = serializers.DateTimeField(allow_null=True)


class MyActionOut(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["move", "undo", "finish"])
    move = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()


class MyAnalysisOut(serializers.Serializer):
    state = serializers.ChoiceField(choices=["pending", "analysing", "done"])
    verdict = serializers.CharField(allow_null=True)
    lost_at = serializers.IntegerField(allow_null=True)
    lost_move = serializers.CharField(allow_null=True)
    keeping_line = serializers.ListField(child=serializers.CharField())
    analysed_at = serializers.DateTimeField(allow_null=True)


class MyAttemptOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.DateField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=ATTEMPT_STATUSES)
    cards_home = serializers.IntegerField()
    moves = serializers.IntegerField()
    undos = serializers.IntegerField()
    redeals = serializers.IntegerField()
    elapsed_seconds = serializers.FloatField()
    machine_pace = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    last_action_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    start_position = serializers.CharField()
    position = serializers.CharField()
    line = serializers.ListField(child=serializers.CharField())
    log = MyActionOut(many=True, help_text="Every action, undos and the finish included.")
    analysis = MyAnalysisOut(allow_null=True)


class MyLeagueOut(serializers.Serializer):
    name = serializers.CharField()
    is_owner = serializers.BooleanField()
    joined_at = serializers.DateTimeField()


class MyCalendarFeedOut(serializers.Serializer):
    reminder = serializers.CharField(help_text="HH:MM in the daily time zone.")
    language = serializers.CharField()
    turned_on_at = serializers.DateTimeField()


class MyDataOut(serializers.Serializer):
    exported_at = serializers.DateTimeField()
    account = MyAccountOut()
    sessions = MySessionOut(many=True, help_text="Open sessions (their keys are never given).")
    token = MyTokenOut(allow_null=True, help_text="The API token's dates (never its key).")
    login_failures = MyLoginFailuresOut(
        allow_null=True, help_text="Wrong passwords counted against the username.")
    attempts = MyAttemptOut(many=True)
    records = HistoryOut(help_text="As GET /api/v1/history.")
    leagues = MyLeagueOut(many=True, help_text="The leagues joined (or owned).")
    calendar_feed = MyCalendarFeedOut(allow_null=True,
                                      help_text="The feed when on (never its address).")


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
