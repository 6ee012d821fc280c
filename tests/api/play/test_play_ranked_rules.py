"""The rules of ranked play (docs/API.md): unaided and on the day.

No hint reaches a deal, practice attempts included, while its day lasts (the
ranked attempt in play is refused as such); a ranked attempt takes no move or undo
once its day is over (the solution is public from that moment) and its record
stays as it stood at midnight. And the caps on actions and attempts."""

import datetime as dt
import threading

import pytest
from play_calls import first_move

from api import clock
from api.play.models import Attempt


def _at(monkeypatch, moment: dt.datetime) -> None:
    monkeypatch.setattr(clock, "now", lambda: moment)


def test_practice_opens_once_the_ranked_attempt_is_finished(api, todays_deals):
    """With the ranked attempt open, practice on the deal would be a free
    scratchpad for the ranked line (its undos cost nothing)."""
    player = api()
    ranked = player.start("cruel")
    refused = player.post("/api/v1/attempts", {"game": "cruel"})
    assert refused.status == 409 and refused.error_code == "ranked_open", refused.body
    assert "practice opens once it is finished" in refused.body["error"]["message"]
    player.finish(ranked)
    practice = player.start("cruel")
    assert practice["ranked"] is False
    reply = player.hint(practice["id"])
    assert reply.status == 403 and reply.error_code == "hints_sealed", reply.body


def test_a_practice_attempt_gets_no_hint_while_the_ranked_one_is_in_play(api, todays_deals):
    player = api()
    ranked = player.start("cruel")
    player.finish(ranked)
    practice = player.start("cruel")
    # The ranked attempt open again beside a practice one (as rows made before
    # practice waited for it may be): the practice attempt gets no hint.
    Attempt.objects.filter(pk=ranked["id"]).update(ended_at=None, status="playing")
    assert ranked["ranked"] is True and practice["ranked"] is False
    reply = player.hint(practice["id"])
    assert reply.status == 403 and reply.error_code == "hint_not_for_ranked", reply.body
    assert "ranked attempt" in reply.body["error"]["message"]
    # Finishing the ranked attempt leaves the deal sealed until its day ends.
    assert player.post(f"/api/v1/attempts/{ranked['id']}/finish").status == 200
    reply = player.hint(practice["id"])
    assert reply.status == 403 and reply.error_code == "hints_sealed", reply.body


def test_hints_are_given_once_the_day_is_over_even_to_an_unfinished_ranked_deal(
        api, todays_deals, today, monkeypatch):
    player = api()
    ranked = player.start("flower")
    _at(monkeypatch, clock.day_end(today) + dt.timedelta(seconds=1))
    practice = player.start("flower", today.isoformat())  # the day is over: practice opens
    for attempt in (practice, ranked):
        reply = player.hint(attempt["id"])
        assert reply.status == 200 and reply.body["status"] == "solved", reply.body


def test_a_ranked_attempt_is_frozen_at_midnight_and_the_solution_does_not_help(
        api, todays_deals, today, monkeypatch):
    midnight = clock.day_end(today)
    player = api()
    _at(monkeypatch, midnight - dt.timedelta(seconds=60))
    ranked = player.start("cruel")
    assert ranked["ranked"] is True and ranked["frozen"] is False
    assert dt.datetime.fromisoformat(ranked["day_ends_at"]) == midnight
    _at(monkeypatch, midnight - dt.timedelta(seconds=20))
    ranked = player.move(ranked, first_move(ranked))
    _at(monkeypatch, midnight - dt.timedelta(milliseconds=1))
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    before = {k: board["entries"][0][k] for k in ("cards_home", "undos", "redeals", "elapsed_seconds")}
    assert before["elapsed_seconds"] == 40.0

    # Midnight: the solution is public, and the ranked attempt takes nothing.
    _at(monkeypatch, midnight)
    solution = player.get(f"/api/v1/daily/{today.isoformat()}/cruel/solution")
    assert solution.status == 200, solution.body
    url = f"/api/v1/attempts/{ranked['id']}"
    reply = player.post(f"{url}/moves", {"move": solution.body["moves"][0], "version": ranked["version"]})
    assert reply.status == 409 and reply.error_code == "day_over", reply.body
    assert dt.datetime.fromisoformat(reply.body["error"]["day_ended_at"]) == midnight
    reply = player.post(f"{url}/undo", {"version": ranked["version"]})
    assert reply.status == 409 and reply.error_code == "day_over", reply.body

    # An hour later the record is as it stood at midnight, time included.
    _at(monkeypatch, midnight + dt.timedelta(hours=1))
    now = player.get(url).body
    assert now["frozen"] is True and now["legal"] == [] and not now["can_undo"]
    assert now["version"] == ranked["version"] and now["counters"] == ranked["counters"]
    assert now["elapsed_seconds"] == 40.0
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert {k: board["entries"][0][k] for k in before} == before

    # Finishing is allowed and changes no counter and not the time.
    finished = player.post(f"{url}/finish")
    assert finished.status == 200, finished.body
    assert finished.body["status"] == "abandoned" and finished.body["finished"] is True
    assert finished.body["counters"] == ranked["counters"]
    assert finished.body["elapsed_seconds"] == 40.0
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert {k: board["entries"][0][k] for k in before} == before

    # Practice on the same deal goes on after the day.
    practice = player.start("cruel", today.isoformat())
    assert practice["ranked"] is False and practice["frozen"] is False
    assert player.move(practice, first_move(practice))["version"] == 1


