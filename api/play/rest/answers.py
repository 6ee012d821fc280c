"""The API's answers (docs/API.md), each shape defined once: an Output
(api.play.rest.shapes) whose declared fields build the JSON a view returns,
from plain values (the domain's states, models, the selectors' reads), and
are what the OpenAPI schema documents. Shaping only, no queries.

Views answer ``SomeOut.build(value, now=...)``: the keywords are the
context, what the value does not carry (``now``, the moment the answer
describes). A Computed field's ``get_<name>`` computes its value here.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from rest_framework import serializers
from rest_framework.fields import SkipField

import solitaire
from api import clock, errors
from api.deals.difficulty import difficulty_level
from api.play.accounts.tokens import token_expires_at
from api.play.attempts import analysis, hints
from api.play.domain import record_seconds
from api.play.models import Attempt
from api.play.names import shown_name
from api.play.rest.shapes import (
    ClockTime,
    Computed,
    Line,
    Moment,
    Output,
    TextOrNull,
    YearMonth,
    once,
)

# Named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]: two fields called "status".
# Each from its owner: the model's statuses, the solver's, the analysis', the engine's games.
ATTEMPT_STATUSES = list(Attempt.Status.values)
HINT_STATUSES = [status.value for status in solitaire.SolveStatus] + [hints.PENDING]
ANALYSIS_STATUSES = ["pending", "done"]
VERDICTS = list(analysis.VERDICTS)
GAMES = list(solitaire.GAMES)


class RecordSeconds(serializers.FloatField):
    """A record's milliseconds as every answer gives them: seconds, in
    whole tenths (api.play.domain.record_seconds)."""

    def to_representation(self, value):
        return record_seconds(value)


class Notation(serializers.CharField):
    """A position in notation (docs/notation.md)."""

    def to_representation(self, value):
        return value.notation()


def _notations(**kwargs) -> serializers.ListField:
    """Positions in notation: what the replay reads, a fraction of
    structured layouts' CPU and bytes on a long line (benchmarks/replay_bench.py)."""
    return serializers.ListField(child=Notation(), **kwargs)


# -- players -------------------------------------------------------------------------


# A player (api.play.models.Player).
class PlayerOut(Output):
    id = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.get_username")
    display_name = Computed(serializers.CharField())
    is_guest = serializers.BooleanField()

    def get_display_name(self, player) -> str:
        return shown_name(display_name=player.display_name, is_guest=player.is_guest,
                          username=player.user.get_username())


class TokenOut(Output):
    token = serializers.CharField(source="key")
    expires_at = Computed(Moment(help_text="API_TOKEN_TTL_SECONDS after it was issued."))

    def get_expires_at(self, token):
        return token_expires_at(token)


# -- attempts ------------------------------------------------------------------------


class FoundationOut(Output):
    suit = serializers.CharField()
    count = serializers.IntegerField()
    top = serializers.CharField(allow_null=True)


# A position as the engine lays it out (solitaire's Position.to_dict).
class PositionOut(Output):
    game = serializers.ChoiceField(choices=GAMES)
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


class CountersOut(Output):
    cards_home = serializers.IntegerField()
    redeals = serializers.IntegerField()
    undos = serializers.IntegerField()
    moves = serializers.IntegerField()


# An attempt (api.play.domain.AttemptState) at ``now``.
class AttemptSummaryOut(Output):
    id = serializers.IntegerField()
    game = serializers.CharField()
    date = serializers.DateField()
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=ATTEMPT_STATUSES)
    finished = serializers.BooleanField()
    version = serializers.IntegerField()
    counters = CountersOut(source="*")
    started_at = Moment()
    ended_at = Moment(allow_null=True)
    elapsed_seconds = Computed(serializers.FloatField())
    day_ends_at = Moment()
    frozen = Computed(serializers.BooleanField(
        help_text="A ranked attempt whose day is over: its record is as it stood at midnight."
    ))

    def get_elapsed_seconds(self, state) -> float:
        return state.elapsed_seconds(self.context["now"])

    def get_frozen(self, state) -> bool:
        return state.frozen(self.context["now"])


class Legal(NamedTuple):
    card: str
    targets: list[str]


