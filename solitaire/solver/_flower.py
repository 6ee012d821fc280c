"""Flower Garden search on a compact internal state.

Columns are ``bytes`` (card ints, base to top), the bouquet is a sorted
``bytes``, foundations are four heights. The state is changed in place and
undone on backtrack, so the inner loop makes few objects. Moves are kept as
engine ``Move`` values with the real column numbers, and every certificate is
replayed through the public engine by ``search.solve`` before it is returned.

Pruning rules (each one cannot lose a solution):

1. Safe foundation moves (forced, played without branching). A card ``c`` of
   rank ``r`` whose foundation needs it goes home at once when every card of
   rank ``r - 1`` is already home (for an ace: always). Why it cannot lose a
   solution: take any winning line from the position where ``c`` stays out.
   Nothing can ever be placed on ``c`` (only rank ``r - 1`` cards could go
   there, and they are all home), so ``c`` is always an available card, and a
   column holding ``c`` accepts strictly fewer cards than the same column
   without it (an empty column accepts any card). Play the same line without
   ``c``: drop the moves of ``c`` itself (between columns and to its
   foundation); every other move stays legal, since its source card is
   available in both worlds, its target column shows the same top card or is
   empty in both (a top of ``c`` could be a target only for a rank ``r - 1``
   card), or is empty in ours only, and the foundations in ours are never
   lower. The line ends with all 52 home.
2. Empty columns are interchangeable (the state key sorts columns), so a card
   moving to an empty column tries only the first empty column.
3. Moving a column's only card into an empty column gives the same canonical
   state, so it is never tried (the engine calls it "not useful").
4. Bouquet cards go to a column only as part of a chain: bouquet cards
   b1 > X, b2 onto b1, ..., bk onto b(k-1), then a column's top card onto bk
   (ranks falling by one), played as one macro. Why it cannot lose a
   solution: in any winning line, take a move "b > X" (b from the bouquet)
   and delay it until just before the first later move that puts a card on b
   or that moves b itself. In between, nothing in the line touches column X
   (its top was b, and nothing went on b), so every move in between stays
   legal with X showing its old top (or empty), and "b > X" is still legal
   when played late. If b's next event is b moving on (to a column or home),
   "b > X" then that move is the same as playing b directly from the
   bouquet, which is legal under the same condition, so the pair becomes one
   move. Repeating this (each step only moves a bouquet move later or merges
   two moves) gives a winning line where every bouquet-to-column move is
   followed at once by a card put on it; that card is a bouquet card (and the
   same holds for it) or a column's top card, which ends the chain.
5. Transpositions: a state whose canonical key (columns sorted, bouquet as a
   set, foundations implied by the cards left) was already expanded is not
   expanded again; a depth-first search that exhausts every unexpanded state
   has exhausted the reachable space.
6. Abstract games (proofs only). Give each suit a bound: its cards below
   the bound are low, the others high (a bound of 13 makes every card of
   the suit low). Goal G: some suit that has high cards has all its low
   cards home. Every winning line reaches G before any high card goes home,
   since a high card of a suit goes home only onto all of that suit's low
   cards; so a position from which G cannot be reached is lost. Until G, no
   high card goes home, and every other move (onto a column top one rank
   higher, into an empty column, from the bouquet) looks only at ranks; so
   two positions that differ only by exchanging high cards of equal rank
   reach G alike, and the search for G keys a position with every high card
   replaced by its rank (columns as sequences, the bouquet as a multiset,
   the foundations explicit, as they are no longer implied). This merges
   the positions that differ by how the suits of high cards are shuffled,
   often millions of them. Rules 1-5 hold for this search as they are
   argued above: a line that reaches G keeps its foundation moves, in order,
   in the lines they build (and rule 1 moves a high card only once G
   holds). The search for G finding G proves nothing: the bounds of the
   suits that got there go up by one and it runs again, until it proves G
   out of reach (the position is lost) or every bound is 13 (the real game,
   searched as usual). Seed 12, for one: the real search exhausts 9.2
   million states; bounds (1, 2, 4, 1) prove it lost in 32 thousand.
   Each run follows the line of the run before first (a move order only,
   see guide_pick in _flower_c.c), so the refinement climbs quickly where
   the goals lie one after the other along one line, and it wins deals too,
   the real game's last search being short: deal 351, which no best-first
   run of 6 million positions wins, within 50 thousand positions. A step whose
   complete search takes long steps aside for a best-first run that looks
   for its goal (see STEP_STATES), and a step whose line wanders far past
   its guide gets a best-first run for a shorter way to the same goal (see
   LONG_TAIL); only the complete search proves anything.
"""

