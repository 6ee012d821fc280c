"""The solver's public face: three honest answers, budgets as data.

``solve`` runs the game's search (``_cruel``, ``_flower``; docs/solver.md
argues every pruning rule) with the game's settings (``settings.py``), then
replays any certificate through the public engine, shortens it (the search
class's ``shorten``, then ``_polish``) and replays it again. It says
which of three things happened: solved (with the moves), proven unsolvable
(the whole reachable space, modulo proven-safe pruning, was exhausted), or a
budget ran out. Giving up is never reported as impossible."""

from __future__ import annotations

import dataclasses
import enum
import math
import threading
from dataclasses import dataclass

from ..moves import Move
from ..position import Position
from ._budget import BudgetSpent, Meter
from ._cruel import CruelSearch
from ._flower import FlowerSearch
from ._polish import polish
from .settings import CRUEL, FLOWER, Search, SolverSettings


class SolveStatus(str, enum.Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT_REACHED = "unknown"


@dataclass(frozen=True)
class SolveResult:
    status: SolveStatus
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    states: int = 0
    limit: str | None = None  # which budget ran out, when LIMIT_REACHED

    @property
    def redeals(self) -> int:
        return sum(1 for m in self.moves if m.is_redeal)

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def difficulty(self) -> float:
        """How hard the deal is for a player, 0 (trivial) to 10 (hardest).

        log10 of the states the solver had to expand, plus a share for the
        length of the solution and for each redeal it needs. Comparable only
        between results of the same solver version; see docs/winnability.md."""
        score = math.log10(max(self.states, 1)) + len(self.moves) / 100 + self.redeals / 10
        return round(min(score, 10.0), 2)

    def to_dict(self) -> dict:
        return {
            "status": self.status.value,
            "moves": " ".join(m.token() for m in self.moves),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "states": self.states,
            "redeals": self.redeals,
            "length": len(self.moves),
            "difficulty": self.difficulty,
            "limit": self.limit,
        }


# A stored state of a Python search costs about 150 bytes (its key in the
# transposition set), and the depth-first line can be as deep as the states
# stored (one Python frame, about 1 KB, per move on the line): a million
# states keeps even that worst case under the 2 GB a single solve may use.
# (The C cores' own figures are their settings' max_states.)
DEFAULT_MAX_STATES = 1_000_000
DEFAULT = "default"  # max_states: the game's settings' own

# Each game's search class and settings.
GAMES: dict[str, tuple[type[Search], SolverSettings]] = {
    "cruel": (CruelSearch, CRUEL),
    "flower": (FlowerSearch, FLOWER),
}


def solve(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_states: int | None | str = DEFAULT,
    shorten: bool = True,
    settings: SolverSettings | None = None,
) -> SolveResult:
    """Solve ``position``: SOLVED with a certificate (replayed through the
    engine), UNSOLVABLE (proven), or LIMIT_REACHED (``limit`` names the
    budget that ran out: "nodes", "seconds" or "states"). ``max_states``
    None means no states budget; by default it is the game's settings'.
    ``settings``: the game's (``settings.CRUEL``, ``settings.FLOWER``) unless
    given."""
    try:
        cls, default = GAMES[position.game]
    except (AttributeError, KeyError):
        raise TypeError(f"not a position the solver knows: {position!r}") from None
    settings = default if settings is None else settings
    if max_states == DEFAULT:
        max_states = settings.max_states
    # Two phases. Phase 1, incomplete: the game search's greedy mode; it
    # finds most solutions fast, but its failure proves nothing, so only its
    # certificates are used. Phase 2, complete: only proven-safe pruning;
    # its failure is a proof.
    if settings.side_by_side and max_seconds is not None:
        meter, nodes, search, outcome = _side_by_side(cls, settings, position, max_nodes, max_seconds, max_states)
    else:
        meter, nodes, search, outcome = _one_after_the_other(
            cls, settings, position, max_nodes, max_seconds, max_states,
        )
    if isinstance(outcome, BudgetSpent):
        return SolveResult(SolveStatus.LIMIT_REACHED, (), nodes, meter.elapsed(), search.states, outcome.which)
    if not outcome:
        return SolveResult(SolveStatus.UNSOLVABLE, (), nodes, meter.elapsed(), search.states)
    moves = tuple(search.path)
    if not position.play(moves).is_won():  # pragma: no cover - a solver bug
        raise AssertionError(f"certificate does not replay: {position.notation()}")
    if shorten:
        moves = polish(position, cls.shorten(position, moves, settings))  # polish checks that it still wins
    return SolveResult(SolveStatus.SOLVED, moves, nodes, meter.elapsed(), search.states)


def _one_after_the_other(cls, settings, position, max_nodes, max_seconds, max_states):
    """Phase 1 on its share of the budgets, then phase 2 on the rest.
    Returns (meter, nodes, search, outcome): outcome True (won, the line in
    ``search.path``), False (proven lost) or the BudgetSpent that ended it."""
    meter = Meter(max_nodes, max_seconds, max_states)
    share = settings.phase1_share
    cap = settings.phase1_nodes
    if cap is None and max_seconds is None:
        cap = settings.phase1_nodes_unbounded  # some cap is needed when no budget bounds phase 1
    quick = Meter(
        share * max_nodes if max_nodes is not None else cap,
        share * max_seconds if max_seconds is not None else None,
        max_states,
    )
    search = cls(position, quick, settings, greedy=True)
    try:
        if search.run():
            return meter, quick.nodes, search, True
    except BudgetSpent:
        pass
    meter.nodes = quick.nodes
    search = cls(position, meter, settings)
    try:
        outcome = search.run()
    except BudgetSpent as spent:
        outcome = spent
    return meter, meter.nodes, search, outcome


def _side_by_side(cls, settings, position, max_nodes, max_seconds, max_states):
    """Phases 1 and 2 at once, each on a thread of its own for the whole time
    (the C cores run without the GIL, so on two cores) and half the nodes,
    until one of them is decisive: phase 1 winning, or phase 2 winning or
    proving the position lost. That one calls the other off through a shared
    byte. Same return as ``_one_after_the_other``; nodes are both phases'."""
    stop = bytearray(1)
    half = None if max_nodes is None else max_nodes / 2
    quick = Meter(half, max_seconds, max_states)
    meter = Meter(half, max_seconds, max_states)
    greedy = cls(position, quick, settings, greedy=True, stop=stop)
    complete = cls(position, meter, settings, stop=stop)
    outcome: dict = {}

    def run(search) -> None:
        try:
            outcome[search] = result = search.run()
        except BudgetSpent as spent:
            outcome[search] = spent
            return
        except BaseException as error:  # noqa: BLE001 - re-raised below, in the caller's thread
            outcome[search] = error
            stop[0] = 1
            return
        if result or search is complete:
            stop[0] = 1

    helper = threading.Thread(target=run, args=(greedy,), name="solver-phase-1", daemon=True)
    helper.start()
    run(complete)  # catches everything; on an error it calls phase 1 off
    helper.join()
    for search in (complete, greedy):
        if isinstance(outcome.get(search), BaseException) and not isinstance(outcome[search], BudgetSpent):
            raise outcome[search]
    nodes = quick.nodes + meter.nodes
    if outcome.get(greedy) is True:
        return meter, nodes, greedy, True
    return meter, nodes, complete, outcome[complete]


def without_loops(position: Position, moves) -> tuple[Move, ...]:
    """``moves`` (a line from ``position``) with every loop cut out: from
    each position the line jumps to the last time it stands there, so the
    line returned visits no position twice and ends where ``moves`` ends."""
    positions = [position]
    for move in moves:
        positions.append(positions[-1].apply(move))
    last = {p.notation(): i for i, p in enumerate(positions)}  # later wins
    kept = []
    i = last[position.notation()]
    while i < len(moves):
        kept.append(moves[i])
        i = last[positions[i + 1].notation()]
    return tuple(kept)


def _follows(position: Position, line) -> tuple[Move, ...]:
    """``line`` as moves when it wins from ``position`` visiting no position
    twice, else ()."""
    try:
        moves = tuple(m if isinstance(m, Move) else Move.parse(m) for m in line)
        seen = {position.notation()}
        for move in moves:
            position = position.apply(move)
            if position.notation() in seen:
                return ()
            seen.add(position.notation())
    except ValueError:  # a token that cannot be read, or a move that is not legal here
        return ()
    return moves if position.is_won() else ()


def hint(position: Position, *, line=(), **budget) -> SolveResult:
    """A line of hints from ``position``: when SOLVED, ``result.moves`` wins
    from it and visits no position twice, and ``moves[0]`` is the hint. An
    UNSOLVABLE answer means the position can no longer be won; LIMIT_REACHED
    means the budget ran out before either was known. Budgets as for
    ``solve``; without any, ten seconds.

    Hints follow one line: ``line`` is the rest of the line an earlier hint
    gave (its moves after the ones played since, as tokens or Moves). When
    it still wins from ``position`` without repeating a position, it is the
    answer as given, with no search. So a caller that plays ``moves[0]``
    and asks again with ``line=moves[1:]`` walks one loop-free winning line
    of n moves: n hints win, and no position comes back (each position of
    the line is visited once). A fresh search carries no such promise: two
    searches may each start by undoing the other's first move."""
    kept = _follows(position, line) if line else ()
    if kept:
        return SolveResult(SolveStatus.SOLVED, kept)
    if not any(k in budget for k in ("max_nodes", "max_seconds")):
        budget["max_seconds"] = 10.0
    result = solve(position, **budget)
    if result.status is SolveStatus.SOLVED:
        result = dataclasses.replace(result, moves=without_loops(position, result.moves))
    return result