class LegalOut(Output):
    card = serializers.CharField()
    targets = serializers.ListField(child=serializers.CharField())


def legal_by_card(legal: Sequence[solitaire.Move]) -> list[Legal]:
    """The legal moves but the redeal, grouped by the card that moves."""
    grouped: dict[str, list[str]] = {}
    for move in legal:
        if move.is_redeal:
            continue
        card, target = move.token().split(">")
        grouped.setdefault(card, []).append(target)
    return [Legal(card, targets) for card, targets in grouped.items()]


# An attempt at ``now``, with what the player can do next; ``replayed`` (in
# the context) when the request repeated one already applied.
class AttemptOut(AttemptSummaryOut):
    position = PositionOut(source="parsed_position.to_dict")
    legal = Computed(LegalOut(many=True))
    can_redeal = Computed(serializers.BooleanField())
    can_undo = Computed(serializers.BooleanField())
    forced = Computed(serializers.ListField(
        child=serializers.CharField(),
        help_text="When foundation moves alone win from here: all of them, in an order that "
        "plays (send them as one batch of moves); else empty.",
    ))
    safe = Computed(serializers.ListField(
        child=serializers.CharField(),
        help_text="Moves home proven never to lose a solution, in an order that plays "
        "(the solver's rule; every move of the forced finish); may be empty.",
    ))
    last_action = TextOrNull()
    replayed = Computed(serializers.BooleanField())

    @once
    def _over(self) -> bool:
        return self.instance.over(self.context["now"])

    @once
    def _home(self) -> tuple:
        """(forced, safe), as the domain worked them out (AttemptState.home_moves)."""
        return ((), ()) if self._over else self.instance.home_moves

    def get_legal(self, state) -> list[Legal]:
        return [] if self._over else legal_by_card(state.legal_moves)

    def get_can_redeal(self, state) -> bool:
        return (not self._over) and any(move.is_redeal for move in state.legal_moves)

    def get_can_undo(self, state) -> bool:
        return (not self._over) and bool(state.line)

    def get_forced(self, state) -> list[str]:
        return [move.token() for move in self._home[0]]

    def get_safe(self, state) -> list[str]:
        return [move.token() for move in self._home[1]]

    def get_replayed(self, state) -> bool:
        return self.context.get("replayed", False)


# A page of attempts: DRF's PageNumberPagination with its page taken, the
# page's attempts as states in the context (``states``).
class AttemptPageOut(Output):
    count = serializers.IntegerField(source="page.paginator.count")
    next = Computed(serializers.URLField(allow_null=True))
    previous = Computed(serializers.URLField(allow_null=True))
    results = Computed(AttemptSummaryOut(many=True))

    def get_next(self, paginator) -> str | None:
        return paginator.get_next_link()

    def get_previous(self, paginator) -> str | None:
        return paginator.get_previous_link()

    def get_results(self, paginator) -> list:
        return self.context["states"]


# The stored log replayed (api.play.attempts.services.AttemptLog).
class LogOut(Output):
    start = serializers.CharField()
    actions = serializers.ListField(child=serializers.CharField())
    replay_ok = serializers.BooleanField()


# A hint (api.play.attempts.services.Hint).
class HintOut(Output):
    status = serializers.ChoiceField(choices=HINT_STATUSES)
    move = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()


# The first move of a retry, judged (api.play.attempts.services.FirstMove).
class FirstMoveOut(Output):
    move = serializers.CharField(allow_null=True, help_text="The first move of the line; "
                                 "null before it.")
    verdict = serializers.ChoiceField(
        choices=["keeps", "loses", "unknown", "pending"], allow_null=True,
        help_text="keeps: the position after it can still be won; loses: it cannot; unknown: "
        "the solver's budget ran out; pending (202): the solver still searches, ask again "
        "after Retry-After. Null before the first move.")
    version = serializers.IntegerField()


class MovesRedealsOut(Output):
    moves = serializers.IntegerField()
    redeals = serializers.IntegerField()


