"""Shorten a certificate so players can watch it: no pointless moves.

Two passes, both through the public engine. First, shortcuts: walking the
line from the start, jump from each position to the furthest later position
of the line that one legal move reaches (a position that comes back later is
a loop, and is jumped over at once). A depth-first search can wander through
thousands of positions before it finds its way; this cuts such detours in one
linear pass. Then deletions: try deleting each move that
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


def _stacks(pos):
    return pos.piles if pos.game == "cruel" else pos.columns


def _relabel(moves, came, meant):
    """``moves`` were played from ``meant``; replay them from ``came``, the
    same position up to the order of its columns (Flower's key sorts them):
    each target column is renamed to the column of ``came`` holding the same
    cards (empty columns are paired in order)."""
    spare = [j for j, s in enumerate(_stacks(came)) if not s]
    where = {s: j for j, s in enumerate(_stacks(came)) if s}
    rename = {}
    for i, s in enumerate(_stacks(meant)):
        rename[i] = where[s] if s else spare.pop(0)
    return [m if m.target < 0 else type(m)(m.card, rename[m.target]) for m in moves]


def _shortcut_once(position, moves, deadline):
    states = [position]
    for m in moves:
        states.append(states[-1].apply(m))
    last_seen = {s.key(): i for i, s in enumerate(states)}  # later wins
    out = []
    i = 0
    here = position
    while i < len(moves):
        if time.perf_counter() > deadline:
            return out + _relabel(moves[i:], here, states[i]), True
        best, best_move = last_seen[here.key()], None  # a loop back here is skipped
        for m in here.legal_moves():
            k = last_seen.get(here.apply(m).key(), -1)
            if k > best:
                best, best_move = k, m
        if best_move is None and best == i:
            best, best_move = i + 1, _relabel([moves[i]], here, states[i])[0]
        if best_move is not None:
            out.append(best_move)
            here = here.apply(best_move)
        else:  # a loop: ``here`` stands for states[best] already
            pass
        i = best
    return out, False


def shortcut(position, moves, *, deadline: float) -> list:
    """The line with detours cut (see the module's docstring), repeated while
    it gets shorter; once the deadline passes the rest is kept as it is."""
    moves = list(moves)
    while True:
        shorter, late = _shortcut_once(position, moves, deadline)
        if late or len(shorter) >= len(moves):
            return shorter if len(shorter) <= len(moves) else moves
        moves = shorter


def polish(position, moves, *, max_seconds: float = 2.0) -> tuple:
    deadline = time.perf_counter() + max_seconds
    try:
        cut = shortcut(position, list(moves), deadline=time.perf_counter() + max_seconds / 2)
    except IllegalMoveError:  # pragma: no cover - a bug in shortcut; keep the proven line
        cut = None
    moves = cut if cut is not None and _wins(position, cut) else list(moves)
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
