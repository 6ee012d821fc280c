"""Depth-first search with a transposition table.

The search uses only the engine's public API (``legal_moves``, ``apply``,
``key``, ``is_useful``) and says which of three things happened: solved (with
the moves), proven unsolvable (the whole reachable space was exhausted), or
a budget ran out. Giving up is never reported as impossible."""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

from ..moves import Move
from ..position import Position


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
    def difficulty(self) -> float:
        """Search effort on a log scale (0 easy .. ~10 very hard)."""
        import math

        return round(math.log10(max(self.nodes, 1)) + 0.01 * len(self.moves), 2)

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
        }


class _Budget:
    __slots__ = ("max_nodes", "deadline", "max_states", "start", "exhausted")

    def __init__(self, max_nodes, max_seconds, max_states):
        self.start = time.perf_counter()
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else self.start + max_seconds
        self.max_states = max_states
        self.exhausted: str | None = None

    def spent(self, nodes: int, states: int) -> bool:
        if self.max_nodes is not None and nodes >= self.max_nodes:
            self.exhausted = "nodes"
        elif self.max_states is not None and states >= self.max_states:
            self.exhausted = "states"
        elif self.deadline is not None and nodes % 256 == 0 and time.perf_counter() > self.deadline:
            self.exhausted = "seconds"
        return self.exhausted is not None


DEFAULT_MAX_STATES = 5_000_000  # keeps one solve well under 2 GB


def _ordered_moves(pos: Position) -> list[Move]:
    moves = [m for m in pos.legal_moves() if pos.is_useful(m)]
    # Foundation moves first, redeals last: a cheap, effective ordering.
    moves.sort(key=lambda m: 0 if m.to_foundation else (2 if m.is_redeal else 1))
    return moves


def solve(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> SolveResult:
    budget = _Budget(max_nodes, max_seconds, max_states)
    seen = {position.key()}
    path: list[Move] = []
    stack = [iter(_ordered_moves(position))]
    positions = [position]
    nodes = 0
    if position.is_won():
        return SolveResult(SolveStatus.SOLVED, (), 0, 0.0, 1)
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            positions.pop()
            if path:
                path.pop()
            continue
        nodes += 1
        if budget.spent(nodes, len(seen)):
            return SolveResult(
                SolveStatus.LIMIT_REACHED, (), nodes, time.perf_counter() - budget.start,
                len(seen), budget.exhausted,
            )
        child = positions[-1].apply(move)
        k = child.key()
        if k in seen:
            continue
        seen.add(k)
        path.append(move)
        if child.is_won():
            return SolveResult(
                SolveStatus.SOLVED, tuple(path), nodes, time.perf_counter() - budget.start, len(seen)
            )
        positions.append(child)
        stack.append(iter(_ordered_moves(child)))
    return SolveResult(
        SolveStatus.UNSOLVABLE, (), nodes, time.perf_counter() - budget.start, len(seen)
    )


def hint(position: Position, **budget) -> SolveResult:
    """The next move of a solution is ``result.moves[0]`` when SOLVED; an
    UNSOLVABLE answer means the position can no longer be won."""
    return solve(position, **budget)


def is_stalled(position: Position, *, max_nodes: int = 200_000) -> bool:
    """True only when it is proven that no further card can reach a
    foundation from here (the whole reachable space was searched)."""
    home = position.cards_home()
    if home == 52:
        return False
    seen = {position.key()}
    todo = [position]
    nodes = 0
    while todo:
        pos = todo.pop()
        for move in pos.legal_moves():
            if move.to_foundation:
                return False
            if not pos.is_useful(move):
                continue
            nodes += 1
            if nodes > max_nodes:
                return False  # not proven: do not call it stalled
            child = pos.apply(move)
            k = child.key()
            if k not in seen:
                seen.add(k)
                todo.append(child)
    return True
