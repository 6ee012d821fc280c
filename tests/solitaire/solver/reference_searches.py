"""The pure Python searches: the oracle the C cores are checked against.

``PyCruelSearch`` walks exactly the tree of the Cruel C core without its
reductions (``prune=False``: same moves, same order, same nodes);
``PyFlowerSearch`` is Flower Garden's complete search with rules 1-5 (not
the abstract games of rule 6); ``py_stall_check`` answers the stalled
question by a plain depth-first search over the engine's own moves. They
are slow and kept here, beside the tests, as the independent statement of
what the C cores compute (docs/solver.md argues each pruning rule)."""

from __future__ import annotations

import sys

from solitaire.moves import FOUNDATION, REDEAL, Move
from solitaire.position import Position
from solitaire.solver._budget import MAX_DEPTH, Meter
from solitaire.solver._stall import DEFAULT_STALL_NODES, Stall
from solitaire.solver.settings import CRUEL, FLOWER, CruelSettings, FlowerSettings, SolverSettings

_NO_EMPTY = -1


class PythonSearch:
    """What the pure Python searches (the tests' references) share: their
    stored states are the set ``seen``, and their won lines need no first
    pass before the engine's polish."""

    seen: set[bytes]

    @property
    def states(self) -> int:
        return len(self.seen)

    @staticmethod
    def shorten(position: Position, moves: tuple[Move, ...], settings: SolverSettings) -> tuple[Move, ...]:
        return tuple(moves)


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


class PyFlowerSearch(PythonSearch):
    """The pure Python search, rules 1-5 (not the abstract games of rule 6):
    the reference the C core's complete search is checked against on small
    positions. Its greedy mode plays a safe-looking foundation move alone."""

    def __init__(
        self, position, meter: Meter, settings: FlowerSettings = FLOWER, *,
        greedy: bool = False, prune: bool = True, stop: bytearray | None = None,
    ):
        if stop is not None:
            raise ValueError("the Python search cannot be called off")
        self.cols = [bytes(c) for c in position.columns]
        self.bq = bytes(sorted(position.bouquet))
        self.found = list(position.foundations)
        self.home = sum(self.found)
        self.meter = meter
        self.prune = prune
        self.greedy = greedy
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
            self.meter.tick(len(seen))
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


def py_stall_check(position: Position, *, max_nodes: int = DEFAULT_STALL_NODES) -> Stall:
    """The same question by a plain depth-first search in Python."""
    if position.is_won():
        return Stall.NOT_STALLED
    seen = {position.key()}
    todo = [position]
    nodes = 0
    while todo:
        pos = todo.pop()
        nodes += 1
        if nodes > max_nodes:
            return Stall.UNKNOWN
        moves = pos.legal_moves()
        for move in moves:
            if move.to_foundation:
                return Stall.NOT_STALLED
        for move in moves:
            if not pos.is_useful(move):
                continue
            child = pos.apply(move)
            k = child.key()
            if k not in seen:
                seen.add(k)
                todo.append(child)
    return Stall.STALLED
