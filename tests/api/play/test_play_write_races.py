"""Writes that race the rows they touch, over real HTTP against the live
server: an account deleted while its player's moves land or while others
join its leagues, a league closed while players join, an owner's leagues
made at once past the cap. Each ends in a clear answer and a correct
result, whichever request lands first; none in a 500."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.contrib.auth import get_user_model
from play_calls import at_once, first_move

from api.play.models import Attempt, League, LeagueMember

ROUNDS = 4


@pytest.fixture
def past(today):
    return today - dt.timedelta(days=2)


def _with_token(bare_api, user, password):
    reply = bare_api().post("/api/v1/auth/token", {"username": user.username, "password": password})
    assert reply.status == 200, reply.body
    return bare_api(token=reply.body["token"])


def _until_stopped(stop: threading.Event, replies: list, step, *, landed: threading.Event):
    """step() again and again, its replies kept, until ``stop``; ``landed``
    is set once a few have been answered 2xx."""
    done = 0
    while not stop.is_set():
        reply = step()
        replies.append(reply)
        if reply.status < 300:
            done += 1
            if done >= 3:
                landed.set()


def _race(workers: list, strike, landed: list[threading.Event]):
    """The workers run until ``strike`` (called once each has landed a few
    writes) has answered; strike's reply."""
    stop = threading.Event()
    struck = []

    def striker():
        for event in landed:
            assert event.wait(60), "a worker never landed a write"
        struck.append(strike())
        stop.set()

    at_once([*(lambda w=w: w(stop) for w in workers), striker])
    return struck[0]


def _joiner(client, league: dict, replies: list, landed: threading.Event):
    """A worker that joins the league, leaves it, joins again... (each join
    a new membership row) until stopped."""
    state = {"in": False}

    def step():
        if state["in"]:
            reply = client.post(f"/api/v1/leagues/{league['id']}/leave")
        else:
            reply = client.post("/api/v1/leagues/join", {"code": league["invite_code"]})
        if reply.status < 300:
            state["in"] = not state["in"]
        return reply

    return lambda stop: _until_stopped(stop, replies, step, landed=landed)


def _statuses(replies) -> set:
    return {(r.status, r.error_code) for r in replies}


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_account_deleted_while_its_moves_land_is_deleted_and_the_moves_are_told(
        round_, api, bare_api, make_deal, make_player, password, past):
    deals = [make_deal(game, past) for game in ("flower", "cruel")]
    user = make_player(f"mover{round_}")
    player = _with_token(bare_api, user, password)
    attempts = [player.start(deal.game, deal.date.isoformat()) for deal in deals for _ in range(2)]
    landed = [threading.Event() for _ in attempts]
    replies: list = []

    def mover(attempt, event):
        state = {"attempt": attempt}
        path = f"/api/v1/attempts/{attempt['id']}"

        def step():
            current = state["attempt"]
            if current["version"] % 2 == 0:
                reply = player.post(f"{path}/moves", {"move": first_move(current),
                                                      "version": current["version"]})
            else:
                reply = player.post(f"{path}/undo", {"version": current["version"]})
            if reply.status == 200:
                state["attempt"] = reply.body
            return reply

        return lambda stop: _until_stopped(stop, replies, step, landed=event)

    deleted = _race([mover(a, e) for a, e in zip(attempts, landed)],
                    lambda: player.request("DELETE", "/api/v1/me", {"password": password}), landed)

    assert deleted.status == 204, deleted.body
    # A move before the deletion landed (and went with it); one after it
    # found no attempt, or no account behind the token.
    assert _statuses(replies) <= {(200, None), (404, "not_found"), (401, "not_authenticated")}
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert not Attempt.objects.filter(player_id=user.pk).exists()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_account_deleted_while_others_join_its_leagues_is_deleted_and_the_joins_are_told(
        round_, bare_api, make_player, password):
    owner_user = make_player(f"owner{round_}")
    owner = _with_token(bare_api, owner_user, password)
    leagues = [owner.post("/api/v1/leagues", {"name": f"Club {i}"}).body for i in range(2)]
    joiners = [_with_token(bare_api, make_player(f"joiner{round_}x{i}"), password)
               for i in range(4)]
    landed = [threading.Event() for _ in joiners]
    replies: list = []

    deleted = _race([_joiner(c, leagues[i % 2], replies, e)
                     for i, (c, e) in enumerate(zip(joiners, landed))],
                    lambda: owner.request("DELETE", "/api/v1/me", {"password": password}), landed)

    assert deleted.status == 204, deleted.body
    assert _statuses(replies) <= {(200, None), (204, None), (404, "unknown_invite"),
                                  (404, "not_found")}
    assert not get_user_model().objects.filter(pk=owner_user.pk).exists()
    assert not League.objects.filter(pk__in=[league["id"] for league in leagues]).exists()
    assert not LeagueMember.objects.filter(league_id__in=[lg["id"] for lg in leagues]).exists()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_league_closed_while_players_join_closes_and_the_joins_are_told(
        round_, bare_api, make_player, password):
    owner = _with_token(bare_api, make_player(f"closer{round_}"), password)
    league = owner.post("/api/v1/leagues", {"name": "Closing"}).body
    joiners = [_with_token(bare_api, make_player(f"late{round_}x{i}"), password) for i in range(4)]
    landed = [threading.Event() for _ in joiners]
    replies: list = []

    closed = _race([_joiner(c, league, replies, e) for c, e in zip(joiners, landed)],
                   lambda: owner.request("DELETE", f"/api/v1/leagues/{league['id']}"), landed)

    assert closed.status == 204, closed.body
    assert _statuses(replies) <= {(200, None), (204, None), (404, "unknown_invite"),
                                  (404, "not_found")}
    assert not League.objects.filter(pk=league["id"]).exists()
    assert not LeagueMember.objects.filter(league_id=league["id"]).exists()
    reply = joiners[0].post("/api/v1/leagues/join", {"code": league["invite_code"]})
    assert (reply.status, reply.error_code) == (404, "unknown_invite")


def test_leagues_made_at_once_stop_at_the_owner_s_cap(bare_api, make_player, password, settings):
    settings.LEAGUES_PER_OWNER = 3
    user = make_player("founder")
    owner = _with_token(bare_api, user, password)
    for round_ in range(ROUNDS):
        replies = at_once([lambda i=i: owner.post("/api/v1/leagues", {"name": f"Club {i}"})
                           for i in range(8)])
        assert sorted(r.status for r in replies) == [201] * 3 + [409] * 5, [r.body for r in replies]
        assert {r.error_code for r in replies if r.status == 409} == {"league_limit"}
        assert League.objects.filter(owner=user).count() == 3
        for league in League.objects.filter(owner=user):
            assert owner.request("DELETE", f"/api/v1/leagues/{league.pk}").status == 204
