"""The forgiving played streak (api.play.records.streaks): the rule on plain
dates, then through GET /api/v1/history around midnight, a month's end and
Lisbon's daylight-saving change."""

import datetime as dt

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from api.play.records.streaks import FREEZE_EVERY, FREEZES_HELD, streak

UTC = dt.timezone.utc
D = dt.date


def _run(first: dt.date, n: int) -> list[dt.date]:
    return [first + dt.timedelta(days=i) for i in range(n)]


def test_seven_days_played_earn_a_freeze_that_a_missed_day_spends_across_a_month_end():
    played = _run(D(2026, 1, 25), 7)  # 25th to 31st
    result = streak([*played, D(2026, 2, 2)], D(2026, 2, 2), forgiving=True)
    assert (result.current, result.longest, result.freezes) == (8, 8, 0)
    assert result.days[-3:] == [(D(2026, 1, 31), "played"), (D(2026, 2, 1), "frozen"),
                                (D(2026, 2, 2), "played")]
    assert result.next_freeze_in == FREEZE_EVERY - 1


def test_a_second_missed_day_with_no_freeze_left_ends_the_streak():
    played = _run(D(2026, 2, 22), 7)  # to the 28th; 1 and 2 March missed
    result = streak(played, D(2026, 3, 3), forgiving=True)
    assert [state for _, state in result.days[-2:]] == ["frozen", "missed"]
    assert (result.current, result.longest, result.freezes) == (0, 7, 0)


def test_at_most_two_freezes_are_held_and_today_unplayed_is_neither_missed_nor_frozen():
    today = D(2026, 5, 1)
    result = streak(_run(D(2026, 4, 1), 30), today, forgiving=True)  # April, all of it
    assert (result.current, result.freezes) == (30, FREEZES_HELD)
    assert result.days[-1] == (D(2026, 4, 30), "played")


def test_the_won_streak_does_not_forgive():
    result = streak([*_run(D(2026, 1, 1), 7), D(2026, 1, 9)], D(2026, 1, 9), forgiving=False)
    assert (result.current, result.longest, result.freezes) == (1, 7, 0)
    assert result.days[7] == (D(2026, 1, 8), "missed")


@hsettings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=80)), st.integers(min_value=0, max_value=90))
def test_states_cover_every_day_and_the_counts_follow_from_them(offsets, today_offset):
    start = D(2026, 1, 1)
    today = start + dt.timedelta(days=today_offset)
    days = {start + dt.timedelta(days=o) for o in offsets if o <= today_offset}
    result = streak(days, today, forgiving=True)
    states = dict(result.days)
    assert {d for d, s in result.days if s == "played"} == days
    if days:  # every day from the first played on, today only once played
        last = today if today in days else today - dt.timedelta(days=1)
        assert list(states) == _run(min(days), (last - min(days)).days + 1)
    # The current streak: the days played since the last missed day.
    current = 0
    for s in reversed([s for _, s in result.days]):
        if s == "missed":
            break
        current += s == "played"
    assert result.current == current <= result.longest
    assert 0 <= result.freezes <= FREEZES_HELD
    frozen = sum(s == "frozen" for s in states.values())
    assert frozen <= len(days) // FREEZE_EVERY


# -- through the API ----------------------------------------------------------------


def _play_on(player, moment, at):
    at(moment)
    attempt = player.start("cruel")
    player.finish(player.any_move(attempt))
    assert attempt["ranked"] is True
    return attempt


def test_a_freeze_is_spent_at_lisbon_midnight_after_the_spring_change_and_a_month_end(
    api, make_deal, at
):
    # Lisbon goes from UTC+0 to UTC+1 at 01:00 UTC on 2025-03-30.
    for day in _run(D(2025, 3, 25), 10):
        make_deal("cruel", day)
    player = api()
    for day in range(25, 32):  # 22:30 UTC: 22:30 WET to the 29th, 23:30 WEST after
        attempt = _play_on(player, dt.datetime(2025, 3, day, 22, 30, tzinfo=UTC), at)
    assert attempt["date"] == "2025-03-31"

    at(dt.datetime(2025, 4, 1, 22, 59, tzinfo=UTC))  # 1 April, 23:59 WEST: not over yet
    played = player.get("/api/v1/history").body["streaks"]["played"]
    assert (played["current"], played["freezes"], played["next_freeze_in"]) == (7, 1, 7)
    assert played["days"][0] == {"date": "2025-03-31", "state": "played"}

    at(dt.datetime(2025, 4, 1, 23, 0, tzinfo=UTC))  # 2 April, 00:00 WEST: the 1st ended unplayed
    played = player.get("/api/v1/history").body["streaks"]["played"]
    assert (played["current"], played["longest"], played["freezes"]) == (7, 7, 0)
    assert played["days"][0] == {"date": "2025-04-01", "state": "frozen"}

    _play_on(player, dt.datetime(2025, 4, 1, 23, 0, tzinfo=UTC), at)  # played on the 2nd
    history = player.get("/api/v1/history").body
    assert history["streaks"]["played"]["current"] == 8
    assert history["streaks"]["won"] == {"current": 0, "longest": 0}
    assert [d["state"] for d in history["streaks"]["played"]["days"][:3]] == [
        "played", "frozen", "played"]

    at(dt.datetime(2025, 4, 3, 23, 0, tzinfo=UTC))  # 4 April: the 3rd missed, no freeze held
    played = player.get("/api/v1/history").body["streaks"]["played"]
    assert (played["current"], played["longest"]) == (0, 8)
    assert played["days"][0] == {"date": "2025-04-03", "state": "missed"}


def test_the_autumn_change_25_hour_day_is_one_day_of_the_streak(api, make_deal, at):
    # Lisbon goes back from UTC+1 to UTC+0 at 01:00 UTC on 2025-10-26.
    for day in _run(D(2025, 10, 20), 9):
        make_deal("cruel", day)
    player = api()
    for day in range(20, 27):  # 20th-25th 23:30 WEST is 22:30 UTC; the 26th 23:30 WET is 23:30 UTC
        _play_on(player, dt.datetime(2025, 10, day, 22 if day < 26 else 23, 30, tzinfo=UTC), at)
    at(dt.datetime(2025, 10, 27, 23, 59, tzinfo=UTC))  # 27th, 23:59 WET
    played = player.get("/api/v1/history").body["streaks"]["played"]
    assert (played["current"], played["freezes"]) == (7, 1)
    assert [d["date"] for d in played["days"]][:2] == ["2025-10-26", "2025-10-25"]
    at(dt.datetime(2025, 10, 28, 0, 0, tzinfo=UTC))  # 28th, 00:00 WET
    played = player.get("/api/v1/history").body["streaks"]["played"]
    assert played["days"][0] == {"date": "2025-10-27", "state": "frozen"}
    assert played["current"] == 7
