"""The rules of an attempt, as plain functions on plain values.

An attempt's state in, an action in, and out comes a ``Change`` (the new
state and the action records to log), or a domain error with a stable code
(api.errors). Nothing here reads or writes the database or a clock:
the store loads and saves states, the services pass ``now``.

The version protocol: every change (a move, an undo, a finish) moves the
version by one and logs one action numbered with the new version, so a
change computed from an older state can never be stored over a newer one
(the store writes on condition of the version it was computed from).

Machine pace: a solver can play a whole deal in a second, and nothing can
stop a program from playing. It can be seen: a request whose action comes
less than ``Rules.pace_ms`` after the attempt's previous action is fast,
and an attempt that makes ``Rules.pace_run`` fast requests in a row is
marked ``machine_pace`` for good. People do not keep that pace (a move
takes a look, a gesture and a round trip); the page's own automation (the
forced finish, safe moves home) is one batch, which counts as one request.
A marked ranked result is kept and ranked after every unmarked one. On a
ranked attempt a batch may hold only the moves home the engine lists as
forced or safe at each step (what the page sends), so a whole game cannot
be posted in a couple of requests.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Sequence

from django.utils.translation import gettext as _

import solitaire
from api.errors import (
    ActionLimit,
    ApiError,
    AttemptFinished,
    AttemptLimit,
    BatchNotHome,
    DayOver,
    IllegalMove,
    NothingToUndo,
    RankedOpen,
)
from api.play.illegal import illegal_move_message
from solitaire.solver import is_stalled

# An attempt's status.
PLAYING, WON, BLOCKED, STALLED, ABANDONED = "playing", "won", "blocked", "stalled", "abandoned"
# The kinds of action in an attempt's log.
MOVE, UNDO, FINISH = "move", "undo", "finish"


@dataclass(frozen=True)
class Rules:
    """The limits play runs under (from settings; tests choose their own)."""

    max_actions: int  # moves and undos in one attempt
    stall_nodes: int  # the stalled check's search budget
    max_attempts: int = 100  # attempts of one player on one deal
    pace_ms: int = 150  # a request this soon after the previous action is fast
    pace_run: int = 20  # fast requests in a row that mark machine pace


@dataclass(frozen=True)
class ActionRecord:
    """One line of the log: the version it made, what it was, when."""

    number: int
    kind: str
    move: str
    at: dt.datetime

    @property
    def token(self) -> str:
        return self.move if self.kind == MOVE else self.kind


@lru_cache(maxsize=4096)
def _parse(notation: str) -> solitaire.Position:
    # Positions are immutable: a day's start is parsed once for all its players.
    return solitaire.parse_position(notation)


# A record's time is read in whole tenths of a second, cut, never rounded
# (7.09 s is 7.0): the tenths the leaderboard ranks by, and the same on the
# attempt, the leaderboard, the history and the page's share text
# (frontend format.js formatTenths cuts the same way).
TIME_STEP_MS = 100


def record_seconds(ms: int) -> float:
    """Milliseconds of a record as every answer gives them: 7099 -> 7.0."""
    return (ms // TIME_STEP_MS) * TIME_STEP_MS / 1000


@dataclass(frozen=True)
class AttemptState:
    """An attempt as stored, with what play needs of its deal. The fields in
    ``FIXED`` are set when it starts and no change alters them."""

    id: int
    player_id: int
    deal_id: int
    game: str
    date: dt.date
    day_ends_at: dt.datetime
    ranked: bool
    status: str
    version: int
    start_position: str
    position: str
    line: str
    cards_home: int
    redeals: int
    undos: int
    moves: int
    elapsed_ms: int
    started_at: dt.datetime
    last_action_at: dt.datetime
    ended_at: dt.datetime | None
    last_action: str
    fast_run: int = 0
    machine_pace: bool = False
    is_retry: bool = False  # started by "try again from here": it makes no day's record

    FIXED = frozenset({"id", "player_id", "deal_id", "game", "date", "day_ends_at", "ranked",
                       "start_position", "started_at", "is_retry"})

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    def frozen(self, now: dt.datetime) -> bool:
        """A ranked attempt whose day is over (its deal's solution is public
        from the same moment): no move or undo any more, and its record
        stays as it stood at midnight."""
        return self.ranked and now >= self.day_ends_at

    def sealed(self, now: dt.datetime) -> bool:
        """The deal's day lasts: nothing that would win it (a hint, the
        line that kept a win) is given on any attempt on it until it ends."""
        return now < self.day_ends_at

    def over(self, now: dt.datetime) -> bool:
        """No further move or undo: finished, or frozen."""
        return self.finished or self.frozen(now)

    @cached_property
    def parsed_position(self) -> solitaire.Position:
        return _parse(self.position)

    # What can be done next, worked out once per position: the domain works
    # it out as it plays a move, the answer reads it from the state.
    @cached_property
    def legal_moves(self) -> tuple[solitaire.Move, ...]:
        """The engine's legal moves here (a redeal among them when one is offered)."""
        return self.parsed_position.legal_moves()

    @cached_property
    def home_moves(self) -> tuple[tuple[solitaire.Move, ...], tuple[solitaire.Move, ...]]:
        """(forced, safe): the moves home the game lists here (the solver's rule)."""
        return solitaire.home_moves(self.parsed_position)

    def board(self) -> solitaire.Board:
        """A new engine Board resuming the stored line (not replayed)."""
        return solitaire.Board.resume(
            _parse(self.start_position), solitaire.parse_moves(self.line),
            self.parsed_position, undos=self.undos)

    def elapsed_seconds(self, now: dt.datetime) -> float:
        """The record's time: to the last action, or to the end once the
        attempt is over; while it is played, the clock runs to ``now``.
        In record_seconds' tenths either way."""
        if self.over(now):
            return record_seconds(self.elapsed_ms)
        return record_seconds(_ms(self.started_at, now))