# Where the win was lost, from the analysis found
# (api.play.attempts.services.attempt_analysis).
class LostAtOut(Output):
    move_number = serializers.IntegerField(source="lost_at",
                                           help_text="1-based, along the attempt's line.")
    move = serializers.CharField(source="lost_move", help_text="The move that lost the win.")
    keeping_move = serializers.CharField(help_text="A move from the position before it that "
                                         "keeps a win (the first of keeping_line).")
    keeping_line = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="A win from the position before that move; only once the deal's day is over "
        "(not while the analysis is sealed).")
    keeping_positions = _notations(
        required=False,
        help_text="With steps=true, once the day is over: the positions along keeping_line, "
        "in notation.")


# An attempt's analysis: the attempt (an AttemptState) and, in the context,
# what attempt_analysis found of it (``found``).
class AnalysisOut(Output):
    attempt_id = serializers.IntegerField(source="id")
    game = serializers.CharField()
    date = serializers.DateField()
    status = Computed(serializers.ChoiceField(choices=ANALYSIS_STATUSES))
    verdict = Computed(serializers.ChoiceField(
        choices=VERDICTS, allow_null=True,
        help_text="null while pending; `undecided`: the solver's budget settled nothing for "
        "sure, and no verdict is given."))
    lost_at = Computed(LostAtOut(allow_null=True))
    moves = Line(source="line", help_text="The attempt's line (the moves standing after undos).")
    mine = MovesRedealsOut(source="*")
    par = Computed(MovesRedealsOut(
        help_text="The moves and redeals of the deal's verified solution."))
    sealed = Computed(serializers.BooleanField(
        help_text="true while the deal's day lasts: lost_at carries the losing move and the "
        "keeping move, not keeping_line (it comes with the solution at day_ends_at)."))
    day_ends_at = Moment(help_text="When the deal's day ends.")
    solver_calls = Computed(serializers.IntegerField(required=False))
    positions = Computed(_notations(
        required=False,
        help_text="With steps=true, in position notation: positions[0] the start, "
        "positions[i] after move i."))

    def _found(self, key: str):
        """What the analysis found under ``key``; absent: the field is left out."""
        try:
            return self.context["found"][key]
        except KeyError:
            raise SkipField() from None

    def get_status(self, state) -> str:
        return self._found("status")

    def get_verdict(self, state) -> str | None:
        return self.context["found"].get("verdict")

    def get_lost_at(self, state) -> dict | None:
        found = self.context["found"]
        return found if found.get("verdict") == "lost" else None

    def get_par(self, state) -> dict:
        return self._found("par")

    def get_sealed(self, state) -> bool:
        return self._found("sealed")

    def get_solver_calls(self, state) -> int:
        return self._found("solver_calls")

    def get_positions(self, state) -> list:
        return self._found("positions")


# -- daily deals ---------------------------------------------------------------------


# Built from api.deals.difficulty.difficulty_level.
class DifficultyLevelOut(Output):
    level = serializers.ChoiceField(["easy", "medium", "hard", "very_hard"])
    step = serializers.IntegerField(help_text="1 (easy) to `of` (very hard)")
    of = serializers.IntegerField()
    percentile = serializers.IntegerField(
        help_text="0-100: the share of a large sample of solvable deals of the game with a lower solver figure")


# A day's deal as a player reads it (api.play.records.selectors.DealRead);
# once the day is over, its position, solution and the share of ranked players
# who won it too.
# A deal as everyone sees it (the day's document): nothing personal.
class PublicDealOut(Output):
    game = serializers.CharField(source="deal.game")
    date = serializers.DateField(source="deal.date")
    ready = serializers.BooleanField(source="deal.is_verified")
    difficulty = serializers.FloatField(source="deal.difficulty", allow_null=True)
    difficulty_level = Computed(DifficultyLevelOut(
        allow_null=True, help_text="Where `difficulty` falls among a large sample of deals (api/deals/difficulty.py)."))
    solution_length = serializers.IntegerField(source="deal.solution_length", allow_null=True)
    redeals = serializers.IntegerField(source="deal.redeals", allow_null=True)
    day_over = serializers.BooleanField()
    position = Computed(PositionOut(required=False, help_text="Only once the day is over."))
    solution = Computed(serializers.CharField(required=False, help_text="Only once the day is over."))
    won_share = Computed(serializers.FloatField(
        required=False, allow_null=True,
        help_text="Only once the day is over: the share of its ranked attempts that were won (null: none)."))

    def _after_the_day(self, read) -> None:
        """The day's answers come once it is over (a deal never verified has none)."""
        if not (read.day_over and read.deal.is_verified):
            raise SkipField()

    def get_difficulty_level(self, read) -> dict | None:
        return difficulty_level(read.deal.game, read.deal.difficulty)

    def get_position(self, read) -> dict:
        self._after_the_day(read)
        return solitaire.parse_position(read.deal.position).to_dict()

    def get_solution(self, read) -> str:
        self._after_the_day(read)
        return read.deal.certificate

    def get_won_share(self, read) -> float | None:
        self._after_the_day(read)
        return read.won_share


