"""GET /api/v1/calendar/{game}[/{YYYY-MM}]: a month of the archive with the
player's record on each day that has begun, from the service's first day."""

import datetime as dt

from api.play.models import Attempt


def _month(day: dt.date) -> str:
    return day.strftime("%Y-%m")


def test_a_month_lists_each_begun_day_with_its_deal_and_my_record(
    api, make_deal, today, certificate_of
):
    first = today - dt.timedelta(days=3)
    make_deal("cruel", first)                                   # day 1: a deal, played
    make_deal("cruel", first + dt.timedelta(days=1), position="cruel -")  # day 2: never verified
    make_deal("cruel", first + dt.timedelta(days=2))            # day 3: a deal, not played
    make_deal("cruel", today)                                   # today
    make_deal("cruel", today + dt.timedelta(days=1))            # tomorrow: never listed
    player = api()
    attempt = player.start("cruel", first.isoformat())
    assert attempt["ranked"] is False  # a past day is practice
    player.post(f"/api/v1/attempts/{attempt['id']}/finish")

    # The month of the first day, so the test holds on the 1st of a month too.
    reply = player.get(f"/api/v1/calendar/cruel/{_month(first)}")
    assert reply.status == 200, reply.body
    body = reply.body
    assert body["game"] == "cruel" and body["month"] == _month(first)
    assert body["first_month"] == _month(first) and body["previous"] is None
    days = {d["date"]: d for d in body["days"]}
    assert min(days) == first.isoformat(), "the service's first day opens the archive"
    assert max(days) <= today.isoformat(), "only days that have begun"
    assert days[first.isoformat()]["has_deal"] is True
    assert days[first.isoformat()]["difficulty_level"]["level"] in ("easy", "medium", "hard", "very_hard")
    record = days[first.isoformat()]["record"]
    assert record["attempt_id"] == attempt["id"] and record["ranked"] is False
    assert record["status"] == "abandoned" and record["won"] is False
    second = (first + dt.timedelta(days=1)).isoformat()
    if second in days:
        assert days[second] == {"date": second, "has_deal": False, "difficulty_level": None, "today": False,
                                "record": None}
    if today.isoformat() in days:
        assert days[today.isoformat()]["today"] is True


def test_the_current_month_is_the_default_and_bad_months_are_clear_4xx(api, make_deal, today):
    make_deal("flower", today - dt.timedelta(days=40))
    player = api()
    current = player.get("/api/v1/calendar/flower").body
    assert current["month"] == _month(today) and current["next"] is None
    assert current["days"][-1]["date"] == today.isoformat()
    assert current["previous"] is not None
    assert player.get("/api/v1/calendar/chess").error_code == "unknown_game"
    assert player.get("/api/v1/calendar/flower/2026-13").error_code == "bad_month"
    assert player.get("/api/v1/calendar/flower/december").error_code == "bad_month"
    future = (today.replace(day=28) + dt.timedelta(days=10)).strftime("%Y-%m")
    assert player.get(f"/api/v1/calendar/flower/{future}").error_code == "future_date"
    reply = player.get("/api/v1/calendar/flower/2000-01")
    assert reply.status == 404 and reply.error_code == "before_first_day"


def test_a_days_record_is_its_ranked_attempt(api, todays_deals, today):
    player = api()
    ranked = player.start("cruel")
    player.finish(ranked)
    practice = player.start("cruel")
    Attempt.objects.filter(pk=practice["id"]).update(cards_home=30)
    day = next(d for d in player.get("/api/v1/calendar/cruel").body["days"] if d["date"] == today.isoformat())
    assert day["record"]["attempt_id"] == ranked["id"] and day["has_deal"] is True
