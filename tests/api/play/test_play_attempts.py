"""POST/GET /api/v1/attempts and GET /attempts/{id}: ranked or practice, ownership, time."""

import datetime as dt


def test_the_first_attempt_of_the_day_is_ranked_and_later_ones_are_practice(api, todays_deals):
    player = api()
    ranked = player.start("cruel")
    assert ranked["ranked"] is True
    # Practice opens once the ranked attempt is finished (no scratchpad beside it).
    refused = player.post("/api/v1/attempts", {"game": "cruel"})
    assert refused.status == 409 and refused.error_code == "ranked_open", refused.body
    player.finish(ranked)
    assert player.start("cruel")["ranked"] is False
    assert player.start("flower")["ranked"] is True


def test_an_attempt_on_a_past_day_is_practice(api, make_deal, today):
    yesterday = today - dt.timedelta(days=1)
    make_deal("cruel", yesterday)
    attempt = api().start("cruel", yesterday.isoformat())
    assert attempt["ranked"] is False
    assert attempt["date"] == yesterday.isoformat()


def test_a_future_day_cannot_be_played(api, make_deal, today):
    tomorrow = today + dt.timedelta(days=1)
    make_deal("cruel", tomorrow)
    reply = api().post("/api/v1/attempts", {"game": "cruel", "date": tomorrow.isoformat()})
    assert reply.status == 404 and reply.error_code == "future_date"


def test_a_day_without_a_verified_deal_is_a_clear_404(api, make_deal, today):
    make_deal("cruel", today, position="cruel " + "/".join(["-"] * 12), certificate=None)
    reply = api().post("/api/v1/attempts", {"game": "cruel"})
    assert reply.status == 404 and reply.error_code == "deal_not_ready"


def test_it_rejects_an_unknown_game_and_a_bad_date(api, todays_deals):
    player = api()
    reply = player.post("/api/v1/attempts", {"game": "spider"})
    assert reply.status == 400 and reply.error_code == "bad_request"
    assert "game" in reply.body["error"]["fields"]
    reply = player.post("/api/v1/attempts", {"game": "cruel", "date": "2026-02-30"})
    assert reply.status == 400 and "date" in reply.body["error"]["fields"]


def test_someone_elses_attempt_is_not_found(api, todays_deals):
    alice, mallory = api(), api()
    attempt = alice.start("cruel")
    url = f"/api/v1/attempts/{attempt['id']}"
    assert mallory.get(url).status == 404
    assert mallory.get(url).error_code == "not_found"
    token = attempt["legal"][0]["card"] + ">" + attempt["legal"][0]["targets"][0]
    reply = mallory.post(url + "/moves", {"move": token, "version": 0})
    assert reply.status == 404
    assert mallory.post(url + "/undo", {"version": 0}).status == 404
    assert mallory.post(url + "/finish").status == 404
    assert mallory.get(url + "/log").status == 404
    assert alice.get(url).body["version"] == 0
    assert api().get("/api/v1/attempts/99999999999999999999999").status == 404


def test_the_list_is_paginated_and_filtered_and_shows_only_mine(api, todays_deals):
    player, other = api(), api()
    for _ in range(3):
        player.finish(player.start("cruel"))
    player.start("flower")
    other.start("cruel")
    page = player.get("/api/v1/attempts").body
    assert page["count"] == 4
    assert set(page) >= {"count", "next", "previous", "results"}
    assert player.get("/api/v1/attempts?game=flower").body["count"] == 1
    assert player.get("/api/v1/attempts?game=cruel&date=2001-01-01").body["count"] == 0
    assert player.get("/api/v1/attempts?game=chess").status == 400
    assert player.get("/api/v1/attempts?page=99").status == 404


def test_elapsed_time_is_measured_by_the_server(api, todays_deals, monkeypatch):
    from api import clock

    player = api()
    started = clock.now()
    monkeypatch.setattr(clock, "now", lambda: started)
    attempt = player.start("cruel")
    monkeypatch.setattr(clock, "now", lambda: started + dt.timedelta(seconds=95))
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["elapsed_seconds"] == 95.0
    token = attempt["legal"][0]["card"] + ">" + attempt["legal"][0]["targets"][0]
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": token, "version": 0, "elapsed_seconds": 1})
    assert reply.body["elapsed_seconds"] == 95.0
