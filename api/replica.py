"""Public reads on a PostgreSQL streaming replica (DATABASE_REPLICA_URL).

Every read goes to the primary ("default") unless the code marks it public:
``with public_reads():`` around the reads of answers that are the same for
everyone (the day's document, leaderboards, league boards, post-mortems, the
solution after the day). Inside such a block ``PublicReadRouter`` sends the
ORM's reads to the replica while it is usable, and raw SQL asks
``public_alias()`` for its connection. Never to the replica: writes, reads
inside a transaction on the primary (``atomic()``, ``select_for_update``),
and everything outside ``public_reads()``, a player's own state first of
all, so that a player never sees their own write go missing.

Usable means: it answered the last check and lagged at most
DATABASE_REPLICA_MAX_LAG_SECONDS. Each process checks at most every
DATABASE_REPLICA_CHECK_SECONDS, in a thread of its own (a request never
waits for a replica that hangs; connecting is bounded by
DATABASE_CONNECT_TIMEOUT), so public reads go to the primary by themselves
while the replica is down or behind, and come back once it has caught up.

The lag is measured in WAL positions, not from replay timestamps (an idle
primary makes those look old): every check reads the primary's current
position and keeps it with the time it was read; the lag is how long ago the
primary was where the replica has replayed to (0 when it has replayed all
the primary had at this check). Its resolution is the check's interval.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import logging
import os
import threading
import time

from django.conf import settings
from django.db import connections

from api.metrics import PUBLIC_READS, REPLICA_LAG

log = logging.getLogger(__name__)

PRIMARY = "default"
REPLICA = "replica"

_public = contextvars.ContextVar("public_reads", default=False)


@contextlib.contextmanager
def public_reads():
    """Reads in this block may go to the replica (see the module's docstring)."""
    token = _public.set(True)
    try:
        yield
    finally:
        _public.reset(token)


def public_alias() -> str:
    """The database a read should use here and now: the replica inside
    ``public_reads()`` while it is usable and no transaction is open on the
    primary; the primary otherwise."""
    if not _public.get() or REPLICA not in settings.DATABASES:
        return PRIMARY
    if connections[PRIMARY].in_atomic_block or not STATE.usable():
        PUBLIC_READS.labels("primary").inc()
        return PRIMARY
    replica = connections[REPLICA]
    if getattr(replica, "replica_outage", None) != STATE.outages:
        # Opened before the replica was last found down: that connection
        # may be dead; a new one is made at its first query.
        replica.close()
        replica.replica_outage = STATE.outages
    PUBLIC_READS.labels("replica").inc()
    return REPLICA


class PublicReadRouter:
    def db_for_read(self, model, **hints):
        return public_alias()

    def db_for_write(self, model, **hints):
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, two roads to it

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY


# -- the replica's state, per process ---------------------------------------------


def _conninfo(alias: str) -> dict:
    database = connections[alias].settings_dict  # a test's mirror: its primary's
    info = {"dbname": database["NAME"], "user": database.get("USER") or None,
            "password": database.get("PASSWORD") or None, "host": database.get("HOST") or None,
            "port": database.get("PORT") or None,
            "connect_timeout": settings.DATABASE_CONNECT_TIMEOUT}
    for name, value in (database.get("OPTIONS") or {}).items():
        if name not in ("server_side_binding", "prepare_threshold", "pool"):
            info[name] = value
    return {name: value for name, value in info.items() if value is not None}


class ReplicaState:
    """Whether public reads may go to the replica, as last checked."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pid = None
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._usable = False  # until a check says so
        self._checked_at = float("-inf")
        self._checking = False
        self._connections: dict[str, object] = {}
        self._history: collections.deque[tuple[float, int]] = collections.deque()
        self.lag: float | None = None
        self.outages = 0  # times it was found unreachable

    def usable(self) -> bool:
        """The last verdict; starts a check in the background when it is due."""
        now = time.monotonic()
        if self._pid != os.getpid() or now - self._checked_at >= settings.DATABASE_REPLICA_CHECK_SECONDS:
            with self._lock:
                if self._pid != os.getpid():  # forked: nothing of the parent's is ours
                    self._reset()
                if not self._checking and now - self._checked_at >= settings.DATABASE_REPLICA_CHECK_SECONDS:
                    self._checking = True
                    self._checked_at = now
                    threading.Thread(target=self._check_in_thread, daemon=True,
                                     name="replica-check").start()
        return self._usable

    def check_now(self) -> bool:
        """Check in this thread and return the verdict (tests, and a caller that must know)."""
        with self._lock:
            self._checking = True
            self._checked_at = time.monotonic()
        self._check_in_thread()
        return self._usable

    def _check_in_thread(self) -> None:
        try:
            self.lag = self._measure()
        except Exception as error:
            if self._usable or self.lag is not None:
                log.warning("Replica unavailable, public reads go to the primary: %r", error)
            self.lag = None
            self.outages += 1
            for connection in self._connections.values():
                with contextlib.suppress(Exception):
                    connection.close()
            self._connections.clear()
        finally:
            usable = self.lag is not None and self.lag <= settings.DATABASE_REPLICA_MAX_LAG_SECONDS
            if usable != self._usable:
                log.info("Public reads go to the %s (replica lag: %s s)",
                         "replica" if usable else "primary", self.lag)
            self._usable = usable
            REPLICA_LAG.set(self.lag if self.lag is not None else float("inf"))
            self._checking = False

    def _fetch(self, alias: str, sql: str) -> tuple:
        import psycopg

        connection = self._connections.get(alias)
        if connection is None or connection.closed:
            connection = self._connections[alias] = psycopg.connect(
                autocommit=True, prepare_threshold=None, **_conninfo(alias))
        return connection.execute(sql).fetchone()

    def _measure(self) -> float:
        primary = "direct" if "direct" in settings.DATABASES else PRIMARY
        (position,) = self._fetch(primary, "SELECT pg_current_wal_lsn() - '0/0'")
        in_recovery, replayed = self._fetch(
            REPLICA, "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() - '0/0'")
        now = time.monotonic()
        history = self._history
        history.append((now, int(position)))
        keep = max(60.0, 4 * settings.DATABASE_REPLICA_MAX_LAG_SECONDS)
        while history and history[0][0] < now - keep:
            history.popleft()
        if not in_recovery:  # the primary itself (a test's mirror), or promoted
            return 0.0
        if replayed is None:
            raise RuntimeError("the replica has replayed nothing yet")
        replayed = int(replayed)
        if replayed >= position:
            return 0.0
        caught_up_at = [at for at, lsn in history if lsn <= replayed]
        # Never caught up within the history: at least as old as all of it.
        return now - (max(caught_up_at) if caught_up_at else history[0][0])


STATE = ReplicaState()
