"""``is_stalled``: proven that no further card can reach a foundation.

Exact and cheap: from the position, explore every layout reachable without a
foundation move (pile/column moves, redeals); the moment any of them offers a
foundation move the answer is False. True only when that space was exhausted.
On typical positions a foundation move is available at once or after a few
moves. A node budget bounds the rare large spaces; when it runs out the
answer is False (not proven), never a guess of True."""

from __future__ import annotations

from ..position import Position

DEFAULT_STALL_NODES = 5_000


def is_stalled(position: Position, *, max_nodes: int = DEFAULT_STALL_NODES) -> bool:
    if position.is_won():
        return False
    seen = {position.key()}
    todo = [position]
    nodes = 0
    while todo:
        pos = todo.pop()
        nodes += 1
        if nodes > max_nodes:
            return False
        moves = pos.legal_moves()
        for move in moves:
            if move.to_foundation:
                return False
        for move in moves:
            if not pos.is_useful(move):
                continue
            child = pos.apply(move)
            k = child.key()
            if k not in seen:
                seen.add(k)
                todo.append(child)
    return True
