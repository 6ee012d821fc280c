"""POST /api/v1/attempts/{id}/retry: try again from here.

A practice attempt that starts from the position before a move of one of the
player's finished attempts (the losing move, on the results sheet). It obeys
every rule of practice: never ranked, the caps, only the owner's attempt, only
once the attempt's analysis exists (and so never while the ranked attempt on
the deal is in play). Bad input names the field."""

from __future__ import annotations

import datetime as dt

import pytest
from certified_deals import certified
from certified_deals import known_loss as certified_known_loss

import solitaire
from api.play import tasks
from api.play.models import Attempt


def known_loss(game: str) -> tuple[str, list[str], int]:
    start, certificate = certified(game)
    return (start, *certified_known_loss(start, certificate))


def _play(player, attempt: dict, line: list[str]) -> dict:
    for token in line:
        attempt = player.move(attempt, token)
    return attempt


def _before(start: str, line: list[str], number: int) -> str:
    position = solitaire.parse_position(start)
    for token in line[:number - 1]:
        position = position.apply(solitaire.Move.parse(token))
    return position.notation()


@pytest.fixture(autouse=True)
def analysis_by_hand(settings):
    """The test runs the worker's part itself."""
    settings.PLAY_ANALYSIS_ON_FINISH = False


@pytest.fixture
def past(today):
    return today - dt.timedelta(days=2)


def _lost(player, game: str, date: str | None = None) -> tuple[dict, str, list[str], int]:
    """An attempt played into a known loss, finished and analysed."""
    start, line, k = known_loss(game)
    attempt = player.finish(_play(player, player.start(game, date), line))
    assert tasks.analyse_attempt.apply(args=(attempt["id"],)).get() == "lost"
    return attempt, start, line, k


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_a_retry_starts_practice_from_the_position_before_the_losing_move(api, make_deal, past, game):
    make_deal(game, past)
    player = api()
    attempt, start, line, k = _lost(player, game, past.isoformat())
    lost = player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body["lost_at"]
    assert lost["move_number"] == k

    reply = player.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": k})
    assert reply.status == 201, reply.body
    retry = reply.body
    assert retry["id"] != attempt["id"] and retry["ranked"] is False
    assert (retry["game"], retry["date"]) == (game, past.isoformat())
    assert retry["position"]["notation"] == _before(start, line, k)
    assert retry["counters"]["moves"] == 0 and retry["counters"]["undos"] == 0
    assert retry["counters"]["cards_home"] == solitaire.parse_position(_before(start, line, k)).cards_home()
    assert retry["status"] == "playing" and retry["finished"] is False and retry["version"] == 0
    # Its log starts there, and it plays like any practice attempt.
    assert player.get(f"/api/v1/attempts/{retry['id']}/log").body["start"] == retry["position"]["notation"]
    moved = player.move(retry, line[k - 1])
    assert moved["counters"]["moves"] == 1
    # The source attempt is untouched.
    again = player.get(f"/api/v1/attempts/{attempt['id']}").body
    assert again["version"] == attempt["version"] and again["position"] == attempt["position"]


def test_the_first_move_of_a_retry_is_judged_by_the_solver_while_the_day_lasts(api, todays_deals):
    player = api()
    ranked, _start, line, k = _lost(player, "cruel")
    keeping = player.get(f"/api/v1/attempts/{ranked['id']}/analysis").body["lost_at"]["keeping_move"]
    retry = player.post(f"/api/v1/attempts/{ranked['id']}/retry", {"move_number": k}).body
    path = f"/api/v1/attempts/{retry['id']}/first-move"
    assert player.get(path).body == {"move": None, "verdict": None, "version": 0}
    # The losing move again: it loses again. Undone, the keeping move keeps the win.
    lost = player.move(retry, line[k - 1])
    assert player.get(path).body == {"move": line[k - 1], "verdict": "loses", "version": lost["version"]}
    undone = player.post(f"/api/v1/attempts/{retry['id']}/undo", {"version": lost["version"]}).body
    kept = player.move(undone, keeping)
    assert player.get(path).body == {"move": keeping, "verdict": "keeps", "version": kept["version"]}
    # Only the owner's; the rule of analyses holds (none while a ranked attempt is in play).
    assert api().get(path).status == 404
    other = api()
    open_ranked = other.start("cruel")
    reply = other.get(f"/api/v1/attempts/{open_ranked['id']}/first-move")
    assert reply.status == 403 and reply.error_code == "analysis_not_yet", reply.body


def test_a_retry_from_the_first_move_is_the_deal_itself(api, make_deal, past):
    make_deal("cruel", past)
    player = api()
    attempt, start, _line, _k = _lost(player, "cruel", past.isoformat())
    retry = player.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": 1}).body
    assert retry["position"]["notation"] == solitaire.parse_position(start).notation()