@dataclass(frozen=True)
class Change:
    """A new state and the actions that made it from ``from_version``."""

    state: AttemptState
    actions: tuple[ActionRecord, ...]

    @property
    def from_version(self) -> int:
        return self.actions[0].number - 1


def _ms(start: dt.datetime, end: dt.datetime) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


def status_of(position: solitaire.Position, *, rules: Rules,
              legal: tuple[solitaire.Move, ...] | None = None) -> str:
    """``legal``: the position's legal moves, when the caller has them."""
    outcome = position.outcome(legal)
    if outcome.status is solitaire.Status.WON:
        return WON
    if outcome.status is solitaire.Status.BLOCKED:
        return BLOCKED
    if is_stalled(position, max_nodes=rules.stall_nodes):
        return STALLED
    return PLAYING


@dataclass(frozen=True)
class MyAttempts:
    """What a start needs to know of the player's attempts on the deal."""

    total: int
    ranked: int
    ranked_open: int


def start_ranked(mine: MyAttempts, *, deal_is_today: bool, rules: Rules) -> bool:
    """Is a new attempt ranked (True) or practice (False)? Ranked when it is
    the player's first on today's deal. Practice on today's deal opens once
    the ranked attempt is finished: with it open, practice would be a
    scratchpad for the ranked line (undos there cost nothing)."""
    if mine.total >= rules.max_attempts:
        raise AttemptLimit(
            _("You have made %(limit)s attempts on this deal, the most there can be.")
            % {"limit": rules.max_attempts},
            extra={"limit": rules.max_attempts},
        )
    if deal_is_today and mine.ranked_open:
        raise RankedOpen()
    return deal_is_today and not mine.ranked


def start_practice(mine: MyAttempts, *, deal_is_today: bool, rules: Rules) -> bool:
    """A start that is practice whatever came before (a retry from a later
    position): the caps and the rule of an open ranked attempt still hold."""
    start_ranked(mine, deal_is_today=deal_is_today, rules=rules)
    return False


def check_playable(state: AttemptState, *, now: dt.datetime, rules: Rules) -> None:
    """May this attempt take another move or undo?"""
    if state.finished:
        raise AttemptFinished()
    if state.frozen(now):
        raise DayOver(extra={"day_ended_at": state.day_ends_at})
    if state.version >= rules.max_actions:
        raise ActionLimit(
            _("This attempt has had %(limit)s moves and undos, the most there can be: "
              "finish it and start another.") % {"limit": rules.max_actions},
            extra={"limit": rules.max_actions},
        )


def _after(state: AttemptState, board: solitaire.Board, *, kind: str, move: str,
           now: dt.datetime, rules: Rules) -> tuple[AttemptState, ActionRecord]:
    """The state once ``board`` took one more action, and its log line."""
    record = board.record()
    legal = board.position.legal_moves()
    status = status_of(board.position, rules=rules, legal=legal)
    ended_at = now if status == WON else None
    version = state.version + 1
    new = dataclasses.replace(
        state,
        position=board.position.notation(),
        line=solitaire.moves_text(board.move_stack),
        cards_home=record.cards_home, moves=record.moves,
        redeals=record.redeals, undos=record.undos,
        status=status, version=version,
        last_action=move if kind == MOVE else kind, last_action_at=now,
        ended_at=ended_at, elapsed_ms=_ms(state.started_at, now),
    )
    new.__dict__["parsed_position"] = board.position  # the cached properties, already known
    new.__dict__["legal_moves"] = legal
    return new, ActionRecord(version, kind, move, now)


