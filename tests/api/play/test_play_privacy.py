"""A player's data: GET /api/v1/me/data gives everything kept and no
secret; DELETE /api/v1/me deletes the account, its sessions and token, and
its leaderboard entries (others' ranks counted again, cached counts too)."""

from __future__ import annotations

import datetime as dt
import json

from django.contrib.auth import get_user_model
from play_calls import first_move
from rest_framework.authtoken.models import Token

from api.play.models import Attempt, AttemptAction, AttemptAnalysis, Player, Session


def _ranked(deal, user, *, cards_home):
    now = dt.datetime.now(dt.timezone.utc)
    return Attempt.objects.create(
        player=user, deal=deal, ranked=True, version=1, moves=1, start_position=deal.position,
        position=deal.position, cards_home=cards_home, elapsed_ms=60_000,
        started_at=now, last_action_at=now)


def test_my_data_holds_the_account_attempts_logs_and_records_and_no_secret(
        as_alice, alice, bare_api, password, todays_deals, settings):
    settings.PLAY_ANALYSIS_ON_FINISH = False  # the analysis is written below
    started = as_alice.start("cruel")
    move = first_move(started)
    attempt = as_alice.finish(as_alice.move(started, move))
    AttemptAnalysis.objects.create(attempt_id=attempt["id"], state="done", verdict="lost",
                                   lost_at=1, lost_move=move, keeping_line="R")
    token = bare_api().post("/api/v1/auth/token", {"username": "alice", "password": password})
    league = as_alice.post("/api/v1/leagues", {"name": "Os da Sé"}).body
    feed = as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "08:30"}).body
    reply = as_alice.get("/api/v1/me/data")
    assert reply.status == 200, reply.body
    data = reply.body
    assert data["account"] == {**data["account"], "id": alice.pk, "username": "alice",
                               "display_name": "Alice", "is_guest": False, "has_password": True}
    [mine] = data["attempts"]
    assert mine["id"] == attempt["id"] and mine["ranked"] is True
    assert [a["kind"] for a in mine["log"]] == ["move", "finish"]
    assert mine["log"][0]["move"] == move and mine["line"] == [move]
    assert mine["analysis"] == {**mine["analysis"], "state": "done", "verdict": "lost",
                                "lost_at": 1, "lost_move": move, "keeping_line": ["R"]}
    assert data["records"]["days"][0]["cruel"]["attempt_id"] == attempt["id"]
    assert data["token"]["issued_at"] and len(data["sessions"]) >= 1
    assert [(m["name"], m["is_owner"]) for m in data["leagues"]] == [("Os da Sé", True)]
    assert data["calendar_feed"]["reminder"] == "08:30"
    text = json.dumps(data)
    secrets = [get_user_model().objects.get(pk=alice.pk).password, token.body["token"],
               as_alice.cookie("sessionid"), feed["url"].rsplit("/", 1)[1].removesuffix(".ics"),
               league["invite_code"]]
    for secret in secrets:
        assert secret and secret not in text


def test_a_guest_takes_its_data_too(api, todays_deals):
    guest = api()
    guest.start("flower")
    data = guest.get("/api/v1/me/data").body
    assert data["account"]["is_guest"] is True and data["account"]["has_password"] is False
    assert len(data["attempts"]) == 1 and data["token"] is None
    assert data["leagues"] == [] and data["calendar_feed"] is None