def test_one_millisecond_before_midnight_a_ranked_move_still_counts(
        api, todays_deals, today, monkeypatch):
    midnight = clock.day_end(today)
    player = api()
    _at(monkeypatch, midnight - dt.timedelta(seconds=5))
    ranked = player.start("flower")
    _at(monkeypatch, midnight - dt.timedelta(milliseconds=1))
    assert player.move(ranked, first_move(ranked))["version"] == 1


def test_an_attempt_takes_a_bounded_number_of_actions(api, todays_deals, settings):
    settings.PLAY_MAX_ACTIONS_PER_ATTEMPT = 5
    player = api()
    attempt = player.start("cruel")
    move = first_move(attempt)
    url = f"/api/v1/attempts/{attempt['id']}"
    for version in range(5):
        if version % 2 == 0:
            reply = player.post(f"{url}/moves", {"move": move, "version": version})
        else:
            reply = player.post(f"{url}/undo", {"version": version})
        assert reply.status == 200, reply.body
    reply = player.post(f"{url}/undo", {"version": 5})
    assert reply.status == 409 and reply.error_code == "action_limit", reply.body
    assert reply.body["error"]["limit"] == 5
    reply = player.post(f"{url}/moves", {"move": move, "version": 5})
    assert reply.status == 409 and reply.error_code == "action_limit"
    assert player.get(url).body["version"] == 5
    # Finishing is still allowed.
    assert player.post(f"{url}/finish").status == 200


@pytest.mark.parametrize("limit", [1, 3])
def test_a_player_has_a_bounded_number_of_attempts_per_deal(api, todays_deals, settings, limit):
    settings.PLAY_MAX_ATTEMPTS_PER_DEAL = limit
    player, other = api(), api()
    for _ in range(limit):
        player.finish(player.start("cruel"))
    reply = player.post("/api/v1/attempts", {"game": "cruel"})
    assert reply.status == 409 and reply.error_code == "attempt_limit", reply.body
    assert reply.body["error"]["limit"] == limit
    assert player.get("/api/v1/attempts?game=cruel").body["count"] == limit
    # Another deal and another player are counted apart.
    player.start("flower")
    other.start("cruel")


def test_starts_at_the_same_instant_never_pass_the_attempt_cap(api, make_deal, today, settings):
    """Eight real requests released together against a cap of three, on a
    past day's deal (practice only): three attempts, five refusals; none
    slips past the count."""
    past = (today - dt.timedelta(days=2)).isoformat()
    make_deal("cruel", past)
    settings.PLAY_MAX_ATTEMPTS_PER_DEAL = 3
    player = api()
    barrier = threading.Barrier(8)
    replies = []

    def start():
        barrier.wait()
        replies.append(player.post("/api/v1/attempts", {"game": "cruel", "date": past}))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [201] * 3 + [409] * 5, [r.body for r in replies]
    assert all(r.error_code == "attempt_limit" for r in replies if r.status == 409)
    mine = player.get("/api/v1/attempts?game=cruel").body
    assert mine["count"] == 3
    assert [a["ranked"] for a in mine["results"]] == [False, False, False]
