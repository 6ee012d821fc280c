"""The iCalendar text (RFC 5545) of a player's feed: one event a day, from
the start of the day in DAILY_TIME_ZONE to its end, with the day's links
and an alarm at the player's hour of that day.

Times are written in UTC, so no VTIMEZONE is needed and a daylight-saving
change moves nothing: the alarm's moment is computed here, in the daily time
zone, as an absolute trigger."""

from __future__ import annotations

import datetime as dt

from django.utils import translation
from django.utils.translation import gettext as _

from api import clock

# Days before today that the feed keeps (clients keep what they saw), and
# days after (deals are prepared a week ahead).
DAYS_BEFORE = 14
DAYS_AFTER = 7


def _utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _text(value: str) -> str:
    """A TEXT value escaped (RFC 5545 3.3.11)."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\n", "\\n"))


def _fold(line: str) -> str:
    """Lines of at most 75 octets, continued with CRLF and a space (3.1)."""
    out, current = [], b""
    for char in line:
        encoded = char.encode()
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current.decode())
            current = b""
        current += encoded
    out.append(current.decode())
    return "\r\n ".join(out)


def _alarm_moment(day: dt.date, reminder: dt.time) -> dt.datetime:
    """The reminder's moment on ``day`` in the daily time zone (a time that
    a spring change skips is read as the clock after it)."""
    local = dt.datetime.combine(day, reminder, tzinfo=clock.daily_zone())
    return local.astimezone(dt.timezone.utc).astimezone(clock.daily_zone())


def feed_text(*, reminder: dt.time, language: str, now: dt.datetime, site: str, host: str) -> str:
    """The whole feed. ``site``: the site's origin (https://host), for links."""
    today = clock.day_of(now)
    stamp = _utc(now)
    with translation.override(language):
        name = _("Daily solitaire")
        lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Solitaire daily//Calendar feed//EN",
            "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{_text(name)}",
            "REFRESH-INTERVAL;VALUE=DURATION:PT12H", "X-PUBLISHED-TTL:PT12H",
        ]
        for offset in range(-DAYS_BEFORE, DAYS_AFTER + 1):
            day = today + dt.timedelta(days=offset)
            cruel = f"{site}/play/cruel/{day.isoformat()}/"
            flower = f"{site}/play/flower/{day.isoformat()}/"
            summary = _("The day's deals: Cruel and Flower Garden")
            alarm = _("Time for the day's deals")
            description = _("Cruel: %(cruel)s\nFlower Garden: %(flower)s") % {
                "cruel": cruel, "flower": flower}
            lines += [
                "BEGIN:VEVENT",
                f"UID:daily-{day.isoformat()}@{host}",
                f"DTSTAMP:{stamp}",
                f"DTSTART:{_utc(clock.day_start(day))}",
                f"DTEND:{_utc(clock.day_end(day))}",
                f"SUMMARY:{_text(summary)}",
                f"DESCRIPTION:{_text(description)}",
                f"URL:{cruel}",
                "TRANSP:TRANSPARENT",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                f"DESCRIPTION:{_text(alarm)}",
                f"TRIGGER;VALUE=DATE-TIME:{_utc(_alarm_moment(day, reminder))}",
                "END:VALARM",
                "END:VEVENT",
            ]
        lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)
