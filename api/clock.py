"""The server's clock and the daily calendar, in one place for both apps.

"Today" is one date for everyone: the date in ``DAILY_TIME_ZONE``. Services
take ``now`` as an argument; views pass ``clock.now()``, and ``today()``
reads it too. Tests that need another moment (a streak across the
daylight-saving change) patch ``api.clock.now``: the live server runs in the
test's process, so the patch reaches it.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def now() -> dt.datetime:
    return timezone.now()


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
