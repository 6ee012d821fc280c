"""Whole daily deals played to a win through the API, with the solver's certificate."""

import pytest


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_a_guest_wins_todays_deal_by_playing_the_certificate(api, todays_deals, game):
    player = api()
    deal = todays_deals[game]
    attempt = player.start(game)
    assert attempt["ranked"] is True
    assert attempt["status"] == "playing"
    assert attempt["position"]["notation"] == deal.position
    assert attempt["version"] == 0

    for number, token in enumerate(deal.certificate.split(), start=1):
        cards = {e["card"]: e["targets"] for e in attempt["legal"]}
        if token == "R":
            assert attempt["can_redeal"] is True
        else:
            card, target = token.split(">")
            assert target in cards[card], f"{token} not offered at move {number}"
        assert attempt["status"] != "won"
        attempt = player.move(attempt, token)
        assert attempt["version"] == number
        assert attempt["last_action"] == token

    assert attempt["status"] == "won"
    assert attempt["finished"] is True
    assert attempt["counters"]["cards_home"] == 52
    assert attempt["counters"]["redeals"] == deal.certificate.split().count("R")
    assert attempt["counters"]["undos"] == 0
    assert attempt["legal"] == []
    assert attempt["ended_at"] is not None

    log = player.get(f"/api/v1/attempts/{attempt['id']}/log").body
    assert log["start"] == deal.position
    assert log["actions"] == deal.certificate.split()
    assert log["replay_ok"] is True

    board = player.get(f"/api/v1/leaderboard/{game}/{deal.date.isoformat()}").body
    assert board["total"] == 1
    assert board["entries"][0]["cards_home"] == 52
    assert board["me"]["rank"] == 1


def test_a_won_attempt_takes_no_more_moves(api, todays_deals):
    player = api()
    deal = todays_deals["cruel"]
    attempt = player.start("cruel")
    for token in deal.certificate.split():
        attempt = player.move(attempt, token)
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": "R", "version": attempt["version"]})
    assert reply.status == 409
    assert reply.error_code == "attempt_finished"
