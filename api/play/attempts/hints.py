"""Hints that cannot starve play.

A hint runs the solver for up to ``PLAY_HINT_MAX_SECONDS`` (Flower Garden on
two threads), which is seconds of CPU on a machine whose moves cost about a
millisecond. Three things keep that away from the players who are moving:

- **Slots per machine.** At most ``PLAY_HINT_SLOTS`` solver runs at once on
  one machine, across every web process: a slot is an exclusive ``flock`` on
  one of the files ``slot-0..`` in ``PLAY_HINT_SLOT_DIR`` (memory-backed
  ``/dev/shm`` by default; the kernel frees a dead process's locks). With no
  slot free the answer is 503 ``hints_busy`` with ``Retry-After``, at once:
  no web thread ever waits for another hint.
- **Another process, at a lower CPU priority.** The solver runs in a child
  process of the web process (``PLAY_HINT_SLOTS`` of them at most, started
  on the first hint), at nice ``PLAY_HINT_NICE``, so when moves and a hint
  compete for a core the scheduler gives the moves about nine tenths. In a
  thread of the web process it would share that process's GIL: between its
  C searches the solver runs Python, and a niced thread that holds the GIL
  while the busy machine keeps it off the CPU stops every move in the
  process. The web thread waits for the answer without the GIL.
- **A cache by position.** A position's decided answer (a winning line
  from it, or unsolvable) is kept in the shared cache for
  ``PLAY_HINT_CACHE_SECONDS`` and served without the solver. "unknown" (the
  budget ran out) is not kept.

Hints lead to a win. Each attempt keeps the line its last hint came from
(``HintLine``: a start position and a winning line from it that visits no
position twice, as ``solitaire.solver.hint`` returns it). A hint from a
position on that line (the start, or where its first i moves lead) is its
next move; only a position off it (the player made a move of their own, or
undid past its start) asks for a new line, from the cache or the solver,
which the attempt then keeps. Proof that hints followed win and never come
back: while the player plays each hint, the position after i hints is the
line's p_i and the next hint is its move i+1, so after n hints (n the
line's length) the position is the line's last, a win, and p_0 .. p_n are
distinct, so none is left and reached again. This holds whatever the cache
keeps or loses, and whatever other players' hints are: the line lives with
the attempt, in the database. (A fresh search from each position promises
none of it: two searches may each start by undoing the other's first move.)

The per-player rate of hints is its own throttle scope, ``hint``
(``API_THROTTLE_HINT``, api.play.rest.throttles.PlayHintThrottle)."""

from __future__ import annotations

import fcntl
import hashlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from django.conf import settings
from django.core.cache import cache

import solitaire
from api import metrics
from api.errors import HintsBusy
from api.outages import CACHE_ERRORS, cache_failed
from solitaire.solver import SolveStatus, hint


def _cache_key(notation: str) -> str:
    return "hint:2:" + hashlib.sha256(notation.encode()).hexdigest()


def _take_slot() -> int | None:
    """An open, exclusively locked slot file, or None when all are taken."""
    folder = settings.PLAY_HINT_SLOT_DIR
    os.makedirs(folder, exist_ok=True)
    for i in range(settings.PLAY_HINT_SLOTS):
        fd = os.open(os.path.join(folder, f"slot-{i}"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            os.close(fd)
    return None


_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _solver_pool() -> ProcessPoolExecutor:
    """This process's solver processes, started on first use. Spawned, not
    forked: a fork of a threaded web process may copy a lock held by
    another thread."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=settings.PLAY_HINT_SLOTS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=os.nice, initargs=(settings.PLAY_HINT_NICE,),
            )
        return _pool


def _solve_niced(position):
    """``hint(position)`` in a solver process; a pool whose process died
    (killed, out of memory) is replaced and asked once more, then HintsBusy."""
    global _pool
    for _ in range(2):
        pool = _solver_pool()
        try:
            return pool.submit(hint, position, max_seconds=settings.PLAY_HINT_MAX_SECONDS).result()
        except BrokenProcessPool:
            with _pool_lock:
                if _pool is pool:
                    _pool = None
            pool.shutdown(wait=False)
    raise HintsBusy()


def position_line(position) -> dict:
    """{"status", "line"} for a position, ``line`` a winning line from it
    that visits no position twice (empty unless solved): from the cache, or
    from the solver in a free slot; HintsBusy when every slot is taken."""
    key = _cache_key(position.notation())
    try:
        cached = cache.get(key)
    except CACHE_ERRORS as error:
        cache_failed("hints are solved again", error)
        cached = None
    if cached is not None:
        metrics.HINTS.labels(position.game, "cache").inc()
        return cached
    fd = _take_slot()
    if fd is None:
        metrics.HINTS.labels(position.game, "busy").inc()
        raise HintsBusy()
    try:
        start = time.perf_counter()
        result = _solve_niced(position)
        metrics.SOLVER_SECONDS.labels(position.game, "hint").observe(time.perf_counter() - start)
    finally:
        os.close(fd)  # releases the lock
    answer = {"status": result.status.value, "line": [m.token() for m in result.moves]}
    metrics.HINTS.labels(position.game, "solver").inc()
    if result.status is not SolveStatus.LIMIT_REACHED:
        try:
            cache.set(key, answer, settings.PLAY_HINT_CACHE_SECONDS)
        except CACHE_ERRORS as error:
            cache_failed("a hint is not kept", error)
    return answer


def rest_of_line(position, kept: tuple[str, list[str]] | None) -> list[str]:
    """The moves of the kept line (start, moves) still to play from
    ``position`` when it stands on that line, else []."""
    if not kept:
        return []
    start, line = kept
    here = position.notation()
    along = solitaire.parse_position(start)
    if along.notation() == here:
        return line
    for i, token in enumerate(line):
        along = along.apply(solitaire.Move.parse(token))
        if along.notation() == here:
            return line[i + 1:]
    return []


def hint_along(position, *, kept: tuple[str, list[str]] | None,
               keep: Callable[[str, list[str]], None]) -> dict:
    """{"status", "move"}: the next move of the kept line when ``position``
    stands on it, else the first of a new line from ``position``, which is
    handed to ``keep`` (the module's docstring proves where this leads)."""
    rest = rest_of_line(position, kept)
    if rest:
        metrics.HINTS.labels(position.game, "line").inc()
        return {"status": SolveStatus.SOLVED.value, "move": rest[0]}
    found = position_line(position)
    if found["line"]:
        keep(position.notation(), found["line"])
    return {"status": found["status"], "move": found["line"][0] if found["line"] else None}
