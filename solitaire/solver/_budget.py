"""Budgets as data: nodes, seconds and stored states.

The searches call ``tick`` once per node; it raises ``BudgetSpent`` naming the
budget that ran out, so "I gave up" can never be mistaken for "impossible"."""

from __future__ import annotations

import time


class BudgetSpent(Exception):
    def __init__(self, which: str):
        super().__init__(which)
        self.which = which


class Budget:
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


# The searches recurse once per move on the current line. Python 3.11 runs
# Python-to-Python calls without growing the C stack, so a high limit is safe;
# the states budget bounds the depth in practice.
MAX_DEPTH = 6_000_000


class StateCount:
    """Stands for a search's set of stored states where only its size is read
    (the C cores keep their tables to themselves)."""

    __slots__ = ("n",)

    def __init__(self, n: int = 0):
        self.n = n

    def __len__(self) -> int:
        return self.n


# Which budget a C core says ran out, by its negative status.
C_LIMITS = {-1: "nodes", -2: "seconds", -3: "states"}
