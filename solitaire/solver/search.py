"""The solver's public face: three honest answers, budgets as data.

``solve`` runs a game-specific depth-first search with a transposition table
on a compact internal state (``_cruel``, ``_flower``; their docstrings list
every pruning rule and why it is safe), then replays any certificate through
the public engine, shortens it (the search class's ``cut_long_line`` where
it has one, then ``_polish``) and replays it again. It says
which of three things happened: solved (with the moves), proven unsolvable
(the whole reachable space, modulo proven-safe pruning, was exhausted), or a
budget ran out. Giving up is never reported as impossible."""

from __future__ import annotations

import enum
import math
import threading
from dataclasses import dataclass

from ..moves import Move
from ..position import Position
from ._budget import Budget, BudgetSpent
from ._cruel import CruelSearch
from ._flower import FlowerSearch
from ._polish import polish


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


# A stored state costs about 150 bytes (its key in the transposition set), and
# the depth-first line can be as deep as the states stored (one Python frame,
# about 1 KB, per move on the line): a million states keeps even that worst
# case under the 2 GB a single solve may use. Ten seconds of search stores
# well under half a million.
DEFAULT_MAX_STATES = 1_000_000
# A search class may carry its own DEFAULT_MAX_STATES (a C core stores a state
# in a few dozen bytes); solve() uses it when no states budget is given.
DEFAULT = "default"

GREEDY_SHARE = 0.3  # of the node and time budgets, for phase 1
# (a search class may carry its own GREEDY_SHARE)
GREEDY_NODES = 300_000  # phase 1's node cap when no node budget is given
# (a search class may carry its own GREEDY_NODES; None: with a time budget,
# phase 1 is bounded by its share of the time alone)

_SEARCHES = {"cruel": CruelSearch, "flower": FlowerSearch}


def _search_for(position: Position, budget: Budget, prune: bool = True):
    try:
        cls = _SEARCHES[position.game]
    except KeyError:
        raise TypeError(f"not a position the solver knows: {position!r}") from None
    return cls(position, budget, prune=prune)


def solve(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_states: int | None | str = DEFAULT,
    shorten: bool = True,
) -> SolveResult:
    """Solve ``position``: SOLVED with a certificate (replayed through the
    engine), UNSOLVABLE (proven), or LIMIT_REACHED (``limit`` names the
    budget that ran out: "nodes", "seconds" or "states"). ``max_states``
    None means no states budget; by default it is the game search's own."""
    cls = _SEARCHES.get(getattr(position, "game", None))
    if max_states == DEFAULT:
        max_states = getattr(cls, "DEFAULT_MAX_STATES", DEFAULT_MAX_STATES)
    # Two phases. Phase 1, incomplete: the game search's greedy mode (see its
    # class); it finds most solutions fast, but its failure proves nothing,
    # so only its certificates are used. Phase 2, complete: only proven-safe
    # pruning; its failure is a proof.
    if getattr(cls, "SIDE_BY_SIDE", False) and max_seconds is not None:
        clock, nodes, search, outcome = _side_by_side(position, max_nodes, max_seconds, max_states)
    else:
        clock, nodes, search, outcome = _one_after_the_other(cls, position, max_nodes, max_seconds, max_states)
    if isinstance(outcome, BudgetSpent):
        return SolveResult(
            SolveStatus.LIMIT_REACHED, (), nodes, clock.elapsed(), len(search.seen), outcome.which,
        )
    if not outcome:
        return SolveResult(SolveStatus.UNSOLVABLE, (), nodes, clock.elapsed(), len(search.seen))
    moves = tuple(search.path)
    if not position.play(moves).is_won():  # pragma: no cover - a solver bug
        raise AssertionError(f"certificate does not replay: {position.notation()}")
    if shorten:
        cut = getattr(cls, "cut_long_line", None)  # a search class may carry a first pass of its own
        if cut is not None:
            moves = cut(position, moves)
        moves = polish(position, moves)  # which checks that the line still wins
    return SolveResult(SolveStatus.SOLVED, moves, nodes, clock.elapsed(), len(search.seen))


def _one_after_the_other(cls, position, max_nodes, max_seconds, max_states):
    """Phase 1 on its share of the budgets, then phase 2 on the rest.
    Returns (budget, nodes, search, outcome): outcome True (won, the line in
    ``search.path``), False (proven lost) or the BudgetSpent that ended it."""
    budget = Budget(max_nodes, max_seconds, max_states)
    greedy_nodes = getattr(cls, "GREEDY_NODES", GREEDY_NODES)
    share = getattr(cls, "GREEDY_SHARE", GREEDY_SHARE)
    if greedy_nodes is None and max_seconds is None:
        greedy_nodes = GREEDY_NODES  # some cap is needed when no budget bounds phase 1
    quick = Budget(
        share * max_nodes if max_nodes is not None else greedy_nodes,
        share * max_seconds if max_seconds is not None else None,
        max_states,
    )
    search = _search_for(position, quick)
    search.greedy = True
    try:
        if search.run():
            return budget, quick.nodes, search, True
    except BudgetSpent:
        pass
    budget.nodes = quick.nodes
    search = _search_for(position, budget)
    try:
        outcome = search.run()
    except BudgetSpent as spent:
        outcome = spent
    return budget, budget.nodes, search, outcome


def _side_by_side(position, max_nodes, max_seconds, max_states):
    """Phases 1 and 2 at once, each on a thread of its own for the whole time
    (the C cores run without the GIL, so on two cores) and half the nodes,
    until one of them is decisive: phase 1 winning, or phase 2 winning or
    proving the position lost. That one calls the other off through a shared
    byte. Same return as ``_one_after_the_other``; nodes are both phases'."""
    stop = bytearray(1)
    half = None if max_nodes is None else max_nodes / 2
    quick = Budget(half, max_seconds, max_states)
    budget = Budget(half, max_seconds, max_states)
    greedy = _search_for(position, quick)
    greedy.greedy = True
    complete = _search_for(position, budget)
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

    for search in (greedy, complete):
        search.stop = stop
    helper = threading.Thread(target=run, args=(greedy,), name="solver-phase-1", daemon=True)
    helper.start()
    run(complete)  # catches everything; on an error it calls phase 1 off
    helper.join()
    for search in (complete, greedy):
        if isinstance(outcome.get(search), BaseException) and not isinstance(outcome[search], BudgetSpent):
            raise outcome[search]
    nodes = quick.nodes + budget.nodes
    if outcome.get(greedy) is True:
        return budget, nodes, greedy, True
    return budget, nodes, complete, outcome[complete]


def hint(position: Position, **budget) -> SolveResult:
    """The next move of a solution is ``result.moves[0]`` when SOLVED; an
    UNSOLVABLE answer means the position can no longer be won; LIMIT_REACHED
    means the budget ran out before either was known. Budgets as for
    ``solve``; without any, ten seconds."""
    if not any(k in budget for k in ("max_nodes", "max_seconds")):
        budget["max_seconds"] = 10.0
    return solve(position, **budget)