# Worked out from the position (AttemptState's cached properties): a change
# that leaves the position keeps them.
_OF_POSITION = ("parsed_position", "legal_moves", "home_moves")


def _same_position(state: AttemptState, **changes) -> AttemptState:
    new = dataclasses.replace(state, **changes)
    for name in _OF_POSITION:
        if name in state.__dict__:
            new.__dict__[name] = state.__dict__[name]
    return new


def _paced(state: AttemptState, *, now: dt.datetime, rules: Rules) -> AttemptState:
    """The state with this request's pace counted (see the module's words)."""
    fast = now - state.last_action_at < dt.timedelta(milliseconds=rules.pace_ms)
    run = state.fast_run + 1 if fast else 0
    return dataclasses.replace(state, fast_run=run,
                               machine_pace=state.machine_pace or run >= rules.pace_run)


def _check_home_move(state: AttemptState, move: solitaire.Move) -> None:
    """A ranked batch's move must be one the engine lists as forced or safe."""
    forced, safe = state.home_moves
    if move not in forced and move not in safe:
        raise BatchNotHome(
            _("On a ranked attempt a batch holds only moves home that the game lists as "
              "forced or safe; send %(move)s on its own.") % {"move": move.token()},
            extra={"move": move.token()},
        )


def play(state: AttemptState, moves: Sequence[solitaire.Move], *, now: dt.datetime,
         rules: Rules, batch: bool = False) -> Change:
    """Apply the moves in order, all or none. In a batch, an error names the
    ``index`` of the move that failed."""
    board = state.board()
    actions = []
    paced = _paced(state, now=now, rules=rules)
    for index, move in enumerate(moves):
        try:
            check_playable(state, now=now, rules=rules)
            token = move.token()
            if batch and state.ranked:
                _check_home_move(state, move)
            try:
                board.push(move)
            except solitaire.IllegalMoveError as error:
                raise IllegalMove(
                    illegal_move_message(error, game=state.game),
                    extra={"move": token, "reason": error.reason or "illegal"},
                ) from None
        except ApiError as error:
            if batch:
                error.extra = {**error.extra, "index": index}
            raise
        state, action = _after(state, board, kind=MOVE, move=token, now=now, rules=rules)
        actions.append(action)
    state.__dict__.setdefault("parsed_position", board.position)
    state = _same_position(state, fast_run=paced.fast_run, machine_pace=paced.machine_pace)
    return Change(state, tuple(actions))


def undo(state: AttemptState, *, now: dt.datetime, rules: Rules) -> Change:
    """Take back the last move of the line; the undo counts in the record.
    The exact earlier layout comes back (an undone redeal too)."""
    check_playable(state, now=now, rules=rules)
    board = state.board()
    if not board.move_stack:
        raise NothingToUndo()
    board.undo()
    state, action = _after(_paced(state, now=now, rules=rules), board, kind=UNDO, move="",
                           now=now, rules=rules)
    return Change(state, (action,))


def finish(state: AttemptState, *, now: dt.datetime) -> Change | None:
    """End the attempt (None: it had ended already, nothing changes).

    Won, blocked and stalled stay; playing becomes abandoned. The record
    stays exactly as it stood: the time is the time to the last action
    (finishing adds none), and a frozen ranked attempt keeps its midnight
    record. The finish is logged, so it moves the version like any action."""
    if state.finished:
        return None
    version = state.version + 1
    new = _same_position(
        state,
        status=ABANDONED if state.status == PLAYING else state.status,
        version=version, ended_at=now,
    )
    return Change(new, (ActionRecord(version, FINISH, "", now),))


def replay(start: str, actions: Sequence[ActionRecord]) -> solitaire.Board:
    """The board the log makes from the start (raises the engine's errors,
    or IndexError for an undo with nothing to undo)."""
    board = solitaire.Board(solitaire.parse_position(start))
    for action in actions:
        if action.kind == UNDO:
            board.undo()
        elif action.kind == MOVE:
            board.push(solitaire.Move.parse(action.move))
    return board


def log_matches(state: AttemptState, actions: Sequence[ActionRecord]) -> bool:
    """Does the stored log replay to the stored row, numbered 1..version?"""
    try:
        board = replay(state.start_position, actions)
    except (solitaire.SolitaireError, IndexError):
        return False
    return (
        board.position.notation() == state.position
        and board.undos == state.undos
        and board.redeals == state.redeals
        and len(board.move_stack) == state.moves
        and [a.number for a in actions] == list(range(1, state.version + 1))
        and all(a.kind != FINISH for a in actions[:-1])
        and (state.finished or not actions or actions[-1].kind != FINISH)
    )
