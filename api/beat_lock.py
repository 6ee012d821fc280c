"""Beat exactly once: a second beat waits until the first is gone.

A beat holds PostgreSQL's session advisory lock ``BEAT_LOCK_KEY`` from its
start (``celery.beat_init``, before its first tick) until its process ends:
the lock is its connection's, so a beat killed outright releases it with its
connection. A beat that finds it taken asks again every
BEAT_LOCK_RETRY_SECONDS and runs no schedule meanwhile.

The lock needs a session, so it goes over DATABASE_DIRECT_URL when set
(PgBouncer in transaction pooling would hand the session to another
client). Its connection is watched: if it fails (the database restarted,
the network dropped), the lock may be someone else's now, so this beat stops
(SIGTERM to itself; its supervisor starts it again, and it waits its turn).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

# Any fixed number: advisory locks are per database.
BEAT_LOCK_KEY = 0x5011_7A12_BEA7

_held = None  # the connection that holds it, for this process's life


def _conninfo() -> dict:
    alias = "direct" if "direct" in settings.DATABASES else "default"
    if alias == "default" and settings.DATABASE_TRANSACTION_POOLING:
        raise ImproperlyConfigured(
            "Beat's single-instance lock needs a session: set DATABASE_DIRECT_URL "
            "beside DATABASE_TRANSACTION_POOLING=true.")
    database = settings.DATABASES[alias]
    info = {"dbname": database["NAME"], "user": database.get("USER"),
            "password": database.get("PASSWORD"), "host": database.get("HOST"),
            "port": database.get("PORT"), "connect_timeout": settings.DATABASE_CONNECT_TIMEOUT,
            # A peer gone silent is noticed within about 15 s.
            "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
            "keepalives_count": 3, "tcp_user_timeout": 15_000,
            "application_name": "solitaire-beat-lock"}
    return {name: value for name, value in info.items() if value not in (None, "")}


def hold_beat_lock() -> bool:
    """Block until this process holds the lock (True), or return False at
    once when there is nothing to lock (SQLite: a laptop runs one beat)."""
    global _held
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return False
    import psycopg

    waited = False
    while True:
        try:
            connection = psycopg.connect(autocommit=True, prepare_threshold=None, **_conninfo())
            (taken,) = connection.execute("SELECT pg_try_advisory_lock(%s)",
                                          [BEAT_LOCK_KEY]).fetchone()
        except psycopg.Error as error:
            log.warning("Beat: the database does not answer (%r); asking again in %s s",
                        error, settings.BEAT_LOCK_RETRY_SECONDS)
            taken, connection = False, None
        if taken:
            _held = connection
            log.info("Beat: this beat holds the schedule (advisory lock %d)", BEAT_LOCK_KEY)
            threading.Thread(target=_watch, args=(connection,), daemon=True,
                             name="beat-lock-watch").start()
            return True
        if connection is not None:
            connection.close()
            if not waited:
                log.info("Beat: another beat holds the schedule; this one waits")
                waited = True
        time.sleep(settings.BEAT_LOCK_RETRY_SECONDS)


def _watch(connection) -> None:
    while True:
        time.sleep(settings.BEAT_LOCK_RETRY_SECONDS)
        try:
            connection.execute("SELECT 1").fetchone()
        except Exception as error:
            log.error("Beat: lost the connection that holds the schedule (%r): stopping", error)
            os.kill(os.getpid(), signal.SIGTERM)
            return
