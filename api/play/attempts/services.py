"""Playing an attempt: each service loads the state from the store, asks the
domain what the action makes of it, and stores the change on condition of
the version it read. ``now`` is passed in, so time is the server's and
tests can choose the moment.

Naming: ``<thing>_<action>``, keyword-only typed arguments.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.utils.translation import gettext as _

import solitaire
from api import clock, metrics, publish
from api.deals.selectors import deal_for
from api.errors import (
    AnalysisNotYet,
    AnalysisPending,
    ApiError,
    AttemptNotOver,
    HintNotForRanked,
    HintsSealed,
    InvalidMove,
    NotFound,
    StaleVersion,
)
from api.play import domain
from api.play.attempts import analysis, analysis_store, hints, store
from api.play.domain import AttemptState, Change, Rules

logger = logging.getLogger(__name__)


def rules() -> Rules:
    return Rules(max_actions=settings.PLAY_MAX_ACTIONS_PER_ATTEMPT,
                 stall_nodes=settings.PLAY_STALLED_MAX_NODES,
                 max_attempts=settings.PLAY_MAX_ATTEMPTS_PER_DEAL,
                 pace_ms=settings.PLAY_MACHINE_PACE_MS,
                 pace_run=settings.PLAY_MACHINE_PACE_RUN)


def _not_found(attempt_id: int) -> NotFound:
    return NotFound(_("No attempt %(id)s of yours.") % {"id": attempt_id})


def attempt_get(*, user, attempt_id: int) -> AttemptState:
    """An attempt of this player; anyone else's is simply not found."""
    state = store.load(attempt_id=attempt_id, player_id=user.pk)
    if state is None:
        raise _not_found(attempt_id)
    return state


def attempt_start(*, user, game: str, date: dt.date | None, now: dt.datetime) -> AttemptState:
    """Start an attempt: ranked when it is the player's first on today's
    deal, practice otherwise (domain.start_ranked says when none may start)."""
    deal = deal_for(game=game, date=date or clock.day_of(now), now=now)
    return _attempt_create(user=user, deal=deal, position=solitaire.parse_position(deal.position),
                           now=now, start_rule=domain.start_ranked)


def attempt_retry(*, user, attempt_id: int, move_number: int,
                  now: dt.datetime) -> AttemptState:
    """Try again from here: a practice attempt on the same deal whose start
    is the position before move ``move_number`` (1 = the first) of the
    attempt's line. Only from the player's own attempt and once its analysis
    exists (the rule of analyses: not while the ranked attempt is in play);
    never ranked, and it counts against the cap of attempts per deal."""
    state, found = attempt_analysis(user=user, attempt_id=attempt_id, now=now)
    if found["status"] != "done":
        raise AnalysisPending()
    line = state.line.split()
    if not 1 <= move_number <= len(line):
        message = (_("Move %(number)s is not in this attempt: its line has %(count)s moves.")
                   % {"number": move_number, "count": len(line)})
        raise ApiError(_("Some fields are not valid."), extra={"fields": {"move_number": [message]}})
    position = solitaire.parse_position(state.start_position).along(line[:move_number - 1])[-1]
    deal = deal_for(game=state.game, date=state.date, now=now)
    return _attempt_create(user=user, deal=deal, position=position, now=now,
                           start_rule=domain.start_practice, is_retry=True)


def _attempt_create(*, user, deal, position, now: dt.datetime, start_rule,
                    is_retry: bool = False) -> AttemptState:
    """A new attempt of ``user`` on ``deal`` from ``position``; ``start_rule``
    (domain.start_ranked or domain.start_practice) decides, from the player's
    attempts on the deal, whether it may start and whether it is ranked.
    NotFound when the account was deleted while this request ran."""
    today = clock.day_of(now)
    state = store.create(
        player_id=user.pk, deal=deal, start=position.notation(),
        status=domain.status_of(position, rules=rules()), cards_home=position.cards_home(),
        now=now, is_retry=is_retry,
        decide=lambda mine: start_rule(mine, deal_is_today=deal.date == today, rules=rules()),
    )
    if state is None:
        raise NotFound(_("This account no longer exists."))
    return state


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
            if change.state.status != domain.WON:
                analysis_enqueue(attempt_id=attempt_id)
            return change.state
    raise StaleVersion(state=attempt_get(user=user, attempt_id=attempt_id))


def _ranked_in_play(*, user, state: AttemptState, now: dt.datetime) -> bool:
    """The rule of hints and analyses: on a deal whose day lasts, nothing
    from the solver while the player's ranked attempt on it is unfinished."""
    if now >= state.day_ends_at:
        return False
    if state.ranked:
        return not state.finished
    return store.ranked_open(player_id=user.pk, deal_id=state.deal_id)