# A deal with the player's own attempts on it.
class DealOut(PublicDealOut):
    my_attempts = AttemptSummaryOut(many=True)


# Today (``date``) and its deals (DealReads), at ``now``.
class DailyOut(Output):
    date = serializers.DateField()
    time_zone = Computed(serializers.CharField())
    next_day_starts_at = Computed(Moment())
    seconds_to_next_day = Computed(serializers.IntegerField())
    deals = DealOut(many=True)

    @once
    def _next_start(self):
        return clock.day_end(self.instance["date"])

    def get_time_zone(self, day) -> str:
        return str(clock.daily_zone())

    def get_next_day_starts_at(self, day):
        return self._next_start

    def get_seconds_to_next_day(self, day) -> int:
        return max(0, int((self._next_start - self.context["now"]).total_seconds()))


# A day's public document (api.play.rest.views.DailyDocumentView): the same
# bytes for everyone all day, so nothing that changes with the moment asked.
class DailyDocumentOut(Output):
    date = serializers.DateField()
    time_zone = Computed(serializers.CharField())
    next_day_starts_at = Computed(Moment())
    deals = PublicDealOut(many=True)

    def get_time_zone(self, day) -> str:
        return str(clock.daily_zone())

    def get_next_day_starts_at(self, day):
        return clock.day_end(day["date"])


# A finished day's solution (api.deals.selectors.Solution).
class SolutionOut(Output):
    game = serializers.CharField(source="deal.game")
    date = serializers.DateField(source="deal.date")
    moves = Line(source="deal.certificate")
    positions = _notations(
        help_text="Position notation: positions[0] the start, positions[i] after move i.")


class CountAtOut(Output):
    move_number = serializers.IntegerField()
    count = serializers.IntegerField()


class LosingMoveOut(Output):
    move_number = serializers.IntegerField()
    move = serializers.CharField()
    count = serializers.IntegerField()


# A day's post-mortem as stored (api.play.attempts.post_mortem).
class PostMortemOut(Output):
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
    computed_at = Moment(required=False)


# -- records -------------------------------------------------------------------------


# A day's record: an attempt (api.play.models.Attempt).
class RecordOut(Output):
    attempt_id = serializers.IntegerField(source="pk")
    cards_home = serializers.IntegerField()
    redeals = serializers.IntegerField()
    undos = serializers.IntegerField()
    elapsed_seconds = RecordSeconds(source="elapsed_ms")
    status = serializers.CharField()
    won = Computed(serializers.BooleanField())
    ranked = serializers.BooleanField()
    finished = Computed(serializers.BooleanField(
        help_text="Ended (finished or won). A ranked attempt whose day is over is over too."))

    def get_won(self, attempt) -> bool:
        return attempt.status == Attempt.Status.WON

    def get_finished(self, attempt) -> bool:
        return attempt.ended_at is not None


# Built from api.play.records.selectors.CalendarDay.
class CalendarDayOut(Output):
    date = serializers.DateField(help_text="YYYY-MM-DD in the daily time zone")
    has_deal = serializers.BooleanField(help_text="A verified deal was served that day.")
    difficulty_level = DifficultyLevelOut(allow_null=True, help_text="The day's deal's, as in a deal.")
    today = serializers.BooleanField()
    record = RecordOut(allow_null=True, help_text="The player's record that day, or null.")


