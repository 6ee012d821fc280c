"""GET /api/v1/daily and /api/v1/daily/{date}/{game}: solutions public once the day is over."""

import datetime as dt


def test_today_lists_both_deals_without_giving_the_position_or_solution_away(api, todays_deals, today):
    player = api()
    player.start("cruel")
    daily = player.get("/api/v1/daily").body
    assert daily["date"] == today.isoformat()
    assert daily["time_zone"] == "Europe/Lisbon"
    assert 0 < daily["seconds_to_next_day"] <= 25 * 3600
    assert dt.datetime.fromisoformat(daily["next_day_starts_at"]).tzinfo is not None
    deals = {d["game"]: d for d in daily["deals"]}
    assert set(deals) == {"cruel", "flower"}
    assert deals["cruel"]["day_over"] is False
    assert "position" not in deals["cruel"] and "solution" not in deals["cruel"]
    assert len(deals["cruel"]["my_attempts"]) == 1 and deals["flower"]["my_attempts"] == []


def test_after_the_day_its_deal_and_verified_solution_are_public(api, make_deal, certificate_of, today):
    yesterday = today - dt.timedelta(days=1)
    deal = make_deal("flower", yesterday)
    reply = api().get(f"/api/v1/daily/{yesterday.isoformat()}/flower")
    assert reply.status == 200
    assert reply.body["day_over"] is True
    position = reply.body["position"]
    assert position["notation"] == deal.position
    assert position["game"] == "flower" and len(position["columns"]) == 6
    assert len(position["bouquet"]) == 16 and position["cards_home"] == 0
    assert reply.body["solution"] == certificate_of("flower")[1]
    assert reply.body["solution_length"] == len(deal.certificate.split())


def test_todays_deal_is_not_public_and_a_future_one_is_404(api, make_deal, todays_deals, today):
    player = api()
    body = player.get(f"/api/v1/daily/{today.isoformat()}/cruel").body
    assert body["day_over"] is False and "solution" not in body
    tomorrow = today + dt.timedelta(days=1)
    make_deal("cruel", tomorrow)
    reply = player.get(f"/api/v1/daily/{tomorrow.isoformat()}/cruel")
    assert reply.status == 404 and reply.error_code == "future_date"
    assert "position" not in reply.body["error"]


def test_bad_daily_requests_are_clear_4xx(api, today):
    player = api()
    assert player.get(f"/api/v1/daily/{today.isoformat()}/spider").error_code == "unknown_game"
    assert player.get("/api/v1/daily/30-11-2026/cruel").error_code == "bad_date"
    assert player.get("/api/v1/daily/2001-01-01/cruel").error_code == "deal_not_ready"


def test_a_deal_says_its_difficulty_level_and_after_the_day_the_share_won(
    api, make_deal, make_player, today
):
    from api.play.models import Attempt

    yesterday = today - dt.timedelta(days=1)
    deal = make_deal("cruel", yesterday)
    now = dt.datetime.now(dt.timezone.utc)
    for name, status in (("won1", Attempt.Status.WON), ("lost1", Attempt.Status.ABANDONED)):
        Attempt.objects.create(
            player=make_player(name), deal=deal, ranked=True, version=3, moves=3, status=status, cards_home=52,
            start_position=deal.position, position=deal.position, started_at=now, last_action_at=now,
        )
    body = api().get(f"/api/v1/daily/{yesterday.isoformat()}/cruel").body
    assert body["won_share"] == 0.5
    level = body["difficulty_level"]
    assert level["level"] in ("easy", "medium", "hard", "very_hard") and level["of"] == 4
    assert 0 <= level["percentile"] <= 100

    make_deal("flower", today)
    today_deal = api().get(f"/api/v1/daily/{today.isoformat()}/flower").body
    assert "won_share" not in today_deal and today_deal["difficulty_level"]["step"] in (1, 2, 3, 4)