@dataclass(frozen=True)
class Hint:
    status: str  # solitaire.SolveStatus' value, or "pending" while the search goes on
    move: str | None  # the next move of a solution, when there is one
    version: int  # the attempt's, the hint is for

    @property
    def pending(self) -> bool:
        """The search goes on: the client asks again."""
        return self.status == hints.PENDING


def attempt_hint(*, user, attempt_id: int, now: dt.datetime) -> Hint:
    """The next move of a solution from the attempt's position, or the news
    that it can no longer be won. None while the deal's day lasts, on any
    attempt: a practice attempt's hints, followed, are the day's winning
    line (the ranked attempt in play is refused as such, any other sealed)."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    if _ranked_in_play(user=user, state=state, now=now):
        if state.ranked:
            raise HintNotForRanked()
        raise HintNotForRanked(
            _("No hints on this deal while your ranked attempt on it is being played: "
              "finish it, or wait until the day is over.")
        )
    if state.sealed(now):
        raise HintsSealed()
    answer = hints.hint_along(
        state.parsed_position, kept=store.hint_line_get(attempt_id=state.id),
        keep=lambda start, line: store.hint_line_keep(attempt_id=state.id, start=start,
                                                      line=line),
        wait=settings.PLAY_HINT_WAIT_SECONDS)
    return Hint(status=answer["status"], move=answer["move"], version=state.version)


KEEPS, LOSES = "keeps", "loses"


@dataclass(frozen=True)
class FirstMove:
    move: str | None  # the first move of the attempt's line; None before it
    verdict: str | None  # KEEPS, LOSES, analysis.UNKNOWN or hints.PENDING; None before the first move
    version: int  # the attempt's, the verdict is for

    @property
    def pending(self) -> bool:
        return self.verdict == hints.PENDING


def attempt_first_move(*, user, attempt_id: int, now: dt.datetime) -> FirstMove:
    """Try again from here, judged: does the first move of the attempt's
    line keep the win of its start (for a retry, a position its source's
    analysis proved winnable)?
    The position after that move is decided from the table the analyses
    keep, else as a hint decides it (cache, then the solver in a hint slot:
    HintsBusy when none is free), waited for as a hint is (PLAY_HINT_WAIT_SECONDS):
    hints.PENDING while the search goes on, to be asked again. It says no more than the analysis of a
    practice attempt finished after that one move would, so it is given
    while the deal's day lasts too; never while the ranked attempt is in play."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    if _ranked_in_play(user=user, state=state, now=now):
        raise AnalysisNotYet()
    line = state.line.split()
    if not line:
        return FirstMove(move=None, verdict=None, version=state.version)
    after = solitaire.parse_position(state.start_position).apply(solitaire.Move.parse(line[0]))
    known = analysis_store.decision_get(after.notation())
    status = (known.status if known is not None else
              hints.position_line(after, wait=settings.PLAY_HINT_WAIT_SECONDS)["status"])
    verdict = {analysis.SOLVED: KEEPS, analysis.UNSOLVABLE: LOSES,
               hints.PENDING: hints.PENDING}.get(status, analysis.UNKNOWN)
    return FirstMove(move=line[0], verdict=verdict, version=state.version)


@dataclass(frozen=True)
class AttemptLog:
    start: str  # the start position's notation
    actions: list[str]  # tokens, undos and the finish included
    replay_ok: bool  # replayed from the start, the log makes the row


def attempt_log(*, user, attempt_id: int) -> AttemptLog:
    """The stored log, replayed from the start and checked against the row."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    actions = store.actions_after(attempt_id=state.id, number=0)
    return AttemptLog(start=state.start_position, actions=[action.token for action in actions],
                      replay_ok=domain.log_matches(state, actions))


# -- analysis: where the win slipped away ------------------------------------------


# Queued by name, not imported: api.play.tasks imports this module, and
# Celery finds the task by its name (PlayConfig.ready registers it).
ANALYSE_ATTEMPT = "api.play.tasks.analyse_attempt"


def analysis_enqueue(*, attempt_id: int) -> None:
    """Queue the attempt's analysis once the current transaction commits and
    the answer is sent (api.publish: the request never waits on the broker;
    with no broker, the laptop default, it runs in this process then, one at
    a time, under the small per-call budget settings give it there). The
    finish never fails for it: a broker that is down, or an analysis that
    fails, is logged, and beat's sweep queues the analysis again."""
    if not settings.PLAY_ANALYSIS_ON_FINISH:
        return
    publish.task_send(ANALYSE_ATTEMPT, args=(attempt_id,))


