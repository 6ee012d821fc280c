"""Waiting on a condition, never a fixed sleep: polls until it holds or the
deadline passes, then fails with the explanation."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], object], *, seconds: float,
               explain: Callable[[], str] | str = "the condition never held",
               every: float = 0.05):
    """The condition's first true value; AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(explain() if callable(explain) else explain)
        time.sleep(every)
