"""The private calendar feed: /api/v1/me/calendar-feed turns it on, changes
its hour, revokes it; the feed itself is read by the icalendar package, as
calendar clients read it, across Lisbon's daylight-saving change."""

import datetime as dt
import json
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

import icalendar

LISBON = ZoneInfo("Europe/Lisbon")
UTC = dt.timezone.utc


def _fetch(url: str) -> tuple[int, bytes, dict]:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read(), dict(resp.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def _events(url: str) -> dict[dt.date, icalendar.Event]:
    status, body, headers = _fetch(url)
    assert status == 200 and headers["Content-Type"].startswith("text/calendar")
    assert all(len(line) <= 75 for line in body.split(b"\r\n"))  # folded as RFC 5545 says
    calendar = icalendar.Calendar.from_ical(body)
    events = calendar.walk("VEVENT")
    return {e.decoded("DTSTART").astimezone(LISBON).date(): e for e in events}


def test_the_feed_has_a_day_s_event_at_its_start_with_the_chosen_reminder_across_dst(
    as_alice, at
):
    at(dt.datetime(2026, 3, 25, 12, tzinfo=UTC))  # Lisbon moves to WEST on 2026-03-29
    reply = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "19:30"})
    assert reply.status == 200, reply.body
    feed = reply.body
    assert feed["enabled"] is True and feed["reminder"] == "19:30"
    assert feed["time_zone"] == "Europe/Lisbon"
    assert as_alice.get("/api/v1/me/calendar-feed").body == feed

    events = _events(feed["url"])
    assert min(events) == dt.date(2026, 3, 11) and max(events) == dt.date(2026, 4, 1)
    assert len(events) == 22
    for day, event in events.items():
        start, end = event.decoded("DTSTART"), event.decoded("DTEND")
        assert start == dt.datetime.combine(day, dt.time(0), tzinfo=LISBON)
        assert end == dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=LISBON)
        (alarm,) = event.walk("VALARM")
        assert alarm["ACTION"] == "DISPLAY"
        trigger = alarm.decoded("TRIGGER")
        assert trigger.astimezone(LISBON) == dt.datetime.combine(day, dt.time(19, 30),
                                                                 tzinfo=LISBON)
        assert str(event["URL"]).endswith(f"/play/cruel/{day.isoformat()}/")
        assert f"/play/flower/{day.isoformat()}/" in str(event["DESCRIPTION"])
    change = dt.date(2026, 3, 29)
    assert events[change].decoded("DTEND") - events[change].decoded("DTSTART") == dt.timedelta(
        hours=23)
    assert events[change].walk("VALARM")[0].decoded("TRIGGER") == dt.datetime(
        2026, 3, 29, 18, 30, tzinfo=UTC)
    assert events[dt.date(2026, 3, 28)].walk("VALARM")[0].decoded("TRIGGER") == dt.datetime(
        2026, 3, 28, 19, 30, tzinfo=UTC)
    assert len({str(e["UID"]) for e in events.values()}) == 22


def test_a_new_hour_keeps_the_address_and_revoking_retires_it(as_alice, at):
    at(dt.datetime(2026, 12, 3, 23, 59, tzinfo=UTC))  # 23:59 in Lisbon: still the 3rd
    first = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "08:00"}).body
    again = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "21:15"}).body
    assert again["url"] == first["url"] and again["reminder"] == "21:15"
    events = _events(first["url"])
    assert max(events) == dt.date(2026, 12, 10)
    assert events[dt.date(2026, 12, 3)].walk("VALARM")[0].decoded("TRIGGER") == dt.datetime(
        2026, 12, 3, 21, 15, tzinfo=UTC)
    at(dt.datetime(2026, 12, 4, 0, 0, tzinfo=UTC))  # midnight: the window moves on a day
    assert max(_events(first["url"])) == dt.date(2026, 12, 11)

    assert as_alice.request("DELETE", "/api/v1/me/calendar-feed").status == 204
    assert _fetch(first["url"])[0] == 404
    assert as_alice.get("/api/v1/me/calendar-feed").body["enabled"] is False
    renewed = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "08:00"}).body
    assert renewed["url"] != first["url"]
    token = renewed["url"].rsplit("/", 1)[1].removesuffix(".ics")
    assert len(token) >= 43  # secrets.token_urlsafe(32)


def test_the_feed_speaks_the_language_it_was_turned_on_in(api, login, alice):
    client = login(lambda: api(language="pt-pt"), alice)
    url = client.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "18:00"}).body["url"]
    event = next(iter(_events(url).values()))
    assert str(event["SUMMARY"]) == "As distribuições do dia: Cruel e Flower Garden"


def test_guests_get_no_feed_and_bad_hours_are_clear(api, as_alice):
    guest = api()
    reply = guest.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "19:00"})
    assert (reply.status, reply.error_code) == (403, "registration_required")
    assert guest.get("/api/v1/me/calendar-feed").body["enabled"] is False
    for bad in ["25:00", "7pm", 1930, "19:00:00", ""]:
        reply = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": bad})
        assert reply.status == 400 and "reminder" in reply.body["error"]["fields"], bad
    assert as_alice.get("/api/v1/me/calendar-feed").body["enabled"] is False
    for token in ["not-a-token", "%00", "a%00b", "%C3%A9"]:
        status, body, _headers = _fetch(as_alice.base_url + f"/api/v1/calendar-feed/{token}.ics")
        assert status == 404 and json.loads(body)["error"]["code"] == "not_found", (token, body)