def test_deleting_an_account_needs_its_password(as_alice, alice):
    reply = as_alice.request("DELETE", "/api/v1/me", {})
    assert reply.status == 400 and reply.error_code == "password_required", reply.body
    reply = as_alice.request("DELETE", "/api/v1/me", {"password": "not it"})
    assert reply.status == 400 and reply.error_code == "bad_credentials"
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_deleting_an_account_removes_it_ends_its_sessions_and_token_and_recounts_the_board(
        api, login, alice, bob, bare_api, password, todays_deals, today, settings):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = 1  # the board from cached counts: they must go
    deal = todays_deals["cruel"]
    _ranked(deal, alice, cards_home=30)
    _ranked(deal, bob, cards_home=20)
    own, other_browser, as_bob = login(api, alice), login(api, alice), login(api, bob)
    token = bare_api().post("/api/v1/auth/token",
                            {"username": "alice", "password": password}).body["token"]
    with_token = bare_api(token=token)
    assert with_token.get("/api/v1/me").body["username"] == "alice"
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    before = as_bob.get(url).body
    assert before["total"] == 2 and before["me"]["rank"] == 2
    old_session = own.cookie("sessionid")

    reply = own.request("DELETE", "/api/v1/me", {"password": password})
    assert reply.status == 204, reply.body

    assert not get_user_model().objects.filter(pk=alice.pk).exists()
    assert not Player.objects.filter(user_id=alice.pk).exists()
    assert not Attempt.objects.filter(player_id=alice.pk).exists()
    assert not AttemptAction.objects.filter(attempt__player_id=alice.pk).exists()
    assert not Session.objects.filter(session_key=old_session).exists()
    assert not Token.objects.filter(key=token).exists()
    # The old session cookie and token are refused: a new guest, a 401.
    me = bare_api().request("GET", "/api/v1/me", headers={"Cookie": f"sessionid={old_session}"})
    assert me.body["is_guest"] is True and me.body["id"] != alice.pk
    assert other_browser.get("/api/v1/me").body["is_guest"] is True
    reply = with_token.get("/api/v1/me")
    assert reply.status == 401 and reply.error_code == "not_authenticated"
    # The same browser goes on as a fresh guest.
    fresh = own.get("/api/v1/me").body
    assert fresh["is_guest"] is True and fresh["id"] != alice.pk
    # Bob moves up at once, whatever the cached counts said.
    after = as_bob.get(url).body
    assert after["total"] == 1 and after["me"]["rank"] == 1
    assert [e["display_name"] for e in after["entries"]] == ["Bob"]


def test_a_guest_deletes_itself_with_a_confirmation(api, todays_deals):
    guest = api()
    me = guest.get("/api/v1/me").body
    guest.start("cruel")
    reply = guest.request("DELETE", "/api/v1/me", {})
    assert reply.status == 400 and reply.error_code == "confirmation_required"
    reply = guest.request("DELETE", "/api/v1/me", {"confirm": "yes"})
    assert reply.status == 400 and "confirm" in reply.body["error"]["fields"]
    assert guest.request("DELETE", "/api/v1/me", {"confirm": True}).status == 204
    assert not get_user_model().objects.filter(pk=me["id"]).exists()
    assert guest.get("/api/v1/me").body["id"] != me["id"]


def test_without_a_player_there_is_nothing_to_delete(bare_api, transactional_db):
    reply = bare_api().request("DELETE", "/api/v1/me", {"confirm": True})
    assert reply.status == 401 and reply.error_code == "not_authenticated"


def test_deleting_an_account_closes_its_leagues_and_leaves_the_others(
        api, login, alice, bob, password):
    as_alice, as_bob = login(api, alice), login(api, bob)
    owned = as_alice.post("/api/v1/leagues", {"name": "Alice's"}).body
    other = as_bob.post("/api/v1/leagues", {"name": "Bob's"}).body
    as_bob.post("/api/v1/leagues/join", {"code": owned["invite_code"]})
    as_alice.post("/api/v1/leagues/join", {"code": other["invite_code"]})
    as_alice.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "07:00"})
    assert as_alice.request("DELETE", "/api/v1/me", {"password": password}).status == 204
    assert [lg["name"] for lg in as_bob.get("/api/v1/leagues").body["leagues"]] == ["Bob's"]
    assert [m["display_name"] for m in as_bob.get(f"/api/v1/leagues/{other['id']}").body["members"]] == ["Bob"]
