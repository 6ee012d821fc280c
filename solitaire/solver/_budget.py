"""Budgets as data: nodes, seconds and stored states.

A ``Meter`` holds a search's budgets and counts what it spends. The Python
searches call ``tick`` once per node; it raises ``BudgetSpent`` naming the
budget that ran out, so "I gave up" can never be mistaken for "impossible".
The C cores are given what is left and report what they spent."""

from __future__ import annotations

import time


class BudgetSpent(Exception):
    def __init__(self, which: str):
        super().__init__(which)
        self.which = which


class Meter:
    """Budgets (None: none) and the nodes spent against them."""

    __slots__ = ("max_nodes", "deadline", "max_states", "start", "nodes", "_next_clock")

    CLOCK_EVERY = 512  # reading the clock costs more than a node; do it now and then

    def __init__(self, max_nodes=None, max_seconds=None, max_states=None):
        self.start = time.perf_counter()
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else self.start + max_seconds
        self.max_states = max_states
        self.nodes = 0
        self._next_clock = self.CLOCK_EVERY

    def tick(self, states: int) -> None:
        self.nodes += 1
        n = self.nodes
        if self.max_nodes is not None and n > self.max_nodes:
            raise BudgetSpent("nodes")
        if self.max_states is not None and states > self.max_states:
            raise BudgetSpent("states")
        if n >= self._next_clock:
            self._next_clock = n + self.CLOCK_EVERY
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise BudgetSpent("seconds")

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def nodes_left(self) -> float | None:
        return None if self.max_nodes is None else max(0, self.max_nodes - self.nodes)

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())


# The searches recurse once per move on the current line. Python 3.11 runs
# Python-to-Python calls without growing the C stack, so a high limit is safe;
# the states budget bounds the depth in practice.
MAX_DEPTH = 6_000_000


# Which budget a C core says ran out, by its negative status.
C_LIMITS = {-1: "nodes", -2: "seconds", -3: "states"}