# Built from api.play.records.selectors.CalendarMonth.
class CalendarOut(Output):
    game = serializers.ChoiceField(choices=GAMES)
    month = YearMonth(help_text="YYYY-MM")
    today = serializers.DateField()
    first_month = YearMonth(help_text="YYYY-MM: the month of the service's first day.")
    previous = YearMonth(allow_null=True, help_text="YYYY-MM, or null on the first month.")
    next = YearMonth(allow_null=True, help_text="YYYY-MM, or null on today's month.")
    days = CalendarDayOut(many=True, help_text="Every day of the month that has begun, from the first day on.")


# Built from api.play.records.selectors.DayRecords.
class HistoryDayOut(Output):
    date = serializers.DateField()
    cruel = RecordOut(source="records.cruel", allow_null=True, required=False,
                      help_text="Absent with ?game=flower.")
    flower = RecordOut(source="records.flower", allow_null=True, required=False,
                       help_text="Absent with ?game=cruel.")


# Built from api.play.records.streaks.Streak.
class StreakOut(Output):
    current = serializers.IntegerField()
    longest = serializers.IntegerField()


class StreakDayOut(Output):
    date = serializers.DateField()
    state = serializers.ChoiceField(
        choices=["played", "frozen", "missed"],
        help_text="frozen: missed, and a freeze kept the streak going.")


class PlayedStreakOut(StreakOut):
    freezes = serializers.IntegerField(help_text="Freezes held (0 to 2).")
    next_freeze_in = serializers.IntegerField(help_text="Days to play for the next freeze.")
    days = Computed(StreakDayOut(many=True, help_text="From the first day played to today, newest "
                                 "first; today only once played."))

    def get_days(self, streak) -> list:
        return streak.days[::-1]


class StreaksOut(Output):
    played = PlayedStreakOut(help_text="Forgiving: 7 days played earn a freeze, a missed day "
                             "spends one.")
    won = StreakOut()


class TotalsOut(Output):
    played = serializers.IntegerField(source="days_played",
                                      help_text="Days played on the day (a ranked attempt).")
    won = serializers.IntegerField(source="days_won",
                                   help_text="Of those, days whose ranked attempt was won.")


# The best record of each game asked for, by game.
class BestOut(Output):
    cruel = RecordOut(allow_null=True, required=False)
    flower = RecordOut(allow_null=True, required=False)


# Built from api.play.records.selectors.History.
class HistoryOut(Output):
    days = HistoryDayOut(many=True)
    streaks = StreaksOut(source="*")
    totals = TotalsOut(source="*")
    best = BestOut()
    first_day = serializers.DateField(allow_null=True, help_text="The service's first day (its "
                                      "earliest deal); no day before it can have been played.")


# Built from api.play.records.leaderboard.Entry.
class LeaderboardEntryOut(Output):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    cards_home = serializers.IntegerField()
    undos = serializers.IntegerField()
    redeals = serializers.IntegerField()
    elapsed_seconds = RecordSeconds(source="elapsed_ms")
    machine_pace = serializers.BooleanField(
        help_text="Played faster than a person plays: ranked after every other result.")
    is_me = serializers.BooleanField()


# Built from api.play.records.leaderboard.MyEntry.
class LeaderboardMeOut(LeaderboardEntryOut):
    attempt_id = serializers.IntegerField()
    beaten = serializers.IntegerField()
    beaten_share = serializers.FloatField()


class CardsHomeCountOut(Output):
    cards_home = serializers.IntegerField()
    count = serializers.IntegerField()


# Built from api.play.records.leaderboard.Leaderboard.
class LeaderboardOut(Output):
    game = serializers.CharField(source="deal.game")
    date = serializers.DateField(source="deal.date")
    registered = serializers.BooleanField(
        help_text="true: the board of registered players only (?registered=true).")
    total = serializers.IntegerField()
    counts_as_of = Moment()
    entries = LeaderboardEntryOut(many=True)
    me = LeaderboardMeOut(allow_null=True)
    cards_home = CardsHomeCountOut(
        many=True, help_text="The ranked attempts on the board per number of cards home (as `total`).")


# -- my data -------------------------------------------------------------------------


class MyAccountOut(PlayerOut):
    has_password = serializers.BooleanField(
        source="user.has_usable_password",
        help_text="Whether a password is set (never the password).")
    joined_at = Moment(source="user.date_joined")
    last_seen_at = Moment(source="user.last_login", allow_null=True)


