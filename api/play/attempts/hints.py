"""Hints that cannot starve play, and an answer a client can trust.

A hint's search runs the solver for up to ``PLAY_HINT_MAX_SECONDS`` (Flower
Garden on two threads), the solver's own default budget: so "unknown" means
the solver cannot decide the position in a generous budget, never that a
request's patience ran out. The search runs off the request path: the
request waits for it ``PLAY_HINT_WAIT_SECONDS`` at most, and when it is not
done by then answers "pending" (the client asks again after
``Retry-After``); the search goes on, and keeps its answer in the cache and
in this process, where the next request for that position finds it. While
a position's search runs, a request for it on any web process waits for
that search (a marker in the cache says so) and never starts another.

The search is seconds of CPU on a machine whose moves cost about a
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
  ``PLAY_HINT_CACHE_SECONDS`` and served without the solver; "unknown" (the
  whole budget ran out) for UNKNOWN_KEPT_SECONDS, then searched again.

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
import functools
import hashlib
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
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

PENDING = "pending"
# How long an "unknown" (the whole budget spent) is kept before the
# position is searched again: an answer, but one a quieter machine might better.
UNKNOWN_KEPT_SECONDS = 600

# The searches under way in this process, by cache key.
_searches: dict[str, Future] = {}
_searches_lock = threading.Lock()


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


def _forget_pool(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False)


def _solve_niced(position) -> Future:
    """``hint(position)`` started in a solver process; a pool whose process
    died (killed, out of memory) is replaced once, then HintsBusy."""
    for _ in range(2):
        pool = _solver_pool()
        try:
            return pool.submit(hint, position, max_seconds=settings.PLAY_HINT_MAX_SECONDS)
        except BrokenProcessPool:
            _forget_pool(pool)
    raise HintsBusy()


def _search_key(key: str) -> str:
    return "hint-search:" + key


def _cache_get(key: str):
    try:
        return cache.get(key)
    except CACHE_ERRORS as error:
        cache_failed("hints are solved again", error)
        return None


def _searched_elsewhere(key: str) -> bool:
    """True when another process searches this position now; else this
    process marks it as its own (the mark outlives the search's budget a
    little, so a dead process's mark goes by itself)."""
    try:
        return not cache.add(_search_key(key), os.getpid(), settings.PLAY_HINT_MAX_SECONDS + 30)
    except CACHE_ERRORS as error:
        cache_failed("a hint's search is not shared", error)
        return False


def _unmark(key: str) -> None:
    try:
        cache.delete(_search_key(key))
    except CACHE_ERRORS as error:
        cache_failed("a hint's search mark stays until it expires", error)


def _answer_of(result) -> dict:
    return {"status": result.status.value, "line": [m.token() for m in result.moves]}


def _search_done(key: str, game: str, fd: int, started: float, future: Future) -> None:
    """In the pool's thread once the search ends: its answer kept, its slot
    given back, its marks taken down."""
    try:
        os.close(fd)  # releases the slot's lock
        if future.exception() is not None:
            return  # a dead solver process: nothing kept, the next request searches again
        result = future.result()
        metrics.SOLVER_SECONDS.labels(game, "hint").observe(time.perf_counter() - started)
        metrics.HINTS.labels(game, "solver").inc()
        decided = result.status is not SolveStatus.LIMIT_REACHED
        try:
            cache.set(key, _answer_of(result),
                      settings.PLAY_HINT_CACHE_SECONDS if decided else UNKNOWN_KEPT_SECONDS)
        except CACHE_ERRORS as error:
            cache_failed("a hint is not kept", error)
    finally:
        _unmark(key)
        with _searches_lock:
            _searches.pop(key, None)


def _search(position, key: str) -> Future | None:
    """The search of ``position`` under way in this process, or a new one
    in a free slot (HintsBusy when every slot is taken); None when another
    process searches it."""
    with _searches_lock:
        future = _searches.get(key)
        if future is not None:
            return future
        if _searched_elsewhere(key):
            return None
        fd = _take_slot()
        if fd is None:
            _unmark(key)
            metrics.HINTS.labels(position.game, "busy").inc()
            raise HintsBusy()
        try:
            future = _solve_niced(position)
        except BaseException:
            os.close(fd)
            _unmark(key)
            raise
        _searches[key] = future
    future.add_done_callback(functools.partial(
        _search_done, key, position.game, fd, time.perf_counter()))
    return future


def position_line(position, *, wait: float | None = None) -> dict:
    """{"status", "line"} for a position, ``line`` a winning line from it
    that visits no position twice (empty unless solved): from the cache,
    or from the solver's search in a free slot (HintsBusy when every slot
    is taken), waited for ``wait`` seconds at most (None: until it ends);
    status "pending" while it goes on."""
    key = _cache_key(position.notation())
    cached = _cache_get(key)
    if cached is not None:
        metrics.HINTS.labels(position.game, "cache").inc()
        return cached
    future = _search(position, key)
    if future is None:
        return {"status": PENDING, "line": []}
    try:
        result = future.result(timeout=wait)
    except FutureTimeout:
        return {"status": PENDING, "line": []}
    except BrokenProcessPool:  # its solver process died: the next request searches again
        raise HintsBusy() from None
    return _answer_of(result)


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
               keep: Callable[[str, list[str]], None], wait: float | None = None) -> dict:
    """{"status", "move"}: the next move of the kept line when ``position``
    stands on it, else the first of a new line from ``position``, which is
    handed to ``keep`` (the module's docstring proves where this leads);
    "pending" while that line's search goes on past ``wait`` seconds."""
    rest = rest_of_line(position, kept)
    if rest:
        metrics.HINTS.labels(position.game, "line").inc()
        return {"status": SolveStatus.SOLVED.value, "move": rest[0]}
    found = position_line(position, wait=wait)
    if found["line"]:
        keep(position.notation(), found["line"])
    return {"status": found["status"], "move": found["line"][0] if found["line"] else None}
