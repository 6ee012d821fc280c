"""The solver's public face: three honest answers, budgets as data.

``solve`` runs a game-specific depth-first search with a transposition table
on a compact internal state (``_cruel``, ``_flower``; their docstrings list
every pruning rule and why it is safe), then replays any certificate through
the public engine, shortens it (``_polish``) and replays it again. It says
which of three things happened: solved (with the moves), proven unsolvable
(the whole reachable space, modulo proven-safe pruning, was exhausted), or a
budget ran out. Giving up is never reported as impossible."""

from __future__ import annotations

import enum
import math
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
    if max_states == DEFAULT:
        cls = _SEARCHES.get(getattr(position, "game", None))
        max_states = getattr(cls, "DEFAULT_MAX_STATES", DEFAULT_MAX_STATES)
    budget = Budget(max_nodes, max_seconds, max_states)
    # Phase 1, incomplete: the game search's greedy mode (see its class). It
    # finds most solutions fast; its failure proves nothing, so only its
    # certificates are used.
    cls = _SEARCHES.get(getattr(position, "game", None))
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
        won = search.run()
    except BudgetSpent:
        won = False
    spent = quick.nodes
    if not won:
        # Phase 2, complete: only proven-safe pruning; its failure is a proof.
        budget.nodes = spent
        search = _search_for(position, budget)
        try:
            won = search.run()
        except BudgetSpent as exhausted:
            return SolveResult(
                SolveStatus.LIMIT_REACHED, (), budget.nodes, budget.elapsed(),
                len(search.seen), exhausted.which,
            )
        if not won:
            return SolveResult(
                SolveStatus.UNSOLVABLE, (), budget.nodes, budget.elapsed(), len(search.seen)
            )
    else:
        budget.nodes = spent
    moves = tuple(search.path)
    if not position.play(moves).is_won():  # pragma: no cover - a solver bug
        raise AssertionError(f"certificate does not replay: {position.notation()}")
    if shorten:
        moves = polish(position, moves)
    return SolveResult(
        SolveStatus.SOLVED, moves, budget.nodes, budget.elapsed(), len(search.seen)
    )


def hint(position: Position, **budget) -> SolveResult:
    """The next move of a solution is ``result.moves[0]`` when SOLVED; an
    UNSOLVABLE answer means the position can no longer be won; LIMIT_REACHED
    means the budget ran out before either was known. Budgets as for
    ``solve``; without any, ten seconds."""
    if not any(k in budget for k in ("max_nodes", "max_seconds")):
        budget["max_seconds"] = 10.0
    return solve(position, **budget)