class MySessionOut(Output):
    expires_at = Moment(source="expire_date")


class MyTokenOut(Output):
    issued_at = Moment(source="created")
    expires_at = Computed(Moment())

    def get_expires_at(self, token):
        return token_expires_at(token)


class MyLoginFailuresOut(Output):
    failures = serializers.IntegerField()
    last_failure_at = Moment()
    locked_until = Moment(allow_null=True)


class MyActionOut(Output):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["move", "undo", "finish"])
    move = TextOrNull()
    at = Moment()


class MyAnalysisOut(Output):
    state = serializers.ChoiceField(choices=["pending", "analysing", "done"])
    verdict = TextOrNull()
    lost_at = serializers.IntegerField(allow_null=True)
    lost_move = TextOrNull()
    keeping_line = Line()
    analysed_at = Moment(allow_null=True)


# An attempt as kept (api.play.models.Attempt, its actions as ``log``).
class MyAttemptOut(Output):
    id = serializers.IntegerField()
    game = serializers.CharField(source="deal.game")
    date = serializers.DateField(source="deal.date")
    ranked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=ATTEMPT_STATUSES)
    cards_home = serializers.IntegerField()
    moves = serializers.IntegerField()
    undos = serializers.IntegerField()
    redeals = serializers.IntegerField()
    elapsed_seconds = Computed(serializers.FloatField())
    machine_pace = serializers.BooleanField()
    started_at = Moment()
    last_action_at = Moment()
    ended_at = Moment(allow_null=True)
    start_position = serializers.CharField()
    position = serializers.CharField()
    line = Line()
    log = MyActionOut(many=True, help_text="Every action, undos and the finish included.")
    analysis = MyAnalysisOut(allow_null=True)

    def get_elapsed_seconds(self, attempt) -> float:
        return round(attempt.elapsed_ms / 1000, 1)


# A membership (api.play.leagues.models.LeagueMember).
class MyLeagueOut(Output):
    name = serializers.CharField(source="league.name")
    is_owner = Computed(serializers.BooleanField())
    joined_at = Moment()

    def get_is_owner(self, member) -> bool:
        return member.user_id == member.league.owner_id


class MyCalendarFeedOut(Output):
    reminder = ClockTime(help_text="HH:MM in the daily time zone.")
    language = serializers.CharField()
    turned_on_at = Moment(source="created_at")


# Built from api.play.accounts.privacy.PlayerData.
class MyDataOut(Output):
    exported_at = Moment()
    account = MyAccountOut(source="player")
    sessions = MySessionOut(many=True, help_text="Open sessions (their keys are never given).")
    token = MyTokenOut(allow_null=True, help_text="The API token's dates (never its key).")
    login_failures = MyLoginFailuresOut(
        allow_null=True, help_text="Wrong passwords counted against the username.")
    attempts = MyAttemptOut(many=True)
    records = HistoryOut(help_text="As GET /api/v1/history.")
    leagues = MyLeagueOut(many=True, help_text="The leagues joined (or owned).")
    calendar_feed = MyCalendarFeedOut(allow_null=True,
                                      help_text="The feed when on (never its address).")


# -- errors --------------------------------------------------------------------------


# An error's code, message and the values it adds (api.errors).
class ErrorDetailOut(Output):
    code = serializers.ChoiceField(
        choices=errors.CODES, help_text="Stable, machine-readable (docs/API.md lists them).")
    message = serializers.CharField(help_text="Human text in the request's language.")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        help_text="Validation errors: a field's name to its messages.",
    )
    move = serializers.CharField(required=False, help_text="422 illegal_move: the canonical token.")
    reason = serializers.CharField(required=False, help_text="422 illegal_move: the engine's code.")
    state = AttemptOut(required=False, help_text="409 stale_version: the attempt as it is now.")
    day_ended_at = Moment(required=False, help_text="409 day_over: when the attempt's day ended.")
    index = serializers.IntegerField(
        required=False, help_text="A refused batch of moves: the 0-based index of the move refused."
    )
    limit = serializers.IntegerField(
        required=False, help_text="409 action_limit, attempt_limit: the limit reached.")


# Every 4xx and 5xx answer.
class ErrorOut(Output):
    error = ErrorDetailOut(source="*")
