"""Heavy answers one at a time per player: the analysis with its positions
and the replayed log cost the server far more than the client, so a second
one from the same player while the first is being built is refused at once
with 429 heavy_busy and Retry-After; other players, and the analysis
without its positions, are not held up."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from waiting import wait_until

from api.play.attempts import services


@pytest.fixture
def held_steps(monkeypatch):
    """The first build of the analysis' positions waits for .set(); .building
    is set once it has started."""
    release, building = threading.Event(), threading.Event()
    steps = services._steps
    first = [True]

    def held(state, found):
        if first[0]:
            first[0] = False
            building.set()
            assert release.wait(30), "the test never released the build"
        return steps(state, found)

    monkeypatch.setattr(services, "_steps", held)
    release.building = building
    yield release
    release.set()


def _finished(player, past) -> dict:
    attempt = player.start("cruel", past.isoformat())
    legal = attempt["legal"][0]
    attempt = player.move(attempt, f"{legal['card']}>{legal['targets'][0]}")
    return player.finish(attempt)


def test_a_second_heavy_answer_at_once_is_refused_and_the_first_is_answered(
        api, make_deal, today, held_steps):
    past = today - dt.timedelta(days=2)
    make_deal("cruel", past)
    player, other = api(), api()
    mine, theirs = _finished(player, past), _finished(other, past)
    path = f"/api/v1/attempts/{mine['id']}/analysis?steps=true"
    first = {}
    thread = threading.Thread(target=lambda: first.update(reply=player.get(path)))
    thread.start()
    wait_until(held_steps.building.is_set, seconds=30, explain="the first build never started")

    again = player.get(path)
    log = player.get(f"/api/v1/attempts/{mine['id']}/log")
    plain = player.get(f"/api/v1/attempts/{mine['id']}/analysis")
    someone_else = other.get(f"/api/v1/attempts/{theirs['id']}/analysis?steps=true")
    held_steps.set()
    thread.join(timeout=30)

    assert again.status == 429 and again.error_code == "heavy_busy", again.body
    assert again.headers["Retry-After"] == "1"
    assert log.status == 429 and log.error_code == "heavy_busy", log.body
    # The cheap answer and other players are not held up.
    assert plain.status == 200 and "positions" not in plain.body
    assert someone_else.status == 200 and len(someone_else.body["positions"]) == 2
    assert first["reply"].status == 200 and len(first["reply"].body["positions"]) == 2
    # Once the first is answered, the slot is free again.
    assert player.get(path).status == 200
    assert player.get(f"/api/v1/attempts/{mine['id']}/log").status == 200


def test_the_refusal_is_in_the_players_language(api, make_deal, today, held_steps):
    past = today - dt.timedelta(days=2)
    make_deal("cruel", past)
    player = api(language="pt-pt")
    mine = _finished(player, past)
    path = f"/api/v1/attempts/{mine['id']}/analysis?steps=true"
    thread = threading.Thread(target=lambda: player.get(path))
    thread.start()
    wait_until(held_steps.building.is_set, seconds=30, explain="the first build never started")
    again = player.get(path)
    held_steps.set()
    thread.join(timeout=30)

    assert again.status == 429
    assert again.body["error"]["message"].startswith("Está a ser respondido outro pedido seu")