from __future__ import annotations

import sys
import time

from ..moves import FOUNDATION, MOVES, Move
from . import _flower_c  # the C core, built by setup.py
from ._budget import MAX_DEPTH, Budget, BudgetSpent, StateCount

_NO_EMPTY = -1


class CFlowerSearch:
    """The search, run by the C core ``_flower_c`` (same rules, same
    interface as ``PyFlowerSearch``, which stays as its reference)."""

    # A stored state costs 16 bytes in the C table at 3/8 to 3/4 load (21 to
    # 43 bytes), plus the depth-first line: 12 million keep the table at 268
    # MB (it doubles past 3/4 load), which leaves room for a best-first run
    # beside it (at most 6 million positions held and 25 million seen, under
    # 800 MB; two side by side take under 1.6 GB). Ten seconds store about
    # ten million; the largest solve of the benchmark stays under 2 GB.
    DEFAULT_MAX_STATES = 12_000_000
    # With a time budget, search.py runs the two phases side by side, each on
    # its own core for the whole budget (the C core runs without the GIL),
    # and the first decisive answer calls the other off through ``stop``:
    # phase 1 finds the solutions (a portfolio of searches, see _flower_c.c)
    # and phase 2 does the proofs (``run``). With a node budget alone they
    # run one after the other, phase 1 on half the nodes (not on a node cap
    # sized for the Python search).
    SIDE_BY_SIDE = True
    GREEDY_NODES = None
    GREEDY_SHARE = 0.5
    # Phase 2 tries to prove the position lost in abstract games (rule 6)
    # on at most ABSTRACT_SHARE of its budgets (with a time budget, after
    # FIRST_SLICE of it on the real game's complete search, which wins deal
    # 8, say, in 0.09 s where the best-first runs need over 6 s). The
    # abstract games proved each of the 94 deals of seeds 0..999 that the
    # real game's search had proven lost within 10 s, 92 of them sooner, and
    # 125 deals in all, all but 4 within 1.8 s (those 4 within 2.4 s beside
    # the present phase 1). What is left goes to HELPERS, best-first runs
    # one after the other, each (depth weight, whether its evaluation
    # weighs the cards on a lower card of their suit, share of what is left
    # when it starts): a short one of weight 12 with that weight, which wins
    # some deals in a fraction of a second that phase 1 leaves for long (5
    # of seeds 0..999, undecided in 10 s without it, each within 1.1 million
    # nodes), then one of weight 24 with the plain evaluation, which solves
    # other hard deals than phase 1's long run, of the same weight with the
    # other evaluation: on the 29 deals left undecided in 10 s, within 7
    # million nodes each (about what a run gets in 10 s), 7 against 5, 4 of
    # them the same. With a time budget the last runs until it gives up
    # (see BEST_FIRST_NODES in _flower_c.c); with nodes alone, the runs
    # share HELPER_SHARE of them. Then, if the last gave up, the real game's
    # complete search. A share of 0.4 for the abstract games decided 2 fewer
    # of 59 hard deals than 0.25 (15 against 17: the best-first runs need
    # the time). A third (3.2 s of 10): deals 274, 370 and 999 are proven
    # lost in 1.5-1.8 s at full speed, and in 2.1-2.8 s when the machine is
    # slower or busy, past a quarter (2.4 s); the deal a third once cost
    # (470, won late by the weight-24 run) is now won by phase 1's short
    # weight-48 run. Since the refinement follows its last line (rule 6),
    # it wins deals too, and gets more: on the 58 deals of seeds 0..999
    # that took over 2 s (or were undecided), a share of 0.6 decided 49, a
    # third 47 (deals 810 and 843, won by the refinement at 4.7-5.8 s, were
    # left), the whole of phase 2 (the best-first runs only when it stops
    # early) 47 (137 and 757, won by the plain weight-24 run, were left).
    # Since the refinement follows its guide through (see guide_pick in
    # _flower_c.c) and cuts long tails (LONG_TAIL), it wins most of what
    # the best-first runs used to, sooner: on the 60 slowest deals of seeds
    # 0..999 at 8.2 s on a machine where that is 10 s at the usual speed,
    # 0.8 decided 54, as did the whole of phase 2, and 0.6 52 (784 and 843
    # left, each stopped in a step at 0.6 of the time); 757, which the
    # plain weight-24 run wins, took 5.3 s at 0.6, 6.7 s at 0.8, 8.2 s at 1.
    FIRST_SLICE = 0.05
    ABSTRACT_SHARE = 0.8
    # A refinement step's complete search, once it has stored STEP_STATES
    # states, steps aside for a best-first run in the same abstract game
    # (depth weight, expansions) that looks for the goal; if that run does
    # not find it, the complete search goes on where it was (the only run
    # that can prove the goal out of reach; see step_aside in _flower_c.c).
    # Deals 275, 384 and 737 are won so within 4 s; the complete search's
    # steps alone stall on them for minutes (275 at bounds (1, 6, 7, 3),
    # 384 at (3, 13, 3, 3)). A proof whose last step passes STEP_STATES
    # pays for the run: deal 362's last step takes 4.4 million states (2.3
    # s) and the run 2 s. (Before the search could go on after the run, it
    # started again from nothing, and 362 took 5.6 s on a fast machine
    # against 4.6 s now, and was undecided in 8 s at the usual speed.)
    # A refinement step's complete search can wander: deal 679's step at
    # bounds (4, 1, 9, 10) leaves its guide at move 472 and reaches the goal
    # 22,425 moves later (stacks of two cards carried from column to column
    # through a third), and every later step follows that line, and the
    # real game's too (23,407 moves after shortening). A best-first run from
    # where it left the guide reaches the same goal in 48 moves (99
    # thousand expansions, 0.09 s). So a line that goes on for more than
    # LONG_TAIL moves past its guide gets such a run (see _cut_tail). The
    # shorter guides make the later steps quicker too: on the 60 slowest
    # deals of seeds 0..999, at 8.2 s on a machine where that is 10 s at
    # the usual speed, 49 decided without the runs, 49 with a LONG_TAIL of
    # 200, 51 and 52 with 50, 51 with 20 (lines over 300 moves: 9, 4, 2).
    LONG_TAIL = 50
    TAIL_BEST_FIRST = (24, 500_000)
    TAIL_LEAST = 20_000
    STEP_STATES = 4_000_000
    STEP_BEST_FIRST = (24, 2_000_000)
    HELPERS: tuple[tuple[int, bool, float], ...] = ((12, True, 0.2), (24, False, 1.0))
    HELPER_SHARE = 0.5

    def __init__(self, position, budget: Budget, *, prune: bool = True):
        self.position = position
        self.budget = budget
        self.prune = prune
        self.greedy = False
        self.seen = StateCount()
        self.path: list[Move] = []
        self.line: list[tuple[int, int]] = []
        self.aside_won = False  # the last win was the step aside's best-first run
        self.stop: bytearray | None = None  # a byte another thread may set

    def run(self) -> bool:
        """True: a winning line is in ``self.path``. False: none exists.
        Raises BudgetSpent."""
        if self.greedy or not self.prune or self.ABSTRACT_SHARE <= 0:
            return self._search(self.budget, None)
        if self.budget.deadline is not None:
            verdict = self._first_slice()
            if verdict is not None:
                return verdict
        verdict = self._abstract_proof()
        if verdict is not None:
            return verdict
        if self._helpers():
            return True  # a best-first run won; when they give up, it proves nothing
        return self._search(self.budget, None)

    def _helpers(self) -> bool:
        """The best-first runs of HELPERS, each on its share of what is left
        (with a time budget, of the time; with nodes alone, of HELPER_SHARE
        of them). True: one won. False proves nothing."""
        timed = self.budget.deadline is not None
        pool = self.budget if timed else self._part(self.HELPER_SHARE)
        for weight, blocked, share in self.HELPERS:
            if timed and share >= 1.0:
                won = self._search(self.budget, None, weight, blocked)  # until it gives up
            else:
                part = self._part(share, pool)
                won = self._search_part(part, None, weight, blocked)[0]
                if not timed:
                    pool.nodes += part.nodes  # the next run's share is of what is left
            if won:
                return True
        return False

    def _first_slice(self) -> bool | None:
        """The real game's complete search on FIRST_SLICE of the time: it
        wins or proves some deals in a fraction of a second that the other
        searches take long over. None: it ran out of its slice."""
        return self._search_part(self._part(self.FIRST_SLICE), None)[0]

    def _part(self, share: float, of: Budget | None = None) -> Budget:
        """``share`` of what is left of the budgets (or of ``of``), as a
        budget of its own."""
        b = self.budget if of is None else of
        return Budget(
            None if b.max_nodes is None else share * max(0, b.max_nodes - b.nodes),
            None if b.deadline is None else share * max(0.0, b.deadline - time.perf_counter()),
            b.max_states,
        )

    def _search_part(
        self, part: Budget, low, weight: int | None = None, blocked: bool = True, guide=None, aside=None,
        start=None, **caps
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
            return self._search(sub, low, weight, blocked, guide, aside, start), None
        except BudgetSpent as spent:
            if spent.which == "stopped":
                raise
            return None, spent.which
        finally:
            part.nodes += sub.nodes
            self.budget.nodes += sub.nodes

    def _search(
        self, b: Budget, low, weight: int | None = None, blocked: bool = True, guide=None, aside=None, start=None
    ) -> bool:
        """One run of the C core: the complete search (``weight`` None), or
        one best-first run of depth weight ``weight``, its evaluation
        weighing the cards on a lower card of their suit when ``blocked``.
        ``guide``: an earlier run's ``line``, which the complete search
        follows first (it orders moves, and changes no verdict).
        ``aside``: (states, weight, expansions), the complete search's step
        aside for a best-first run (see STEP_STATES). ``start``: search
        from this position instead of the one being solved. A win
        leaves its line in ``self.path`` and, as the C core gives it, in
        ``self.line``."""
        pos = self.position if start is None else start
        max_nodes = None if b.max_nodes is None else max(0, b.max_nodes - b.nodes)
        max_seconds = None
        if b.deadline is not None:
            max_seconds = max(0.0, b.deadline - time.perf_counter())
        status, limit, nodes, states, moves = _flower_c.search(
            [tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations),
            self.greedy or weight is not None, self.prune, max_nodes, max_seconds, b.max_states, self.stop, low,
            -1 if weight is None else weight, -1 if blocked else 0, 0, guide, aside,
        )
        b.nodes += nodes
        self.seen = StateCount(states)
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
        prove it lost too), None when neither happened
        on ABSTRACT_SHARE of the budgets. Each run starts with the next card
        of each suit low; a run that wins has brought some suits' low cards
        all home, and those suits get one more low rank for the next run,
        which follows the line of the run before first (see guide_pick in
        _flower_c.c). Each run is a ``_refine_step``."""
        part = self._part(self.ABSTRACT_SHARE)
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

    # cut_long_line's bounds: lines the service would show as they are (a
    # daily deal is refused over 300 moves), and one best-first run's
    # expansions
    LONG_LINE = 200
    LINE_BEST_FIRST = 200_000

    @staticmethod
    def cut_long_line(position, moves, *, max_seconds: float = 2.0) -> tuple:
        """A won line of more than LONG_LINE moves, often shorter: a
        best-first run (weight 24, at most LINE_BEST_FIRST expansions) from
        a position of the line wins from there in few moves, where the
        search that found the line had wandered (a depth-first search's line
        is its stack, however deep). Find by bisection an early position of
        the line from which such a run wins (later positions are nearer the
        end, so mostly easier), and take the line up to there and the run's
        line from there. Seed 804: the portfolio's depth-first run wins in
        8,126 moves; a run from the line's 15th position wins in 97 more
        (112 in all). Returns the shorter line (which wins) or ``moves``; a
        run that gives up proves nothing."""
        moves = tuple(moves)
        if len(moves) <= CFlowerSearch.LONG_LINE:
            return moves
        deadline = time.perf_counter() + max_seconds
        best = moves
        lo, hi = 0, len(moves)  # a run wins from the position after moves[:hi] (at the end: won)
        while hi - lo > 1:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            k = (lo + hi) // 2
            run = CFlowerSearch(position, Budget(CFlowerSearch.LINE_BEST_FIRST, left))
            try:
                won = run._search(run.budget, None, 24, start=position.play(moves[:k]))
            except BudgetSpent:
                won = False
            if won:
                hi = k
                best = moves[:k] + tuple(run.path)
            else:
                lo = k
        return best if len(best) < len(moves) else moves

    def _cut_tail(self, part: Budget, low, guide, spent: float) -> None:
        """A refinement step's complete search won (its line in ``self.line``
        and ``self.path``) in ``spent`` nodes: where the line goes on for
        more than LONG_TAIL moves past the place where it left ``guide``,
        let a best-first run from that place look for a shorter way to the
        same goal (at most TAIL_BEST_FIRST's expansions, and no more than
        twice what the step took, or TAIL_LEAST), and take its line if it
        finds one.
        A line the step aside found is a best-first run's already."""
        if self.aside_won:
            return
        line, path = self.line, self.path
        k = 0
        if guide is not None:
            while k < min(len(line), len(guide)) and line[k] == guide[k]:
                k += 1
        if len(line) - k <= self.LONG_TAIL:
            return
        start = self.position.play(path[:k])
        weight, expansions = self.TAIL_BEST_FIRST
        cap = min(expansions, max(self.TAIL_LEAST, 2 * spent))
        won, _ = self._search_part(part, low, weight, start=start, max_nodes=cap)
        if won and len(self.line) < len(line) - k:
            self.line = line[:k] + self.line
            self.path = path[:k] + self.path
        else:
            self.line, self.path = line, path

    def _refine_step(self, part: Budget, low, guide) -> bool | None:
        """One run of the refinement on ``part`` (``low`` None: the real
        game): True when it reached the goal (the line in ``self.path`` and
        ``self.line``), False when the complete search proved it out of
        reach, None when ``part`` ran out. See STEP_STATES and LONG_TAIL."""
        aside = None
        if part.max_states is None or part.max_states > self.STEP_STATES:
            aside = (self.STEP_STATES, *self.STEP_BEST_FIRST)
        before = part.nodes
        won = self._search_part(part, low, guide=guide, aside=aside)[0]
        if won:
            self._cut_tail(part, low, guide, part.nodes - before)
        return won


