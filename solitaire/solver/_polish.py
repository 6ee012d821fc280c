"""Shorten a certificate so players can watch it: no pointless moves.

Greedy and always checked by the public engine: try deleting each move that
is not a foundation move (every card must go home, so those stay), from the
last to the first; keep a deletion whenever the shorter line still replays
legally to 52 cards home. That removes moves undone later, shuttles (a card
moved twice where once is enough: its later move names the card and the
target, not the source) and redeals that change nothing useful. A time cap
keeps the pass cheap on long lines; whatever it returns has been replayed."""

from __future__ import annotations

import time

from ..errors import IllegalMoveError


def _wins(position, moves) -> bool:
    try:
        for m in moves:
            position = position.apply(m)
    except IllegalMoveError:
        return False
    return position.is_won()


def polish(position, moves, *, max_seconds: float = 1.0) -> tuple:
    deadline = time.perf_counter() + max_seconds
    moves = list(moves)
    changed = True
    while changed and time.perf_counter() < deadline:
        changed = False
        # states[i] is the position before moves[i]
        states = [position]
        for m in moves:
            states.append(states[-1].apply(m))
        i = len(moves) - 1
        while i >= 0:
            if time.perf_counter() > deadline:
                break
            if not moves[i].to_foundation and _wins(states[i], moves[i + 1 :]):
                del moves[i]
                changed = True
                # states before i are still right; later ones are recomputed next round
                del states[i + 1 :]
            i -= 1
        # states after a deletion were dropped; the next round rebuilds them
    moves = tuple(moves)
    assert _wins(position, moves)
    return moves
