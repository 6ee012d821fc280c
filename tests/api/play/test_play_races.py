"""Races against the attempt's version protocol, over real HTTP: a finish
against a move, an undo or a batch sent at the same instant, and moves
against the day's end. Whatever lands first, a finished attempt stays
finished, takes no further action, and its record is the one the finish
answered; a ranked record never changes once its day is over."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from play_calls import at_once, first_move

from api import clock

PAIRS = 25


def _rival(player, attempt: dict, kind: str):
    path = f"/api/v1/attempts/{attempt['id']}"
    version = attempt["version"]
    if kind == "move":
        return lambda: player.post(f"{path}/moves", {"move": first_move(attempt), "version": version})
    if kind == "batch":
        return lambda: player.post(f"{path}/moves", {"moves": [first_move(attempt)],
                                                      "version": version})
    return lambda: player.post(f"{path}/undo", {"version": version})


@pytest.mark.parametrize("kind", ["move", "undo", "batch"])
def test_a_finish_racing_an_action_leaves_the_attempt_finished_for_good(
        kind, api, todays_deals, settings):
    settings.PLAY_MAX_ACTIONS_PER_ATTEMPT = 10_000
    settings.PLAY_MAX_ATTEMPTS_PER_DEAL = PAIRS + 1
    player = api()
    outcomes: set = set()
    for _ in range(PAIRS):
        started = player.start("flower")
        attempt = player.move(started, first_move(started))
        path = f"/api/v1/attempts/{attempt['id']}"
        finish, rival = at_once([lambda: player.post(f"{path}/finish"), _rival(player, attempt, kind)])

        assert finish.status == 200, finish.body
        assert rival.status in (200, 409), rival.body
        outcomes.add(rival.status if rival.status == 200 else rival.error_code)
        after = player.get(path).body
        assert after["finished"] and after["status"] != "playing"
        # The record is the one the finish answered, whichever landed first.
        assert after["counters"] == finish.body["counters"]
        assert after["version"] == finish.body["version"]
        # Nothing more lands: not a move, an undo or a batch from the new version.
        current = {**attempt, "version": after["version"]}
        for late in ("move", "undo", "batch"):
            reply = _rival(player, current, late)()
            assert reply.status == 409 and reply.error_code == "attempt_finished", reply.body
        assert player.get(path).body == after
        log = player.get(f"{path}/log").body
        assert log["replay_ok"] is True
        assert log["actions"][-1] == "finish" and log["actions"].count("finish") == 1
    # The rival either landed first (200) or found the attempt moved on.
    assert outcomes <= {200, "attempt_finished", "stale_version"}


def test_moves_racing_the_day_s_end_leave_the_ranked_record_as_it_was_at_midnight(
        api, todays_deals, today, monkeypatch):
    midnight = clock.day_end(today)
    moment = [midnight - dt.timedelta(milliseconds=200)]
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    player = api()
    attempt = player.start("flower")
    assert attempt["ranked"] is True
    accepted, refused = [], []

    def keep_moving():
        state, move = attempt, first_move(attempt)
        for _ in range(40):
            reply = player.post(f"/api/v1/attempts/{state['id']}/moves",
                                {"move": move, "version": state["version"]})
            if reply.status == 200:
                state = reply.body
                accepted.append(state)
                # Answered after midnight, a move made before it lists nothing more.
                move = first_move(state) if state["legal"] else move
            else:
                refused.append(reply)

    def strike_midnight():
        while len(accepted) < 5:
            threading.Event().wait(0.005)
        moment[0] = midnight + dt.timedelta(milliseconds=1)

    at_once([keep_moving, strike_midnight])

    assert len(accepted) >= 5 and refused, "the clock never struck midnight during the moves"
    assert {r.error_code for r in refused} == {"day_over"}
    last = accepted[-1]
    after = player.get(f"/api/v1/attempts/{attempt['id']}").body
    assert after["frozen"] is True
    assert after["counters"] == last["counters"] and after["version"] == last["version"]
    # Finishing the frozen attempt changes no part of its record.
    finished = player.post(f"/api/v1/attempts/{attempt['id']}/finish").body
    assert finished["counters"] == last["counters"]
    assert finished["elapsed_seconds"] == after["elapsed_seconds"]
    assert player.get(f"/api/v1/attempts/{attempt['id']}/log").body["replay_ok"] is True


def test_finishing_keeps_the_record_s_time_at_the_last_action(api, todays_deals, monkeypatch):
    start = timezone.now()
    moment = [start]
    monkeypatch.setattr(clock, "now", lambda: moment[0])
    player = api()
    attempt = player.start("flower")
    moment[0] = start + dt.timedelta(seconds=68)
    attempt = player.move(attempt, first_move(attempt))
    moment[0] = start + dt.timedelta(minutes=14)  # the player left it idle
    finished = player.post(f"/api/v1/attempts/{attempt['id']}/finish").body
    assert finished["elapsed_seconds"] == 68.0
    assert finished["counters"] == attempt["counters"]


def test_registering_keeps_the_user_s_timestamps(api, transactional_db, password):
    guest = api()
    user = get_user_model().objects.get(pk=guest.get("/api/v1/me").body["id"])
    reply = guest.post("/api/v1/auth/register", {"username": "saved", "password": password})
    assert reply.status == 201, reply.body
    saved = get_user_model().objects.get(pk=user.pk)
    assert saved.date_joined == user.date_joined
    assert abs(saved.last_login - timezone.now()) < dt.timedelta(minutes=1)
