"""Playing an attempt: each service loads the state from the store, asks the
domain what the action makes of it, and stores the change on condition of
the version it read. ``now`` is passed in, so time is the server's and
tests can choose the moment.

Naming: ``<thing>_<action>``, keyword-only typed arguments.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from django.conf import settings
from django.utils.translation import gettext as _

import solitaire
from api import clock, metrics
from api.play.attempts import domain, hints, store
from api.play.attempts.domain import AttemptState, Change, Rules
from api.play.errors import (
    HintNotForRanked,
    InvalidMove,
    NotFound,
    StaleVersion,
)
from api.play.records.days import deal_for


def rules() -> Rules:
    return Rules(max_actions=settings.PLAY_MAX_ACTIONS_PER_ATTEMPT,
                 stall_nodes=settings.PLAY_STALLED_MAX_NODES,
                 max_attempts=settings.PLAY_MAX_ATTEMPTS_PER_DEAL,
                 pace_ms=settings.PLAY_MACHINE_PACE_MS,
                 pace_run=settings.PLAY_MACHINE_PACE_RUN)


def _not_found(attempt_id: int) -> NotFound:
    return NotFound(_("No attempt %(id)s of yours.") % {"id": attempt_id}, code="not_found")


def attempt_get(*, user, attempt_id: int) -> AttemptState:
    """An attempt of this player; anyone else's is simply not found."""
    state = store.load(attempt_id=attempt_id, player_id=user.pk)
    if state is None:
        raise _not_found(attempt_id)
    return state


def attempt_start(*, user, game: str, date: dt.date | None, now: dt.datetime) -> AttemptState:
    """Start an attempt: ranked when it is the player's first on today's
    deal, practice otherwise (domain.start_ranked says when none may start)."""
    today = clock.day_of(now)
    deal = deal_for(game=game, date=date or today, now=now)
    position = solitaire.parse_position(deal.position)
    return store.create(
        player_id=user.pk, deal=deal, start=position.notation(),
        status=domain.status_of(position, rules=rules()), cards_home=position.cards_home(),
        now=now,
        decide=lambda mine: domain.start_ranked(mine, deal_is_today=deal.date == today,
                                                rules=rules()),
    )


def _is_retry(state: AttemptState, *, version: int, tokens: list[str]) -> bool:
    """True when this request repeats the actions that made the current
    version (a retry whose answer was lost): answered again, never applied
    twice. Any other version than the current one is stale."""
    if version == state.version:
        return False
    if version == state.version - len(tokens):
        done = store.actions_after(attempt_id=state.id, number=version)
        if [action.token for action in done] == tokens:
            return True
    raise StaleVersion(state=state)


# Rounds of read, compute, conditional write before a request gives up
# (each lost round means another request changed the attempt meanwhile).
_ROUNDS = 5


def _apply(*, user, attempt_id: int, version: int, tokens: list[str],
           step: Callable[[AttemptState], Change]) -> tuple[AttemptState, bool]:
    """Load the attempt, answer a retry again, compute the change from the
    state read and store it on condition that nobody changed the attempt
    meanwhile; when somebody did, read it again and decide again (then the
    version check answers stale_version, or replayed when it was this very
    request). Returns (state, replayed)."""
    for _round in range(_ROUNDS):
        state = attempt_get(user=user, attempt_id=attempt_id)
        if _is_retry(state, version=version, tokens=tokens):
            return state, True
        change = step(state)
        if store.save(change):
            return change.state, False
    raise StaleVersion(state=attempt_get(user=user, attempt_id=attempt_id))


def move_parse(text: str) -> solitaire.Move:
    try:
        return solitaire.Move.parse(text)
    except solitaire.InvalidMoveError as error:
        raise InvalidMove(str(error)) from None


def moves_apply(*, user, attempt_id: int, moves: list[str], version: int,
                now: dt.datetime, batch: bool = True) -> tuple[AttemptState, bool]:
    """Apply moves in order from ``version``, stored together: all or none.
    A retry (the last ``len(moves)`` actions are these moves, from that
    version) is answered again. Returns (state, replayed)."""
    parsed = [move_parse(m) for m in moves]
    tokens = [m.token() for m in parsed]
    state, replayed = _apply(
        user=user, attempt_id=attempt_id, version=version, tokens=tokens,
        step=lambda state: domain.play(state, parsed, now=now, rules=rules(), batch=batch),
    )
    if not replayed:
        metrics.MOVES.labels(state.game).inc(len(parsed))
    return state, replayed


def move_apply(*, user, attempt_id: int, move: str, version: int, now: dt.datetime):
    """Apply one move. Returns (state, replayed)."""
    return moves_apply(user=user, attempt_id=attempt_id, moves=[move], version=version, now=now,
                       batch=False)


def move_undo(*, user, attempt_id: int, version: int, now: dt.datetime):
    """Take back the last move of the line (counted). Returns (state, replayed)."""
    return _apply(user=user, attempt_id=attempt_id, version=version, tokens=["undo"],
                  step=lambda state: domain.undo(state, now=now, rules=rules()))


def attempt_finish(*, user, attempt_id: int, now: dt.datetime) -> AttemptState:
    """End the attempt; finishing twice changes nothing. The finish moves
    the version, so a move computed before it can no longer be stored."""
    for _round in range(_ROUNDS):
        state = attempt_get(user=user, attempt_id=attempt_id)
        change = domain.finish(state, now=now)
        if change is None:
            return state
        if store.save(change):
            return change.state
    raise StaleVersion(state=attempt_get(user=user, attempt_id=attempt_id))


def attempt_hint(*, user, attempt_id: int, now: dt.datetime) -> dict:
    """The next move of a solution from the attempt's position, or the news
    that it can no longer be won. No hint on a deal, practice attempts
    included, while the player's ranked attempt on it is unfinished and its
    day lasts (the leaderboard would reward asking the solver)."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    if now < state.day_ends_at:
        if state.ranked and not state.finished:
            raise HintNotForRanked()
        if not state.ranked and store.ranked_open(player_id=user.pk, deal_id=state.deal_id):
            raise HintNotForRanked(
                _("No hints on this deal while your ranked attempt on it is being played: "
                  "finish it, or wait until the day is over.")
            )
    answer = hints.position_hint(state.parsed_position)
    return {**answer, "version": state.version}


def attempt_log(*, user, attempt_id: int) -> dict:
    """The stored log, replayed from the start and checked against the row."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    actions = store.actions_after(attempt_id=state.id, number=0)
    return {
        "start": state.start_position,
        "actions": [action.token for action in actions],
        "replay_ok": domain.log_matches(state, actions),
    }
