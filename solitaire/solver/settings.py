"""The solver's settings as data, and the protocol every search implements.

Every tuning value of a game's solver is a field of one frozen settings
object (``CRUEL``, ``FLOWER``), which ``solve`` passes whole to the game's
search: to try another configuration, build one with
``dataclasses.replace(FLOWER, abstract_share=0.5)`` and pass it as
``solve(..., settings=...)``. docs/solver.md explains what each search does
with them; the figures behind the values are in BENCHMARKS.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from ..moves import Move
from ..position import Position
from ._budget import Meter


@dataclass(frozen=True)
class PortfolioRun:
    """One run of Flower Garden's incomplete phase (phase 1), which runs its
    portfolio one run after the other. ``kind``: the depth-first search with
    each node's moves ordered by the evaluation of the child, or one
    best-first run of ``depth_weight`` (each move of a position's line
    counts that much against its evaluation) and ``blocked_weight`` (the
    weight in its evaluation of a card lying on a lower card of its suit).
    ``share`` of phase 1's budgets: a run's deadline is at the sum of the
    shares so far. ``expansions``: a cap of its own (the time it leaves goes
    to the next runs). ``pause``: "keep" keeps the run whole when its cap
    stops it, and the run marked "resume" goes on with it where it stopped."""

    kind: Literal["ordered", "best-first"]
    share: float
    depth_weight: int = 0
    blocked_weight: int = 0
    expansions: int | None = None
    pause: Literal["keep", "resume"] | None = None


@dataclass(frozen=True)
class BestFirstRun:
    """One best-first run of Flower Garden's phase 2 or of the line
    shortening: its weights (as for PortfolioRun), at most ``expansions``
    expansions (None: no cap of its own), on ``share`` of what it is given."""

    depth_weight: int
    blocked_weight: int
    expansions: int | None = None
    share: float = 1.0


@dataclass(frozen=True)
class StepAside:
    """A refinement step's complete search, once it has stored ``states``
    states, steps aside for one best-first run (weights as for PortfolioRun,
    at most ``expansions`` expansions) that looks for its goal, then goes on
    where it was."""

    states: int
    depth_weight: int
    blocked_weight: int
    expansions: int


@dataclass(frozen=True)
class SolverSettings:
    """What ``solve`` reads for every game. ``max_states``: the states
    budget when none is given. ``side_by_side``: with a time budget, the two
    phases run at once on two threads (else phase 1 first, on
    ``phase1_share`` of the budgets). ``phase1_nodes``: phase 1's node cap
    when no node budget is given (None: with a time budget, its share of the
    time alone bounds it); ``phase1_nodes_unbounded``: its cap when neither
    budget is given."""

    max_states: int
    side_by_side: bool = False
    phase1_share: float = 0.3
    phase1_nodes: int | None = 300_000
    phase1_nodes_unbounded: int = 300_000


@dataclass(frozen=True)
class CruelSettings(SolverSettings):
    # A C state costs 21 to 43 bytes (16-byte slots, the table 3/8 to 3/4
    # full): 40 million fit in the table's 1 GB cap (see cruel_c/cruel.h).
    max_states: int = 40_000_000


# The weight of a card lying on a lower card of its suit in the long
# best-first runs' evaluation (as much as a card not home).
BLOCKED = 64


@dataclass(frozen=True)
class FlowerSettings(SolverSettings):
    """Flower Garden's phases (docs/solver.md). Phase 1: ``portfolio``.
    Phase 2: the real game's complete search on ``first_slice`` of the time,
    the abstract games' refinement on ``abstract_share`` of the budgets
    (each step with ``step_aside``; a step whose line goes on for more than
    ``long_tail`` moves past its guide gets ``tail_run``, on no fewer than
    ``tail_least`` and no more than twice the step's nodes), then the
    ``helpers`` (with nodes alone, on ``helper_share`` of them), then the
    complete search. A won line longer than ``long_line`` gets ``line_run``
    from an early position of it. A best-first run holds at most
    ``best_first_store`` positions."""

    # A stored state costs 21 to 43 bytes in the C table, plus the line: 12
    # million keep the table at 268 MB, room for two best-first runs beside
    # it under the 2 GB a solve may use.
    max_states: int = 12_000_000
    side_by_side: bool = True
    phase1_share: float = 0.5
    phase1_nodes: int | None = None
    best_first_store: int = 6_000_000
    portfolio: tuple[PortfolioRun, ...] = (
        PortfolioRun("best-first", 0.005, 12),
        PortfolioRun("best-first", 0.005, 6),
        PortfolioRun("best-first", 0.005, 3),
        PortfolioRun("ordered", 0.01),
        PortfolioRun("best-first", 0.02, 12),
        PortfolioRun("best-first", 0.02, 6),
        PortfolioRun("best-first", 0.02, 3),
        PortfolioRun("ordered", 0.04),
        PortfolioRun("best-first", 0.2, 24, BLOCKED, 1_500_000, "keep"),
        PortfolioRun("best-first", 0.15, 48, BLOCKED, 450_000),
        PortfolioRun("best-first", 0.2, 64, BLOCKED, 900_000),
        PortfolioRun("best-first", 0.325, 24, BLOCKED, pause="resume"),
    )
    first_slice: float = 0.05
    abstract_share: float = 0.8
    step_aside: StepAside = StepAside(4_000_000, 24, BLOCKED, 2_000_000)
    long_tail: int = 50
    tail_run: BestFirstRun = BestFirstRun(24, BLOCKED, 500_000)
    tail_least: int = 20_000
    helpers: tuple[BestFirstRun, ...] = (BestFirstRun(12, BLOCKED, share=0.2), BestFirstRun(24, 0, share=1.0))
    helper_share: float = 0.5
    # lines the service shows as they are (a daily deal is refused over 300 moves)
    long_line: int = 200
    line_run: BestFirstRun = BestFirstRun(24, BLOCKED, 200_000)


CRUEL = CruelSettings()
FLOWER = FlowerSettings()


class Search(Protocol):
    """What ``solve`` asks of a game's search class. ``greedy``: phase 1,
    incomplete (only its wins count); else phase 2, whose failure is a
    proof. ``stop``: a byte another thread sets to call the search off
    (only given where the settings run the phases side by side)."""

    path: list[Move]  # the winning line, once run() returned True
    states: int  # the states the last run stored

    def __init__(
        self, position: Position, meter: Meter, settings: SolverSettings, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ) -> None: ...

    def run(self) -> bool:
        """True: won (the line in ``path``). False: lost (phase 2 only a
        proof). Raises BudgetSpent."""
        ...

    @staticmethod
    def shorten(position: Position, moves: tuple[Move, ...], settings: SolverSettings) -> tuple[Move, ...]:
        """A first pass over a won line before the engine's polish: a line
        that still wins, no longer than ``moves``."""
        ...
