"""One person, one ranked result per deal: guests made per address are
bounded by a burst and an hourly rate that hold under parallel requests, a
guest's attempts on open deals go with it into the account it logs in to,
and the leaderboard can show registered players only."""

from __future__ import annotations

import datetime as dt

from play_calls import at_once, first_move
from rest_framework.throttling import SimpleRateThrottle

from api.play.models import Attempt, Player

GUESTS_AT_ONCE = 60


def test_the_default_guest_rates_are_a_small_burst_and_a_few_an_hour():
    from api import settings as project

    parse = SimpleRateThrottle.parse_rate
    rates = project.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    burst, hourly = parse(None, rates["guest_burst"]), parse(None, rates["guest"])
    assert burst[1] == 60 and 1 <= burst[0] <= 5
    assert hourly[1] == 3600 and burst[0] <= hourly[0] <= 10


def test_sixty_guests_asked_for_in_one_second_make_only_the_burst(bare_api, rates, transactional_db):
    rates(guest_burst="3/min", guest="10/hour")
    replies = at_once([(lambda: bare_api().get("/api/v1/me")) for _ in range(GUESTS_AT_ONCE)])
    statuses = sorted(r.status for r in replies)
    assert statuses == [200] * 3 + [429] * (GUESTS_AT_ONCE - 3)
    refused = [r for r in replies if r.status == 429]
    assert {r.error_code for r in refused} == {"throttled"}
    assert all(1 <= int(r.headers["Retry-After"]) <= 60 for r in refused)
    assert Player.objects.filter(is_guest=True).count() == 3


def test_past_the_burst_the_hourly_bound_holds(bare_api, rates, transactional_db):
    rates(guest_burst="100/min", guest="4/hour")
    statuses = [bare_api().get("/api/v1/me").status for _ in range(6)]
    assert statuses == [200] * 4 + [429] * 2
    assert Player.objects.filter(is_guest=True).count() == 4


def test_a_guests_ranked_attempt_goes_to_the_account_it_logs_in_to(
        api, alice, password, todays_deals, today):
    browser = api()
    ranked = browser.start("flower")
    ranked = browser.move(ranked, first_move(ranked))
    reply = browser.post("/api/v1/auth/login", {"username": "alice", "password": password})
    assert reply.status == 200, reply.body
    # Now alice's: hers to read, and no second ranked attempt on the deal.
    assert browser.get(f"/api/v1/attempts/{ranked['id']}").body["ranked"] is True
    assert Attempt.objects.get(pk=ranked["id"]).player_id == alice.pk
    reply = browser.post("/api/v1/attempts", {"game": "flower"})
    assert reply.status == 409 and reply.error_code == "ranked_open"
    browser.finish(ranked)
    assert browser.start("flower")["ranked"] is False
    board = browser.get(f"/api/v1/leaderboard/flower/{today.isoformat()}").body
    assert board["total"] == 1 and board["me"]["attempt_id"] == ranked["id"]
    assert board["entries"][0]["display_name"] == "Alice"


def test_when_both_have_played_the_accounts_result_stands(
        api, login, alice, password, todays_deals, today):
    own = login(api, alice)
    mine = own.start("cruel")
    mine = own.move(mine, first_move(mine))
    browser = api()
    theirs = browser.start("cruel")
    theirs = browser.move(theirs, first_move(theirs))
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    assert browser.get(url).body["total"] == 2
    assert browser.post("/api/v1/auth/login",
                        {"username": "alice", "password": password}).status == 200
    board = browser.get(url).body
    assert board["total"] == 1 and board["me"]["attempt_id"] == mine["id"]
    guest_attempt = Attempt.objects.get(pk=theirs["id"])
    assert guest_attempt.ranked is False and guest_attempt.player_id != alice.pk
    assert browser.get(f"/api/v1/attempts/{theirs['id']}").status == 404


def test_a_guests_attempts_on_past_days_stay_with_the_guest(
        api, alice, password, make_deal, todays_deals, today):
    yesterday = today - dt.timedelta(days=1)
    make_deal("cruel", yesterday)
    browser = api()
    practice = browser.start("cruel", yesterday.isoformat())
    assert browser.post("/api/v1/auth/login",
                        {"username": "alice", "password": password}).status == 200
    assert browser.get(f"/api/v1/attempts/{practice['id']}").status == 404
    assert Attempt.objects.get(pk=practice["id"]).player_id != alice.pk


def test_the_leaderboard_can_show_registered_players_only(api, login, alice, todays_deals, today):
    players = [login(api, alice), api(), api()]
    for player in players:
        attempt = player.start("cruel")
        player.move(attempt, first_move(attempt))
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    everyone = players[1].get(url).body
    assert everyone["total"] == 3 and everyone["registered"] is False
    assert everyone["me"] is not None
    registered = players[1].get(f"{url}?registered=true").body
    assert registered["registered"] is True and registered["total"] == 1
    assert [e["display_name"] for e in registered["entries"]] == ["Alice"]
    assert registered["me"] is None  # a guest is not on the registered board
    assert players[0].get(f"{url}?registered=true").body["me"]["rank"] == 1
    reply = players[0].get(f"{url}?registered=perhaps")
    assert reply.status == 400 and "registered" in reply.body["error"]["fields"]


def test_the_registered_board_from_cached_counts(api, login, alice, bob, todays_deals, today,
                                                settings):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = 1  # every board counted from cached buckets
    players = [login(api, alice), login(api, bob), api()]
    for player in players:
        attempt = player.start("cruel")
        player.move(attempt, first_move(attempt))
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    assert players[0].get(url).body["total"] == 3
    board = players[0].get(f"{url}?registered=true").body
    assert board["total"] == 2
    assert sorted(e["display_name"] for e in board["entries"]) == ["Alice", "Bob"]
    assert board["me"]["display_name"] == "Alice" and board["me"]["beaten"] <= 1


def test_two_guests_logging_in_to_one_account_at_once_leave_it_one_ranked_attempt(
        api, alice, password, todays_deals, today):
    browsers = [api() for _ in range(2)]
    for browser in browsers:
        attempt = browser.start("cruel")
        browser.move(attempt, first_move(attempt))
    replies = at_once([
        (lambda browser=browser: browser.post(
            "/api/v1/auth/login", {"username": "alice", "password": password}))
        for browser in browsers])
    assert [r.status for r in replies] == [200, 200], [r.body for r in replies]
    assert Attempt.objects.filter(player=alice, deal=todays_deals["cruel"], ranked=True).count() == 1
    board = browsers[0].get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert board["total"] == 1 and board["me"] is not None