def test_a_retry_from_the_first_move_won_makes_no_day_s_record(api, make_deal, past):
    """The retry starts where the deal does, and is still no whole game: the
    day's record in /history and /calendar stays the attempt played."""
    make_deal("cruel", past)
    player = api()
    attempt, start, _line, _k = _lost(player, "cruel", past.isoformat())
    retry = player.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": 1}).body
    _position, certificate = certified("cruel")
    won = _play(player, retry, certificate.split())
    assert won["status"] == "won"
    history = player.get("/api/v1/history?game=cruel").body
    day = next(d for d in history["days"] if d["date"] == past.isoformat())
    assert day["cruel"]["attempt_id"] == attempt["id"]
    month = player.get(f"/api/v1/calendar/cruel/{past.isoformat()[:7]}").body
    (that_day,) = [d for d in month["days"] if d["date"] == past.isoformat()]
    assert that_day["record"]["attempt_id"] == attempt["id"], that_day
    assert that_day["record"]["status"] != "won"


def test_bad_input_names_the_field_and_changes_nothing(api, make_deal, past):
    make_deal("cruel", past)
    player = api(language="pt-PT")
    attempt, _start, line, _k = _lost(player, "cruel", past.isoformat())
    path = f"/api/v1/attempts/{attempt['id']}/retry"
    before = Attempt.objects.count()
    for body in ({"move_number": 0}, {"move_number": len(line) + 1}, {"move_number": -3},
                 {"move_number": "3"}, {"move_number": 2.0}, {"move_number": True}, {}):
        reply = player.post(path, body)
        assert reply.status == 400, (body, reply.body)
        assert reply.error_code == "bad_request"
        assert list(reply.body["error"]["fields"]) == ["move_number"], (body, reply.body)
    out_of_line = player.post(path, {"move_number": len(line) + 1}).body["error"]["fields"]["move_number"][0]
    assert str(len(line)) in out_of_line and "jogadas" in out_of_line  # pt-PT, says how long the line is
    assert Attempt.objects.count() == before


def test_only_the_owners_attempt_and_only_once_analysed(api, make_deal, past):
    make_deal("cruel", past)
    owner = api()
    attempt, _start, _line, k = _lost(owner, "cruel", past.isoformat())
    other = api()
    reply = other.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": k})
    assert reply.status == 404 and reply.error_code == "not_found", reply.body
    assert owner.post("/api/v1/attempts/99999999/retry", {"move_number": 1}).status == 404

    # Still in play: not over. Finished, analysis not done yet: pending.
    start, line, k = known_loss("cruel")
    playing = _play(owner, owner.start("cruel", past.isoformat()), line[:3])
    reply = owner.post(f"/api/v1/attempts/{playing['id']}/retry", {"move_number": 1})
    assert reply.status == 409 and reply.error_code == "attempt_not_over", reply.body
    owner.finish(playing)
    reply = owner.post(f"/api/v1/attempts/{playing['id']}/retry", {"move_number": 1})
    assert reply.status == 409 and reply.error_code == "analysis_pending", reply.body
    assert tasks.analyse_attempt.apply(args=(playing["id"],)).get() == "still_winnable"
    assert owner.post(f"/api/v1/attempts/{playing['id']}/retry", {"move_number": 2}).status == 201


def test_ranked_rules_are_untouched(api, todays_deals, today):
    player = api()
    ranked, start, line, k = _lost(player, "cruel")
    assert ranked["ranked"] is True
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    retry = player.post(f"/api/v1/attempts/{ranked['id']}/retry", {"move_number": k}).body
    assert retry["ranked"] is False
    # Practice on today's deal: no hint while the day lasts; nothing ranked changes.
    hint = player.hint(retry["id"])
    assert hint.status == 403 and hint.error_code == "hints_sealed"
    after = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert after["total"] == board["total"] == 1
    assert after["me"]["attempt_id"] == ranked["id"] and after["me"]["cards_home"] == board["me"]["cards_home"]
    # A retry makes no day's record: the day's record stays the ranked attempt.
    player.finish(retry)
    history = player.get("/api/v1/history?game=cruel").body
    assert history["days"][0]["cruel"]["attempt_id"] == ranked["id"]
    assert history["best"]["cruel"]["attempt_id"] == ranked["id"]
    assert history["totals"] == {"played": 1, "won": 0}


def test_no_retry_of_practice_while_the_ranked_attempt_is_in_play(api, todays_deals):
    player = api()
    ranked = player.finish(player.start("cruel"))
    practice, _start, _line, k = _lost(player, "cruel")
    # The ranked attempt open again beside the finished, analysed practice one.
    Attempt.objects.filter(pk=ranked["id"]).update(ended_at=None, status="playing")
    reply = player.post(f"/api/v1/attempts/{practice['id']}/retry", {"move_number": k})
    assert reply.status == 403 and reply.error_code == "analysis_not_yet", reply.body


def test_a_retry_counts_against_the_cap_of_attempts(api, make_deal, past, settings):
    make_deal("cruel", past)
    player = api()
    attempt, _start, _line, k = _lost(player, "cruel", past.isoformat())
    settings.PLAY_MAX_ATTEMPTS_PER_DEAL = 2
    assert player.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": k}).status == 201
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/retry", {"move_number": k})
    assert reply.status == 409 and reply.error_code == "attempt_limit", reply.body
    assert reply.body["error"]["limit"] == 2
