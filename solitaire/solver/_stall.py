"""``is_stalled``: proven that no further card can reach a foundation.

Exact: from the position, explore every layout reachable without a
foundation move (pile/column moves, redeals); the moment any of them offers a
foundation move the answer is False. True only when that space was exhausted.
A budget of stored layouts bounds the rare large spaces; when it runs out
the answer is False (not proven), never a guess of True.

``stall_check`` runs the search in C: the search is ``shared_c/stall.c``
(best first toward the needed card with the fewest cards above it, layouts
kept whole, so a position that is not stalled is usually decided in a few
dozen layouts, and the budget is spent only on stalled positions with large
spaces), over each game's rules in its own core (``cruel_c/stall.c``,
``flower_c/stall.c``). The tests compare it with a plain Python search over
the same space (``tests/solitaire/solver/reference_searches.py``)."""

from __future__ import annotations

import enum

from ..position import Position
from . import _cruel_c, _flower_c  # built by setup.py

DEFAULT_STALL_NODES = 200_000


class Stall(enum.Enum):
    STALLED = "stalled"
    NOT_STALLED = "not_stalled"
    UNKNOWN = "unknown"  # the budget ran out


_BY_CODE = {1: Stall.STALLED, 0: Stall.NOT_STALLED, -1: Stall.UNKNOWN}


def stall_check(position: Position, *, max_nodes: int = DEFAULT_STALL_NODES) -> tuple[Stall, int]:
    """(verdict, layouts stored) from the C search."""
    budget = max(0, max_nodes)
    if position.game == "flower":
        code, states = _flower_c.stalled(position.columns, position.bouquet, position.foundations, budget)
    else:
        code, states = _cruel_c.stalled(position.piles, position.foundations, budget)
    return _BY_CODE[code], states


def is_stalled(position: Position, *, max_nodes: int = DEFAULT_STALL_NODES) -> bool:
    return stall_check(position, max_nodes=max_nodes)[0] is Stall.STALLED


