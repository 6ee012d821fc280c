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
- **A cache by position.** A hint for a position never changes: decided
  answers (solved, unsolvable) are kept in the shared cache for
  ``PLAY_HINT_CACHE_SECONDS`` and served without the solver. "unknown" (the
  budget ran out) is not kept.

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

from django.conf import settings
from django.core.cache import cache

from api import metrics
from api.outages import CACHE_ERRORS, cache_failed
from api.play.errors import HintsBusy
from solitaire.solver import SolveStatus, hint


def _cache_key(notation: str) -> str:
    return "hint:1:" + hashlib.sha256(notation.encode()).hexdigest()


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


def position_hint(position) -> dict:
    """{"status", "move"} for a position: from the cache, or from the solver
    in a free slot; HintsBusy when every slot is taken."""
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
    answer = {
        "status": result.status.value,
        "move": result.moves[0].token() if result.moves else None,
    }
    metrics.HINTS.labels(position.game, "solver").inc()
    if result.status is not SolveStatus.LIMIT_REACHED:
        try:
            cache.set(key, answer, settings.PLAY_HINT_CACHE_SECONDS)
        except CACHE_ERRORS as error:
            cache_failed("a hint is not kept", error)
    return answer
