"""GET /api/v1/daily/{date}/{game}/solution: the moves and every position along them, after the day."""

import datetime as dt

import solitaire


def test_after_the_day_every_position_along_the_solution_is_given(api, make_deal, today):
    yesterday = today - dt.timedelta(days=1)
    for game in ("cruel", "flower"):
        deal = make_deal(game, yesterday)
        reply = api().get(f"/api/v1/daily/{yesterday.isoformat()}/{game}/solution")
        assert reply.status == 200, reply.body
        moves, positions = reply.body["moves"], reply.body["positions"]
        assert moves == deal.certificate.split()
        assert len(positions) == len(moves) + 1
        assert positions[0] == deal.position  # in notation, as the deal's own
        # Replayed here with the engine, independently of the server.
        position = solitaire.parse_position(deal.position)
        for i, token in enumerate(moves, start=1):
            position = position.apply(solitaire.Move.parse(token))
            assert positions[i] == position.notation()
        assert solitaire.parse_position(positions[-1]).is_won()


def test_the_solution_of_today_or_a_later_day_is_not_given(api, make_deal, todays_deals, today):
    player = api()
    reply = player.get(f"/api/v1/daily/{today.isoformat()}/cruel/solution")
    assert reply.status == 404 and reply.error_code == "day_not_over"
    assert "moves" not in reply.body and "positions" not in reply.body["error"]
    tomorrow = today + dt.timedelta(days=1)
    make_deal("flower", tomorrow)
    reply = player.get(f"/api/v1/daily/{tomorrow.isoformat()}/flower/solution")
    assert reply.status == 404 and reply.error_code == "future_date"


def test_bad_solution_requests_are_clear_4xx(api, today):
    player = api()
    assert player.get(f"/api/v1/daily/{today.isoformat()}/spider/solution").error_code == "unknown_game"
    assert player.get("/api/v1/daily/30-11-2026/cruel/solution").error_code == "bad_date"
    assert player.get("/api/v1/daily/2001-01-01/cruel/solution").error_code == "deal_not_ready"
    pt = api(language="pt-PT")
    reply = pt.get(f"/api/v1/daily/{(today + dt.timedelta(days=3)).isoformat()}/cruel/solution")
    assert reply.error_code == "future_date" and reply.body["error"]["message"] == "Esse dia ainda não começou."
