"""One clock for the whole site, and the daily calendar, for both apps.

"Today" is one date for everyone: the date in ``DAILY_TIME_ZONE``. Services
take ``now`` as an argument; views pass ``clock.now()``, and ``today()``
reads it too. Tests that need another moment (a streak across the
daylight-saving change) patch ``api.clock.now``: the live server runs in the
test's process, so the patch reaches it.

``now()`` is PostgreSQL's clock, not the machine's: every web process on
every host decides from the same clock whether a ranked attempt may still
move and whether a day's solution is public, so hosts whose clocks differ
agree at midnight. Reading the database on every call would cost a round
trip; instead each process measures its offset from the database's clock
(``clock_timestamp()``, taken halfway through the round trip) every
CLOCK_SYNC_SECONDS and adds it to its own clock: one query per process
every few seconds, nothing per request. If the database cannot be read, the
last offset stands and the clock is measured again a second later. On SQLite (a laptop: one machine) the local clock is used.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import threading
import time
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection
from django.utils import timezone

log = logging.getLogger(__name__)


class _DatabaseClock:
    def __init__(self):
        self.offset = dt.timedelta(0)  # the database's clock minus ours
        self._next_sync = 0.0  # time.monotonic() of the next measure
        self._lock = threading.Lock()

    def now(self) -> dt.datetime:
        if time.monotonic() >= self._next_sync:
            self._sync()
        return timezone.now() + self.offset

    def _sync(self) -> None:
        with self._lock:
            if time.monotonic() < self._next_sync:
                return  # another thread has just measured
            self._next_sync = time.monotonic() + settings.CLOCK_SYNC_SECONDS
            if connection.vendor != "postgresql":
                return
            try:
                with connection.cursor() as cursor:
                    before = timezone.now()
                    cursor.execute("SELECT clock_timestamp()")
                    (database,) = cursor.fetchone()
                    after = timezone.now()
            except Exception as error:  # the database is down, or not to be used here
                log.debug("The database's clock was not read: %r", error)
                self._next_sync = time.monotonic() + 1.0  # soon again; the last offset meanwhile
                return
            self.offset = database - (before + (after - before) / 2)

    def reset(self) -> None:
        self.offset = dt.timedelta(0)
        self._next_sync = 0.0


_CLOCK = _DatabaseClock()


def now() -> dt.datetime:
    """The moment, on the database's clock (see above)."""
    return _CLOCK.now()


def resync() -> None:
    """Measure the offset again on the next call (tests that count queries
    measure it first, so that its query falls outside what they count)."""
    _CLOCK.reset()


def daily_zone() -> ZoneInfo:
    return ZoneInfo(settings.DAILY_TIME_ZONE)


def day_of(moment: dt.datetime) -> dt.date:
    """The date, in the daily time zone, of an aware moment."""
    return timezone.localtime(moment, daily_zone()).date()


def today() -> dt.date:
    """The date everyone plays now."""
    return day_of(now())


def day_start(day: dt.date) -> dt.datetime:
    """The aware moment a date begins in the daily time zone (DST-safe)."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=daily_zone())


def day_end(day: dt.date) -> dt.datetime:
    """The aware moment a date ends: the next date's start. From this moment
    the day's deal's solution is public and its ranked attempts are frozen."""
    return day_start(day + dt.timedelta(days=1))


def day_over(day: dt.date, moment: dt.datetime) -> bool:
    """True once ``day`` has ended at ``moment`` (the solution is public)."""
    return moment >= day_end(day)


# A day as the API and the pages write it: strictly YYYY-MM-DD.
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text) -> dt.date:
    """The date ``text`` writes as YYYY-MM-DD, or ValueError: not 20261201,
    not the ISO week date 2026-W49-2, not 2026-1-5 (which fromisoformat or
    strptime alone would take)."""
    if not isinstance(text, str) or not _DAY.fullmatch(text):
        raise ValueError(f"{text!r} is not a date: use YYYY-MM-DD")
    return dt.date.fromisoformat(text)
