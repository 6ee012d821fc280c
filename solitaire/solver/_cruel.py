"""Cruel search on a compact internal state.

Piles are ``bytes`` (card ints, base to top) in their real order: the order
decides how a redeal groups the cards, so piles are never sorted. Moves are
engine ``Move`` values, and ``search.solve`` replays every certificate
through the public engine before returning it.

What is (and is not) pruned, and why:

1. No forced foundation moves. In other games a card that its foundation
   needs can be sent home at once; in Cruel its presence in a pile shifts how
   every later card is grouped at the next redeal (a card as a "spacer" can
   bring a blocked card to the top of a pile), so sending it home is not
   provably harmless, and the search branches on it like on any move.
2. Transpositions: the key is the exact layout (all 12 piles in order; the
   foundations follow from the cards left). A layout expanded once is not
   expanded again; a depth-first search that exhausts all unexpanded layouts
   has exhausted the reachable space.
3. A redeal that would give the same layout is not legal (rules), and a
   redeal is never tried twice in a row (the first one leaves the layout in
   groups of 4, so the second is illegal anyway).

``CruelSearch`` runs the same search in C (``_cruel_c.c`` and ``cruel_c/``;
GIL released; ``cruel_c/cruel.h`` documents its table, the memory per
state, the 128-bit hash's collision bound, and the proof of each reduction
it adds):

4. Empty piles are keyed by their rank among the non-empty piles (the places
   of empty piles never matter: moves look only at tops, redeals only at
   the order of the non-empty piles).
5. Dead layouts are not searched: when a prefix of the card sequence (pile 1
   base to pile 12 top) can be shown frozen forever (every card of it that
   is or may become a top has a lower card of its suit in the prefix, a
   successor covered in the prefix or none, and, unless it ends the prefix,
   its predecessor in the prefix), its cards never go home. Most unsolvable
   deals are dead from the start this way (for example 2S with KS on it at
   the base of pile 1); inside the search the test cuts the subtrees that
   are lost, which also steers the greedy first phase to solutions.

Without reductions (``prune=False``) the C core walks exactly the tree of
``PyCruelSearch`` (same move order, same node count, same certificate),
which the tests check. ``PyCruelSearch`` is the pure Python search, kept as
that reference for the tests; the solver always runs the C core.
"""

from __future__ import annotations

import sys

from ..moves import FOUNDATION, REDEAL, Move
from . import _cruel_c  # the C core, built by setup.py
from ._budget import C_LIMITS, MAX_DEPTH, BudgetSpent, Meter
from .settings import CRUEL, CruelSettings, PythonSearch

_EMPTY = b""


def _no_stop(stop) -> None:
    if stop is not None:
        raise ValueError("a Cruel search cannot be called off (its settings never run phases side by side)")


class PyCruelSearch(PythonSearch):
    def __init__(
        self, position, meter: Meter, settings: CruelSettings = CRUEL, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ):
        _no_stop(stop)
        self.piles = [bytes(p) for p in position.piles]
        self.found = list(position.foundations)
        self.home = sum(self.found)
        self.meter = meter
        self.prune = prune
        self.greedy = greedy  # search.py's first, incomplete phase
        self.seen: set[bytes] = set()
        self.path: list[Move] = []

    def key(self) -> bytes:
        return b"\xff".join(self.piles)

    def grouped(self) -> bool:
        """True when the layout is already in groups of 4 (redeal illegal)."""
        left = 52 - self.home
        for p in self.piles:
            want = 4 if left >= 4 else left
            if len(p) != want:
                return False
            left -= want
        return True

    def moves(self):
        """(score, card, src, target) best first; target FOUNDATION, a pile
        index, or -2 for the redeal."""
        piles = self.piles
        found = self.found
        tops = {}
        for i in range(12):
            p = piles[i]
            if p:
                tops[p[-1]] = i
        out = []
        for c, i in tops.items():
            s, r = divmod(c, 13)
            below = piles[i][-2] if len(piles[i]) > 1 else -1
            # Uncovering a card its foundation needs is worth most.
            bonus = 0
            if below >= 0 and found[below // 13] == below % 13:
                bonus = 3
            if found[s] == r:
                out.append((0 - bonus, c, i, FOUNDATION))
            if r != 12:
                j = tops.get(c + 1)
                if j is not None:
                    out.append((5 - bonus, c, i, j))
        if not self.grouped():
            out.append((9, REDEAL.card, -1, REDEAL.target))
        out.sort()
        return out

    def run(self) -> bool:
        if sys.getrecursionlimit() < MAX_DEPTH:
            sys.setrecursionlimit(MAX_DEPTH)
        return self._dfs()

    def _dfs(self) -> bool:
        if self.home == 52:
            return True
        k = self.key()
        seen = self.seen
        if k in seen:
            return False
        seen.add(k)
        self.meter.tick(len(seen))
        piles = self.piles
        found = self.found
        path = self.path
        moves = self.moves()
        if self.greedy and moves and moves[0][3] == FOUNDATION:
            moves = moves[:1]  # heuristic phase only: not a proof rule
        for _, c, src, target in moves:
            if target == FOUNDATION:
                p = piles[src]
                piles[src] = p[:-1]
                found[c // 13] += 1
                self.home += 1
                path.append(Move(c, FOUNDATION))
                if self._dfs():
                    return True
                path.pop()
                self.home -= 1
                found[c // 13] -= 1
                piles[src] = p
            elif src >= 0:
                p, q = piles[src], piles[target]
                piles[src] = p[:-1]
                piles[target] = q + p[-1:]
                path.append(Move(c, target))
                if self._dfs():
                    return True
                path.pop()
                piles[src], piles[target] = p, q
            else:
                old = self.piles
                seq = b"".join(old)
                self.piles = [seq[i : i + 4] for i in range(0, 48, 4)]
                path.append(REDEAL)
                if self._dfs():
                    return True
                path.pop()
                self.piles = old
                piles = old
        return False


class CCruelSearch:
    """The C core behind PyCruelSearch's interface: ``run()`` returns True
    (``path`` holds the moves) or False (space exhausted), or raises
    ``BudgetSpent`` naming the budget; ``meter.nodes`` and ``states`` are
    kept as the Python search keeps them."""

    def __init__(
        self, position, meter: Meter, settings: CruelSettings = CRUEL, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ):
        _no_stop(stop)
        self.piles = tuple(tuple(p) for p in position.piles)
        self.found = tuple(position.foundations)
        self.meter = meter
        self.prune = prune
        self.greedy = greedy
        self.states = 0
        self.path: list[Move] = []

    shorten = PyCruelSearch.shorten

    def run(self) -> bool:
        m = self.meter
        nodes = m.nodes_left()
        status, spent, self.states, moves = _cruel_c.search(
            self.piles, self.found, greedy=self.greedy, prune=self.prune,
            max_nodes=None if nodes is None else int(nodes), max_seconds=m.seconds_left(),
            max_states=None if m.max_states is None else int(m.max_states),
        )
        m.nodes += spent
        if status < 0:
            raise BudgetSpent(C_LIMITS[status])
        if status == 1:
            self.path = [REDEAL if t == REDEAL.target else Move(c, t) for c, t in moves]
            return True
        return False


CruelSearch = CCruelSearch
