"""What the API's play tests share: calls released at once on threads, and
an attempt's first listed move."""

from __future__ import annotations

import threading
from typing import Callable


def at_once(calls: list[Callable[[], object]]) -> list:
    """Run the calls on threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def first_move(attempt: dict) -> str:
    """The first move the API lists for the attempt, as a token."""
    legal = attempt["legal"][0]
    return f"{legal['card']}>{legal['targets'][0]}"
