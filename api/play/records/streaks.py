"""Streaks: the one home of the rule that counts days in a row.

A day is a date in the daily time zone (api.clock). The played streak
forgives: every FREEZE_EVERY days played in a run earn a freeze (at most
FREEZES_HELD held at once), and a day that ends unplayed spends one
automatically, so the run goes on; with no freeze held it ends the run.
Freezes are only earned, never bought. The won streak does not forgive:
a day that ends without a win ends it.

A run counts the days played in it (a frozen day keeps the run alive but
adds nothing). Today is never missed or frozen while it lasts: the run
stays alive until today ends unplayed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

FREEZE_EVERY = 7
FREEZES_HELD = 2

PLAYED = "played"
FROZEN = "frozen"
MISSED = "missed"


class StreakDay(NamedTuple):
    date: dt.date
    state: str  # PLAYED, FROZEN or MISSED


@dataclass
class Streak:
    current: int = 0
    longest: int = 0
    freezes: int = 0  # held now
    next_freeze_in: int = FREEZE_EVERY  # days to play for the next freeze
    # From the first day played to today, oldest first; today is listed
    # only once played.
    days: list[StreakDay] = field(default_factory=list)


def streak(days: Iterable[dt.date], today: dt.date, *, forgiving: bool) -> Streak:
    """The streak made by ``days`` (the dates that count) as of ``today``;
    ``forgiving``: freezes earned and spent as the module says."""
    played = set(days)
    result = Streak()
    if not played:
        return result
    run = toward = 0
    day = min(played)
    while day <= today:
        if day in played:
            run += 1
            toward += 1
            if forgiving and toward == FREEZE_EVERY:
                toward = 0
                result.freezes = min(FREEZES_HELD, result.freezes + 1)
            result.days.append(StreakDay(day, PLAYED))
        elif day == today:
            break  # not over yet
        elif result.freezes:
            result.freezes -= 1
            result.days.append(StreakDay(day, FROZEN))
        else:
            run = toward = 0
            result.days.append(StreakDay(day, MISSED))
        result.longest = max(result.longest, run)
        day += dt.timedelta(days=1)
    result.current = run
    result.next_freeze_in = FREEZE_EVERY - toward
    return result