def _decider(game: str, counts: dict) -> analysis.Decide:
    """Decide a position from the table of decided positions, else with the
    solver under the per-call budget (a decided answer is kept)."""

    def decide(position: solitaire.Position) -> analysis.Decision:
        notation = position.notation()
        known = analysis_store.decision_get(notation)
        if known is not None:
            counts["table"] += 1
            metrics.ANALYSIS_SOLVER_CALLS.labels(game, "table").inc()
            return known
        result = solitaire.solve(position, max_seconds=settings.PLAY_ANALYSIS_MAX_SECONDS,
                                 max_nodes=settings.PLAY_ANALYSIS_MAX_NODES)
        counts["solver"] += 1
        metrics.ANALYSIS_SOLVER_CALLS.labels(game, "solver").inc()
        metrics.SOLVER_SECONDS.labels(game, "analysis").observe(result.seconds)
        decision = analysis.Decision(result.status.value, tuple(m.token() for m in result.moves))
        analysis_store.decision_keep(notation, game=game, decision=decision)
        return decision

    return decide


def attempt_analyse(*, attempt_id: int, now: dt.datetime) -> str:
    """The worker's side: claim the attempt's analysis, bisect its line with
    the solver, store the verdict. Returns what happened ("missing",
    "not over", "not claimed", or the verdict)."""
    state = store.load_any(attempt_id=attempt_id)
    if state is None:
        return "missing"
    if not state.over(now):
        return "not over"
    token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    if not analysis_store.claim(attempt_id=attempt_id, token=token, now=now):
        return "not claimed"
    try:
        counts = {"solver": 0, "table": 0}
        started = time.perf_counter()
        verdict = analysis.analyse(
            start=state.start_position, line=state.line.split(), won=state.status == domain.WON,
            decide=_decider(state.game, counts),
            known_win=analysis_store.known_win(deal_id=state.deal_id, start=state.start_position))
        seconds = time.perf_counter() - started
    except BaseException:
        analysis_store.release(attempt_id=attempt_id, token=token)
        raise
    analysis_store.done(attempt_id=attempt_id, token=token, verdict=verdict,
                        calls=counts["solver"], seconds=seconds, now=now)
    metrics.ANALYSES.labels(state.game, verdict.verdict).inc()
    metrics.ANALYSIS_SECONDS.labels(state.game).observe(seconds)
    return verdict.verdict


def analyses_sweep(*, now: dt.datetime) -> int:
    """Beat's recovery: queue the analysis of attempts over for a while
    (finished, or ranked ones whose day is over) whose analysis is not done."""
    stale = now - dt.timedelta(seconds=settings.PLAY_ANALYSIS_CLAIM_STALE_SECONDS)
    ids = analysis_store.unanalysed(ended_before=stale, today=clock.day_of(now))
    for attempt_id in ids:
        publish.task_send(ANALYSE_ATTEMPT, args=(attempt_id,))
    return len(ids)


def attempt_analysis(*, user, attempt_id: int, now: dt.datetime,
                     steps: bool = False) -> tuple[AttemptState, dict]:
    """The player's attempt with its analysis ({"status": "pending"} until
    the workers are done). Only once the attempt is over, and, as for hints,
    never on a deal whose day lasts while the player's ranked attempt on it
    is unfinished: a practice attempt's analysis would guide the ranked one.
    While the day lasts the analysis is sealed: the losing move and the one
    move that kept the win, not the line that kept it (with the positions
    before the losing move, that line is the day's win). With ``steps``,
    the positions along the attempt's line (``positions``) and along the
    keeping line when it is given (``keeping_positions``), for the replay."""
    state = attempt_get(user=user, attempt_id=attempt_id)
    if not state.over(now):
        raise AttemptNotOver()
    if _ranked_in_play(user=user, state=state, now=now):
        raise AnalysisNotYet()
    found = _analysis_found(state, now=now)
    if steps:
        found.update(_steps(state, found))
    return state, found


def _analysis_found(state: AttemptState, *, now: dt.datetime) -> dict:
    sealed = state.sealed(now)
    found = {"par": analysis_store.par_of(deal_id=state.deal_id), "sealed": sealed}
    if state.status == domain.WON:
        return {**found, "status": "done", "verdict": analysis.WON}
    row = analysis_store.analysis_of(attempt_id=state.id)
    if row is None:
        return {**found, "status": "pending"}
    found.update(status="done", verdict=row.verdict, solver_calls=row.solver_calls,
                 seconds=row.seconds)
    if row.verdict == analysis.LOST:
        keeping = row.keeping_line.split()
        found.update(lost_at=row.lost_at, lost_move=row.lost_move, keeping_move=keeping[0])
        if not sealed:
            found["keeping_line"] = keeping
    return found


def _steps(state: AttemptState, found: dict) -> dict:
    """The positions along the attempt's line, and along the keeping line
    from the position before the losing move when it is given."""
    positions = solitaire.parse_position(state.start_position).along(state.line.split())
    steps = {"positions": positions}
    if "keeping_line" in found:
        before = positions[found["lost_at"] - 1]
        steps["keeping_positions"] = before.along(found["keeping_line"])
    return steps
