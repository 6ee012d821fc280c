"""Flower Garden's search, run by the C core ``_flower_c`` (``flower_c/``).

The state is the real layout (six columns, so moves name real columns), the
bouquet and four foundation heights. Moves come back as engine ``Move``
values, and every certificate is replayed through the public engine by
``search.solve`` before it is returned.

Pruning rules (each cannot lose a solution; docs/solver.md argues each):

1. Safe foundation moves: a card goes home at once when every card of the
   rank below is home (nothing can go on it, and it blocks no move).
2. A card moving to an empty column tries only the first one (the key
   sorts columns).
3. A column's only card never moves to an empty column (the same state).
4. Bouquet cards go to a column only in chains ending with a column's top
   card (any bouquet move can be delayed until a card goes on it).
5. Transpositions: a state whose canonical key was expanded is not
   expanded again.
6. Abstract games (proofs only): with each suit's cards below a bound low,
   a position from which no suit with high cards can get its low cards home
   is lost, and positions differing only by the suits of high cards of one
   rank reach that goal alike; ``CFlowerSearch`` refines the bounds step by
   step, each run following the last run's line first.
"""

from __future__ import annotations

import time

from ..moves import MOVES, Move
from . import _flower_c  # the C core, built by setup.py
from ._budget import BudgetSpent, Meter
from .settings import FLOWER, BestFirstRun, FlowerSettings, StepAside


