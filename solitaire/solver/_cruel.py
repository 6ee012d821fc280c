"""Cruel's search, run by the C core ``_cruel_c`` (``cruel_c/``).

The state is the piles in their real order: the order decides how a redeal
groups the cards, so piles are never sorted. Moves come back as engine
``Move`` values, and ``search.solve`` replays every certificate through the
public engine before returning it.

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

With ``prune`` (always, in the solver) two reductions are added
(``cruel_c/cruel.h`` documents the table, the memory per state, the 128-bit
hash's collision bound, and the proof of each):

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
the pure Python search the tests keep as its oracle
(``tests/solitaire/solver/reference_searches.py``: same move order, same
node count, same certificate).
"""

from __future__ import annotations

from ..moves import REDEAL, Move
from . import _cruel_c  # the C core, built by setup.py
from ._budget import C_LIMITS, BudgetSpent, Meter
from .settings import CRUEL, CruelSettings


class CCruelSearch:
    """The search, run by the C core ``_cruel_c``: ``run()`` returns True
    (``path`` holds the moves) or False (space exhausted), or raises
    ``BudgetSpent`` naming the budget; ``meter.nodes`` and ``states`` say
    what it spent."""

    def __init__(
        self, position, meter: Meter, settings: CruelSettings = CRUEL, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ):
        if stop is not None:
            raise ValueError("a Cruel search cannot be called off (its settings never run phases side by side)")
        self.piles = tuple(tuple(p) for p in position.piles)
        self.found = tuple(position.foundations)
        self.meter = meter
        self.prune = prune
        self.greedy = greedy
        self.states = 0
        self.path: list[Move] = []

    @staticmethod
    def shorten(position, moves, settings: CruelSettings = CRUEL) -> tuple[Move, ...]:
        """A won line needs no first pass before the engine's polish."""
        return tuple(moves)

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