class PyFlowerSearch:
    def __init__(self, position, budget: Budget, *, prune: bool = True):
        self.cols = [bytes(c) for c in position.columns]
        self.bq = bytes(sorted(position.bouquet))
        self.found = list(position.foundations)
        self.home = sum(self.found)
        self.budget = budget
        self.prune = prune
        self.greedy = False  # search.py's first, incomplete phase
        self.seen: set[bytes] = set()
        self.path: list[Move] = []

    # -- state ---------------------------------------------------------------
    def key(self) -> bytes:
        return b"\xff".join(sorted(self.cols)) + b"\xfe" + self.bq

    def _take(self, card: int, src: int) -> None:
        if src >= 0:
            self.cols[src] = self.cols[src][:-1]
        else:
            self.bq = self.bq.replace(bytes((card,)), b"")

    def _untake(self, card: int, src: int) -> None:
        if src >= 0:
            self.cols[src] = self.cols[src] + bytes((card,))
        else:
            self.bq = bytes(sorted(self.bq + bytes((card,))))

    def _auto(self) -> list:
        """Play rule 1's safe foundation moves; return them for undo."""
        done = []
        found = self.found
        cols = self.cols
        progress = True
        while progress:
            progress = False
            low = min(found)
            for j in range(6):
                col = cols[j]
                if col:
                    c = col[-1]
                    s, r = divmod(c, 13)
                    if found[s] == r and r <= low:
                        cols[j] = col[:-1]
                        found[s] += 1
                        done.append((c, j))
                        progress = True
            for c in self.bq:
                s, r = divmod(c, 13)
                if found[s] == r and r <= low:
                    self.bq = self.bq.replace(bytes((c,)), b"")
                    found[s] += 1
                    done.append((c, -1))
                    progress = True
                    break
        self.home += len(done)
        return done

    def _unauto(self, done) -> None:
        for c, src in reversed(done):
            self.found[c // 13] -= 1
            self._untake(c, src)
        self.home -= len(done)

    # -- moves ---------------------------------------------------------------
    def moves(self):
        """(score, steps) for every move worth trying, best first. ``steps``
        is a tuple of (card, src, target): src a column index or -1 for the
        bouquet, target a column index or FOUNDATION. Bouquet-to-column moves
        come only inside chains (rule 4)."""
        cols = self.cols
        found = self.found
        by_rank: dict[int, list[int]] = {}
        empty = _NO_EMPTY
        for j in range(6):
            col = cols[j]
            if col:
                by_rank.setdefault(col[-1] % 13, []).append(j)
            elif empty == _NO_EMPTY:
                empty = j
        # Next card each foundation needs: burying it is bad, uncovering it good.
        needed = {s * 13 + found[s] for s in range(4) if found[s] < 13}
        buried = [any(c in needed for c in col[:-1]) for col in cols]
        bq_by_rank: dict[int, list[int]] = {}
        out = []
        for c in self.bq:
            s, r = divmod(c, 13)
            if found[s] == r:
                out.append((0, ((c, -1, FOUNDATION),)))
            bq_by_rank.setdefault(r, []).append(c)
        for src in range(6):
            col = cols[src]
            if not col:
                continue
            c = col[-1]
            s, r = divmod(c, 13)
            if found[s] == r:
                out.append((0, ((c, src, FOUNDATION),)))
            base = 10
            if len(col) == 1:
                base -= 3
            else:
                t = col[-2]
                if found[t // 13] == t % 13:
                    base -= 6
                elif buried[src]:
                    base -= 2
            for j in by_rank.get(r + 1, ()):
                out.append((base + (2 if buried[j] else 0), ((c, src, j),)))
            if empty != _NO_EMPTY and len(col) > 1:
                out.append((base + 3, ((c, src, empty),)))
            # Chains of bouquet cards ending with this column card (rule 4).
            if bq_by_rank:
                chain = [(c, src)]
                self._chains(chain, r + 1, bq_by_rank, by_rank, empty, base + 1, out, buried)
        out.sort()
        return out

    def _chains(self, chain, rank, bq_by_rank, by_rank, empty, score, out, buried):
        if rank > 12:
            return
        for b in bq_by_rank.get(rank, ()):
            chain.append((b, -1))
            # chain[-1] is placed first, chain[0] (the column card) last
            for j in by_rank.get(rank + 1, ()):
                out.append((score + len(chain) + (2 if buried[j] else 0), self._steps(chain, j)))
            if empty != _NO_EMPTY:
                out.append((score + len(chain) + 3, self._steps(chain, empty)))
            self._chains(chain, rank + 1, bq_by_rank, by_rank, empty, score, out, buried)
            chain.pop()

    @staticmethod
    def _steps(chain, target):
        return tuple((card, src, target) for card, src in reversed(chain))

    # -- search --------------------------------------------------------------
    def run(self) -> bool:
        """True: a winning line is in ``self.path``. False: none exists.
        Raises BudgetSpent."""
        if sys.getrecursionlimit() < MAX_DEPTH:
            sys.setrecursionlimit(MAX_DEPTH)
        return self._dfs()

    def _step(self, c, src, target):
        self._take(c, src)
        if target == FOUNDATION:
            self.found[c // 13] += 1
            self.home += 1
        else:
            self.cols[target] = self.cols[target] + bytes((c,))

    def _unstep(self, c, src, target):
        if target == FOUNDATION:
            self.found[c // 13] -= 1
            self.home -= 1
        else:
            self.cols[target] = self.cols[target][:-1]
        self._untake(c, src)

    def _dfs(self) -> bool:
        done = self._auto() if self.prune else []
        path = self.path
        for c, src in done:
            path.append(Move(c, FOUNDATION))
        if self.home == 52:
            return True
        k = self.key()
        seen = self.seen
        if k not in seen:
            seen.add(k)
            self.budget.tick(len(seen))
            moves = self.moves()
            if self.greedy and moves and moves[0][0] == 0:
                moves = moves[:1]  # heuristic phase only: not a proof rule
            for _, steps in moves:
                for c, src, target in steps:
                    self._step(c, src, target)
                    path.append(Move(c, target))
                if self._dfs():
                    return True
                for c, src, target in reversed(steps):
                    path.pop()
                    self._unstep(c, src, target)
        if done:
            del path[len(path) - len(done):]
            self._unauto(done)
        return False


FlowerSearch = CFlowerSearch
