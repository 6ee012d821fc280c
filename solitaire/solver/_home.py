"""Moves home that need no search: the forced finish and the safe moves.

``home_moves(position)`` answers two questions in time linear in the cards
left (no search, cheap enough for every move answer of the API):

- ``forced``: when foundation moves alone win from here, the whole rest of
  the game as foundation moves, lowest rank first; else empty. Foundation
  moves never take a foundation move away (a card sent home only uncovers
  cards and raises its own suit, whose next card no other move wanted), so
  playing any available one in any order wins exactly when some order does,
  and one greedy pass decides it.
- ``safe``: foundation moves proven never to lose a solution, in order (each
  legal after the ones before it). When the finish is forced, every move of
  it. Otherwise, in Flower Garden, the solver's rule 1 (see ``_flower.py``):
  a card goes home when every card one rank lower is home (an ace always).
  In Cruel none: a card in a pile changes how the next redeal groups the
  others, so no foundation move is provably harmless there (``_cruel.py``,
  point 1), and the solver branches on each.
"""

from __future__ import annotations

from typing import NamedTuple

from ..moves import FOUNDATION, Move


class HomeMoves(NamedTuple):
    forced: tuple[Move, ...]
    safe: tuple[Move, ...]


def _line_home(position, *, safe_only: bool) -> tuple[list[Move], bool]:
    """Foundation moves played greedily (lowest rank first) while any is
    allowed; with ``safe_only`` only rule 1's. Returns (moves, all home)."""
    if position.game == "cruel":
        stacks, free = [list(p) for p in position.piles], set()
    else:
        stacks, free = [list(c) for c in position.columns], set(position.bouquet)
    where = {card: i for i, stack in enumerate(stacks) for card in stack}
    found = list(position.foundations)
    line: list[Move] = []
    while True:
        low = min(found)
        best = -1
        for suit in range(4):
            rank = found[suit]
            if rank == 13 or (safe_only and rank > low):
                continue
            card = suit * 13 + rank
            if card in free or stacks[where[card]][-1] == card:
                if best < 0 or rank < best % 13:
                    best = card
        if best < 0:
            return line, sum(found) == 52
        if best in free:
            free.discard(best)
        else:
            stacks[where[best]].pop()
        found[best // 13] += 1
        line.append(Move(best, FOUNDATION))


def home_moves(position) -> HomeMoves:
    """The forced finish (or nothing) and the proven-safe moves home."""
    line, wins = _line_home(position, safe_only=False)
    if wins:
        forced = tuple(line)
        return HomeMoves(forced, forced)
    if position.game == "flower":
        return HomeMoves((), tuple(_line_home(position, safe_only=True)[0]))
    return HomeMoves((), ())
