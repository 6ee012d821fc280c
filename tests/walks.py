"""Positions reachable from a deal, for property tests: the deal's start
and then legal moves chosen by a list of picks."""

from __future__ import annotations

import solitaire


def walk(game: str, seed: int, picks: list[int]) -> solitaire.Position:
    """The deal of ``seed``, then for each pick the legal move at that index
    (modulo their number), stopping where no move is left."""
    position = solitaire.deal(game, seed=seed)
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        position = position.apply(legal[pick % len(legal)])
    return position
