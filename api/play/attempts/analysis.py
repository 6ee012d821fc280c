"""Where the win slipped away: the rules of an attempt's analysis, on plain
values (no database, no clock).

Every daily deal starts winnable, and along a line of moves winnability can
only be lost: a position with no win has no position after it with one. So
along an attempt's line p0 (the start) .. pn (its last position) there is
at most one move k that takes a winnable p(k-1) to an unwinnable p(k), and
a bisection finds it in about log2(n) + 2 decisions.

The verdict is claimed only when proven: "lost" at move k only when the
solver proved p(k-1) winnable (its solution starts with the keeping move)
and p(k) unwinnable. Any probe the budget cannot decide makes the whole
verdict "undecided", never a guess. A line whose last position is still
winnable was never lost: "still_winnable".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import solitaire

WON, LOST, STILL_WINNABLE, UNDECIDED = "won", "lost", "still_winnable", "undecided"
VERDICTS = (WON, LOST, STILL_WINNABLE, UNDECIDED)
SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"


@dataclass(frozen=True)
class Decision:
    """The solver's word on one position: solved (with a winning line),
    unsolvable, or unknown (the budget ran out)."""

    status: str
    line: tuple[str, ...] = ()


# A position in, its Decision out (the service adds the budget and the cache).
Decide = Callable[[solitaire.Position], Decision]


@dataclass(frozen=True)
class Verdict:
    verdict: str
    lost_at: int | None = None  # 1-based number of the move that lost the win
    lost_move: str = ""
    keeping_line: tuple[str, ...] = ()  # a win from the position before that move

    @property
    def keeping_move(self) -> str:
        return self.keeping_line[0] if self.keeping_line else ""


def analyse(*, start: str, line: Sequence[str], won: bool, decide: Decide,
            known_win: Sequence[str] = ()) -> Verdict:
    """The verdict on an attempt's line (the moves that stand after undos).
    ``known_win``: a win from ``start`` proven already (the deal's verified
    certificate): the positions where the line still follows it are winnable
    without asking the solver."""
    if won:
        return Verdict(WON)
    positions = solitaire.parse_position(start).along(line)
    last = len(positions) - 1
    known = {}
    if known_win:
        for i in range(len(positions)):
            known[i] = Decision(SOLVED, tuple(known_win[i:]))
            if i == len(line) or i == len(known_win) or line[i] != known_win[i]:
                break
    if last in known:
        return Verdict(STILL_WINNABLE)
    end = decide(positions[last])
    if end.status == SOLVED:
        return Verdict(STILL_WINNABLE)
    if end.status != UNSOLVABLE:
        return Verdict(UNDECIDED)
    # Invariant: p(lo) is taken as winnable (p0, until proven below), p(hi)
    # is proven unwinnable.
    lo, hi = max(known, default=0), last
    decided = {**known, last: end}
    while hi - lo > 1:
        mid = (lo + hi) // 2
        decided[mid] = decide(positions[mid])
        if decided[mid].status == SOLVED:
            lo = mid
        elif decided[mid].status == UNSOLVABLE:
            hi = mid
        else:
            return Verdict(UNDECIDED)
    before = decided.get(lo) or decide(positions[lo])
    if before.status != SOLVED or not before.line:
        return Verdict(UNDECIDED)
    return Verdict(LOST, lost_at=hi, lost_move=line[hi - 1], keeping_line=before.line)
