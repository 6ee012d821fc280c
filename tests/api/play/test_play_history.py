"""GET /api/v1/history: days, streaks in the daily time zone, bests."""

import datetime as dt

UTC = dt.timezone.utc


def _counts(streak: dict) -> dict:
    """The played streak's counts (its freezes and days: test_play_streaks.py)."""
    return {"current": streak["current"], "longest": streak["longest"]}


def _play(player, game, *, win, certificate_of):
    attempt = player.start(game)
    if win:
        for token in certificate_of(game)[1].split():
            attempt = player.move(attempt, token)
        assert attempt["status"] == "won"
    else:
        attempt = player.finish(player.any_move(attempt))
    return attempt


def test_streaks_count_days_in_lisbon_across_the_spring_daylight_saving_change(
    api, make_deal, certificate_of, at
):
    # Lisbon goes from UTC+0 to UTC+1 at 01:00 UTC on 2025-03-30.
    for day in range(27, 32):
        make_deal("cruel", dt.date(2025, 3, day))
    player = api()
    moments = [
        dt.datetime(2025, 3, 27, 23, 30, tzinfo=UTC),  # 27th, 23:30 WET
        dt.datetime(2025, 3, 28, 23, 30, tzinfo=UTC),  # 28th, 23:30 WET
        dt.datetime(2025, 3, 29, 23, 59, tzinfo=UTC),  # 29th, 23:59 WET
        dt.datetime(2025, 3, 30, 23, 30, tzinfo=UTC),  # 31st, 00:30 WEST: the 30th is skipped
    ]
    for moment, win in zip(moments, [True, True, False, True]):
        at(moment)
        attempt = _play(player, "cruel", win=win, certificate_of=certificate_of)
        assert attempt["ranked"] is True
    assert attempt["date"] == "2025-03-31"

    history = player.get("/api/v1/history").body
    assert [d["date"] for d in history["days"]] == ["2025-03-31", "2025-03-29", "2025-03-28", "2025-03-27"]
    assert _counts(history["streaks"]["played"]) == {"current": 1, "longest": 3}
    assert history["streaks"]["won"] == {"current": 1, "longest": 2}
    assert history["days"][1]["cruel"]["status"] == "abandoned"
    assert history["days"][1]["cruel"]["finished"] is True
    assert history["days"][1]["flower"] is None
    assert history["best"]["cruel"]["cards_home"] == 52


def test_a_streak_through_the_autumn_change_is_unbroken_and_lasts_into_the_next_day(
    api, make_deal, certificate_of, at
):
    # Lisbon goes back from UTC+1 to UTC+0 at 01:00 UTC on 2025-10-26.
    for day in range(25, 28):
        make_deal("flower", dt.date(2025, 10, day))
    player = api()
    for moment in [dt.datetime(2025, 10, 24, 23, 30, tzinfo=UTC),  # 25th 00:30 WEST
                   dt.datetime(2025, 10, 25, 23, 30, tzinfo=UTC),  # 26th 00:30 WEST
                   dt.datetime(2025, 10, 27, 0, 30, tzinfo=UTC)]:  # 27th 00:30 WET
        at(moment)
        _play(player, "flower", win=True, certificate_of=certificate_of)
    history = player.get("/api/v1/history?game=flower").body
    assert history["streaks"]["won"] == {"current": 3, "longest": 3}
    assert set(history["days"][0]) == {"date", "flower"}
    at(dt.datetime(2025, 10, 28, 23, 0, tzinfo=UTC))  # 28th: not played yet, still alive
    assert player.get("/api/v1/history").body["streaks"]["played"]["current"] == 3
    at(dt.datetime(2025, 10, 29, 0, 30, tzinfo=UTC))  # 29th: the 28th was missed
    assert _counts(player.get("/api/v1/history").body["streaks"]["played"]) == {
        "current": 0, "longest": 3}


def test_practice_on_a_past_day_is_listed_but_makes_no_streak(api, make_deal, today):
    yesterday = today - dt.timedelta(days=1)
    make_deal("cruel", yesterday)
    player = api()
    player.start("cruel", yesterday.isoformat())
    history = player.get("/api/v1/history").body
    assert history["days"][0]["cruel"]["ranked"] is False
    assert history["days"][0]["cruel"]["finished"] is False  # in play
    assert _counts(history["streaks"]["played"]) == {"current": 0, "longest": 0}
    assert history["totals"] == {"played": 0, "won": 0}


def test_totals_count_the_days_played_and_won_per_game(api, todays_deals, certificate_of):
    player = api()
    _play(player, "cruel", win=True, certificate_of=certificate_of)
    _play(player, "flower", win=False, certificate_of=certificate_of)
    assert player.get("/api/v1/history?game=cruel").body["totals"] == {"played": 1, "won": 1}
    assert player.get("/api/v1/history?game=flower").body["totals"] == {"played": 1, "won": 0}
    # Both games: days, not attempts (one day, won in one game).
    assert player.get("/api/v1/history").body["totals"] == {"played": 1, "won": 1}


def test_a_ranked_attempt_finished_before_its_first_move_plays_no_day(
    api, make_deal, certificate_of, at
):
    # The leaderboard's rule: a day is played from the ranked attempt's first move.
    for day in (1, 2):
        make_deal("cruel", dt.date(2026, 3, day))
    player = api()
    at(dt.datetime(2026, 3, 1, 12, tzinfo=UTC))
    _play(player, "cruel", win=False, certificate_of=certificate_of)
    at(dt.datetime(2026, 3, 2, 12, tzinfo=UTC))
    idle = player.finish(player.start("cruel"))
    assert idle["ranked"] is True and idle["counters"]["moves"] == 0
    history = player.get("/api/v1/history").body
    assert [d["date"] for d in history["days"]] == ["2026-03-02", "2026-03-01"]
    assert history["days"][0]["cruel"]["attempt_id"] == idle["id"]
    assert history["totals"] == {"played": 1, "won": 0}
    assert _counts(history["streaks"]["played"]) == {"current": 1, "longest": 1}
    assert [d["state"] for d in history["streaks"]["played"]["days"]] == ["played"]
    board = player.get("/api/v1/leaderboard/cruel/2026-03-02").body
    assert board["total"] == 0 and board["me"] is None
    # Nor is it a best: Cruel's four aces start home, and nothing was played.
    idler = api()
    idler.finish(idler.start("cruel"))
    assert idler.get("/api/v1/history").body["best"] == {"cruel": None, "flower": None}


def test_history_rejects_an_unknown_game(api):
    reply = api().get("/api/v1/history?game=spider")
    assert reply.status == 400 and reply.error_code == "bad_request"