class CFlowerSearch:
    """The search, run by the C core ``_flower_c``: rules 1-6 (the pure
    Python search the tests check it against has rules 1-5). Phase 1 (``greedy``) is the
    portfolio of ``settings``; phase 2 (``run``) proves or wins, in the
    order docs/solver.md describes."""

    def __init__(
        self, position, meter: Meter, settings: FlowerSettings = FLOWER, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ):
        self.position = position
        self.meter = meter
        self.settings = settings
        self.greedy = greedy
        self.prune = prune
        self.stop = stop  # a byte another thread may set
        self.states = 0
        self.path: list[Move] = []
        self.line: list[tuple[int, int]] = []
        self.aside_won = False  # the last win was the step aside's best-first run

    def run(self) -> bool:
        """True: a winning line is in ``self.path``. False: none exists.
        Raises BudgetSpent."""
        if self.greedy or not self.prune or self.settings.abstract_share <= 0:
            return self._search(self.meter, None)
        if self.meter.deadline is not None:
            verdict = self._first_slice()
            if verdict is not None:
                return verdict
        verdict = self._abstract_proof()
        if verdict is not None:
            return verdict
        if self._helpers():
            return True  # a best-first run won; when they give up, it proves nothing
        return self._search(self.meter, None)

    def _helpers(self) -> bool:
        """The best-first runs of ``settings.helpers``, each on its share of
        what is left (with a time budget, of the time; with nodes alone, of
        ``helper_share`` of them). True: one won. False proves nothing."""
        timed = self.meter.deadline is not None
        pool = self.meter if timed else self._part(self.settings.helper_share)
        for run in self.settings.helpers:
            if timed and run.share >= 1.0:
                won = self._search(self.meter, None, run)  # until it gives up
            else:
                part = self._part(run.share, pool)
                won = self._search_part(part, None, run)[0]
                if not timed:
                    pool.nodes += part.nodes  # the next run's share is of what is left
            if won:
                return True
        return False

    def _first_slice(self) -> bool | None:
        """The real game's complete search on ``first_slice`` of the time: it
        wins or proves some deals in a fraction of a second that the other
        searches take long over. None: it ran out of its slice."""
        return self._search_part(self._part(self.settings.first_slice), None)[0]

    def _part(self, share: float, of: Meter | None = None) -> Meter:
        """``share`` of what is left of the budgets (or of ``of``), as a
        meter of its own."""
        b = self.meter if of is None else of
        nodes, seconds = b.nodes_left(), b.seconds_left()
        return Meter(
            None if nodes is None else share * nodes, None if seconds is None else share * seconds, b.max_states,
        )

    def _search_part(
        self, part: Meter, low, run: BestFirstRun | None = None, guide=None, aside=None, start=None, **caps
    ) -> tuple[bool | None, str | None]:
        """``_search`` on what is left of ``part`` (a part of the budgets),
        each of ``caps`` (max_nodes, max_states) lowered to the value given,
        its nodes counted in ``part`` and the whole. Returns the verdict and
        None, or None and the budget that ran out (being called off still
        raises)."""
        sub = self._part(1.0, part)
        for name, cap in caps.items():
            now = getattr(sub, name)
            setattr(sub, name, cap if now is None else min(now, cap))
        try:
            return self._search(sub, low, run, guide, aside, start), None
        except BudgetSpent as spent:
            if spent.which == "stopped":
                raise
            return None, spent.which
        finally:
            part.nodes += sub.nodes
            self.meter.nodes += sub.nodes

    def _search(
        self, meter: Meter, low, run: BestFirstRun | None = None, guide=None, aside: StepAside | None = None,
        start=None,
    ) -> bool:
        """One run of the C core: phase 1's portfolio (``greedy``), the
        complete search, or with ``run`` one best-first run, on the real
        game (``low`` None) or an abstract game. ``guide``: an earlier
        run's ``line``, which the complete search follows first (a move
        order only). ``aside``: the complete search's step aside. ``start``:
        search from this position instead of the one being solved. A win
        leaves its line in ``self.path`` and, as the C core gives it, in
        ``self.line``."""
        pos = self.position if start is None else start
        options = {}
        if run is not None:
            options.update(run="best-first", depth_weight=run.depth_weight, blocked_weight=run.blocked_weight)
        elif self.greedy:
            options.update(run="portfolio", portfolio=self.settings.portfolio)
        else:
            options.update(run="complete", guide=guide, aside=aside)
        status, limit, nodes, states, moves = _flower_c.search(
            [tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations),
            prune=self.prune, max_nodes=meter.nodes_left(), max_seconds=meter.seconds_left(),
            max_states=meter.max_states, stop=self.stop, low=low, store=self.settings.best_first_store,
            **options,
        )
        meter.nodes += nodes
        self.states = states
        if status < 0:
            raise BudgetSpent(limit)
        self.aside_won = status == 1 and limit == "aside"
        self.line = moves
        self.path = [MOVES[c][t + 1] for c, t in moves]
        return status == 1

    def _abstract_proof(self) -> bool | None:
        """Rule 6, refined step by step: False when an abstract game proves
        the position lost, True when the refinement reached the real game
        and won it (the line in ``self.path``; the real game's search can
        prove it lost too), None when neither happened on
        ``abstract_share`` of the budgets. Each run starts with the next
        card of each suit low; a run that wins has brought some suits' low
        cards all home, and those suits get one more low rank for the next
        run, which follows the line of the run before first. Each run is a
        ``_refine_step``."""
        part = self._part(self.settings.abstract_share)
        found = self.position.foundations
        low = [min(13, f + 1) for f in found]
        guide = None
        while any(r < 13 for r in low):
            if self.stop is not None and self.stop[0]:
                raise BudgetSpent("stopped")  # short runs may never look at it
            won = self._refine_step(part, tuple(low), guide)
            if won is None:
                return None
            if not won:
                return False
            guide = self.line
            home = list(found)
            for move in self.path:
                if move.to_foundation:
                    home[move.card // 13] += 1
            reached = [s for s in range(4) if low[s] < 13 and home[s] >= low[s]]
            if not reached:
                return True  # every card home: a real win
            for s in reached:
                low[s] += 1
        # every bound 13: the real game, its search guided by the last line
        # (which reached all but the last cards), on what is left of the part
        return self._refine_step(part, None, guide)

    @staticmethod
    def shorten(position, moves, settings: FlowerSettings = FLOWER, *, max_seconds: float = 2.0) -> tuple:
        """A won line of more than ``long_line`` moves, often shorter: a
        best-first run (``line_run``) from a position of the line wins from
        there in few moves, where the search that found the line had
        wandered (a depth-first search's line is its stack, however deep).
        Find by bisection an early position of the line from which such a
        run wins (later positions are nearer the end, so mostly easier), and
        take the line up to there and the run's line from there. Returns
        the shorter line (which wins) or ``moves``; a run that gives up
        proves nothing."""
        moves = tuple(moves)
        if len(moves) <= settings.long_line:
            return moves
        deadline = time.perf_counter() + max_seconds
        best = moves
        lo, hi = 0, len(moves)  # a run wins from the position after moves[:hi] (at the end: won)
        while hi - lo > 1:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            k = (lo + hi) // 2
            search = CFlowerSearch(position, Meter(settings.line_run.expansions, left), settings)
            try:
                won = search._search(search.meter, None, settings.line_run, start=position.play(moves[:k]))
            except BudgetSpent:
                won = False
            if won:
                hi = k
                best = moves[:k] + tuple(search.path)
            else:
                lo = k
        return best if len(best) < len(moves) else moves

    def _cut_tail(self, part: Meter, low, guide, spent: float) -> None:
        """A refinement step's complete search won (its line in ``self.line``
        and ``self.path``) in ``spent`` nodes: where the line goes on for
        more than ``long_tail`` moves past the place where it left
        ``guide``, let a best-first run (``tail_run``) from that place look
        for a shorter way to the same goal (no more than twice what the step
        took, or ``tail_least``), and take its line if it finds one. A line
        the step aside found is a best-first run's already."""
        if self.aside_won:
            return
        line, path = self.line, self.path
        k = 0
        if guide is not None:
            while k < min(len(line), len(guide)) and line[k] == guide[k]:
                k += 1
        if len(line) - k <= self.settings.long_tail:
            return
        start = self.position.play(path[:k])
        run = self.settings.tail_run
        cap = min(run.expansions, max(self.settings.tail_least, 2 * spent))
        won, _ = self._search_part(part, low, run, start=start, max_nodes=cap)
        if won and len(self.line) < len(line) - k:
            self.line = line[:k] + self.line
            self.path = path[:k] + self.path
        else:
            self.line, self.path = line, path

    def _refine_step(self, part: Meter, low, guide) -> bool | None:
        """One run of the refinement on ``part`` (``low`` None: the real
        game): True when it reached the goal (the line in ``self.path`` and
        ``self.line``), False when the complete search proved it out of
        reach, None when ``part`` ran out. See ``step_aside`` and
        ``long_tail``."""
        aside = None
        if part.max_states is None or part.max_states > self.settings.step_aside.states:
            aside = self.settings.step_aside
        before = part.nodes
        won = self._search_part(part, low, guide=guide, aside=aside)[0]
        if won:
            self._cut_tail(part, low, guide, part.nodes - before)
        return won


FlowerSearch = CFlowerSearch
