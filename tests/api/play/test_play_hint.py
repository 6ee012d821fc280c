"""GET /api/v1/attempts/{id}/hint: the next move of a solution, or the news
that the position can no longer be won; never on a ranked attempt in play."""

import datetime as dt
import os
from concurrent.futures.process import BrokenProcessPool

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from walks import walk

import solitaire
from api import clock
from api.play.attempts import hints

# Won by KH>F QS>F KS>F; but a redeal first makes one pile QS KS KH, from
# which KH goes home and then nothing moves: lost.
CRUEL_SMALL = "cruel QS/KSKH/-/-/-/-/-/-/-/-/-/-"


def test_a_practice_attempt_gets_a_move_that_leads_to_a_win(api, make_deal, today, certificate_of):
    past = (today - dt.timedelta(days=3)).isoformat()
    player = api()
    for game in ("cruel", "flower"):
        make_deal(game, today - dt.timedelta(days=3))
        practice = player.start(game, past)
        assert practice["ranked"] is False
        reply = player.hint(practice["id"])
        assert reply.status == 200, reply.body
        assert reply.body["status"] == "solved" and reply.body["version"] == practice["version"]
        move = reply.body["move"]
        position = solitaire.parse_position(practice["position"]["notation"])
        assert solitaire.Move.parse(move) in position.legal_moves()
        # The hinted move is still winnable afterwards, and the API takes it.
        after = position.apply(solitaire.Move.parse(move))
        assert solitaire.solve(after, max_seconds=10).status is solitaire.SolveStatus.SOLVED
        assert player.move(practice, move)["version"] == practice["version"] + 1


def test_a_ranked_attempt_gets_no_hint_and_today_s_deal_none_until_the_day_ends(
        api, todays_deals, today, monkeypatch):
    """Hints followed from a practice attempt are the day's winning line:
    while the deal's day lasts no attempt on it gets one."""
    player = api(language="pt-PT")
    ranked = player.start("cruel")
    assert ranked["ranked"] is True
    reply = player.hint(ranked["id"])
    assert reply.status == 403 and reply.error_code == "hint_not_for_ranked"
    assert "As dicas são para treino" in reply.body["error"]["message"]
    finished = player.post(f"/api/v1/attempts/{ranked['id']}/finish", {})
    assert finished.status == 200, finished.body
    practice = player.start("cruel")
    assert practice["ranked"] is False
    for attempt in (ranked, practice):
        reply = player.hint(attempt["id"])
        assert reply.status == 403 and reply.error_code == "hints_sealed", reply.body
        assert "quando o dia acabar" in reply.body["error"]["message"]
    english = api()
    mine = english.start("flower")
    english.finish(mine)
    reply = english.hint(english.start('flower')['id'])
    assert reply.status == 403 and reply.error_code == "hints_sealed"
    assert reply.body["error"]["message"] == (
        "No hints on a deal while its day lasts: they open when the day ends.")
    # The day is over: the same attempts get hints.
    after = clock.day_end(today) + dt.timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: after)
    for attempt in (ranked, practice):
        reply = player.hint(attempt["id"])
        assert reply.status == 200 and reply.body["status"] == "solved", reply.body


def test_a_lost_position_is_reported_as_such_with_no_move(api, make_deal, today):
    past = today - dt.timedelta(days=3)
    make_deal("cruel", past, position=CRUEL_SMALL, certificate="KH>F QS>F KS>F")
    player = api()
    attempt = player.start("cruel", past.isoformat())
    reply = player.hint(attempt["id"])
    assert reply.status == 200 and reply.body["status"] == "solved"
    after = player.move(attempt, "R")
    assert solitaire.solve(solitaire.parse_position(after["position"]["notation"])).status.value == "unsolvable"
    reply = player.hint(attempt["id"])
    assert reply.status == 200, reply.body
    assert reply.body == {"status": "unsolvable", "move": None, "version": 1}


def test_someone_elses_attempt_gets_no_hint(api, make_deal, today):
    past = today - dt.timedelta(days=3)
    make_deal("flower", past)
    owner, other = api(), api()
    practice = owner.start("flower", past.isoformat())
    reply = other.hint(practice["id"])
    assert reply.status == 404 and reply.error_code == "not_found"


# -- hints lead to a win ------------------------------------------------------------------


@pytest.fixture
def solver_calls(monkeypatch):
    """The positions the hint service asked the solver about."""
    asked = []
    real = hints._solve_niced

    def spy(position):
        asked.append(position.notation())
        return real(position)

    monkeypatch.setattr(hints, "_solve_niced", spy)
    return asked


def _back(position, move):
    """A move that takes ``position.apply(move)`` back to ``position``, or None."""
    after = position.apply(move)
    return next((m for m in after.legal_moves() if after.apply(m) == position), None)


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_hints_followed_through_the_api_win_on_one_line_whatever_the_cache_keeps(
        api, make_deal, today, game, solver_calls):
    past = today - dt.timedelta(days=3)
    make_deal(game, past)
    player = api()
    attempt = player.start(game, past.isoformat())
    start = attempt["position"]["notation"]
    seen = {start}
    hinted = []
    previous = None  # the position before the last hint's move
    while attempt["status"] != "won":
        cache.clear()  # the cache loses everything: the line lives with the attempt
        here = solitaire.parse_position(attempt["position"]["notation"])
        if hinted:  # another player's line through here that starts by going back
            back = _back(previous, solitaire.Move.parse(hinted[-1]))
            if back is not None:
                cache.set(hints._cache_key(here.notation()),
                          {"status": "solved", "line": [back.token()]})
        reply = player.hint(attempt["id"])
        assert reply.status == 200 and reply.body["status"] == "solved", reply.body
        hinted.append(reply.body["move"])
        previous = here
        attempt = player.move(attempt, reply.body["move"])
        assert attempt["position"]["notation"] not in seen, "a hint went back to a position"
        seen.add(attempt["position"]["notation"])
    assert solver_calls == [start]  # one line, followed to the win
    assert attempt["counters"]["moves"] == len(hinted)


def test_a_move_off_the_line_asks_for_a_new_line_that_hints_then_follow(
        api, make_deal, today, solver_calls):
    past = today - dt.timedelta(days=3)
    make_deal("flower", past)
    player = api()
    attempt = player.start("flower", past.isoformat())
    start = solitaire.parse_position(attempt["position"]["notation"])
    first = player.hint(attempt["id"]).body["move"]
    # A move of the player's own, off the hints' line, that keeps the win.
    own = next(m for m in start.legal_moves() if m.token() != first and solitaire.solve(
        start.apply(m), max_seconds=10).status is solitaire.SolveStatus.SOLVED)
    attempt = player.move(attempt, own.token())
    reply = player.hint(attempt["id"])
    assert reply.status == 200 and reply.body["status"] == "solved", reply.body
    assert solver_calls == [start.notation(), attempt["position"]["notation"]]
    attempt = player.move(attempt, reply.body["move"])
    reply = player.hint(attempt["id"])
    assert reply.status == 200 and reply.body["status"] == "solved", reply.body
    assert len(solver_calls) == 2  # on the new line: its next move, no search


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["cruel", "flower"]), seed=st.integers(0, 2**40),
       picks=st.lists(st.integers(0, 50), max_size=12),
       losses=st.lists(st.booleans(), min_size=1, max_size=8))
def test_hints_followed_from_any_winnable_position_win_and_never_come_back(
        game, seed, picks, losses, generous_throttles, settings):
    """Over many deals and reachable positions, with the cache losing its
    entries now and then and holding other players' lines that go back:
    the hint service's answers, played, win and never return."""
    # The claim is where hints lead, not how fast they come: the hint's
    # budget is wall-clock time in a process at nice 10, which a loaded
    # machine can starve past the 3 s players get.
    settings.PLAY_HINT_MAX_SECONDS = 60
    position = walk(game, seed, picks)
    assume(solitaire.solve(position, max_seconds=1).status is solitaire.SolveStatus.SOLVED)
    kept = {}
    seen = {position.notation()}
    for step in range(400):
        if losses[step % len(losses)]:
            cache.clear()
        answer = hints.hint_along(position, kept=kept.get("line"),
                                  keep=lambda start, line: kept.update(line=(start, line)))
        assert answer["status"] == "solved" and answer["move"], answer
        move = solitaire.Move.parse(answer["move"])
        after = position.apply(move)
        back = _back(position, move)
        if back is not None:  # another player's line from there starts by coming back
            cache.set(hints._cache_key(after.notation()), {"status": "solved",
                                                            "line": [back.token()]})
        position = after
        assert position.notation() not in seen, "a hint went back to a position it left"
        seen.add(position.notation())
        if position.is_won():
            break
    assert position.is_won()


# -- hints cannot starve play (api.play.attempts.hints) ---------------------------------------


@pytest.fixture
def hint_attempt(api, make_deal, today):
    """A practice attempt (its deal's day is over) on a position no hint has
    been asked for yet in this run."""
    cache.clear()
    past = today - dt.timedelta(days=3)
    make_deal("cruel", past, position=CRUEL_SMALL, certificate="KH>F QS>F KS>F")
    player = api()
    return player, player.start("cruel", past.isoformat())


@pytest.fixture
def all_slots_taken(settings):
    """Every hint slot of the machine held, as by solver runs in other processes."""
    held = [hints._take_slot() for _ in range(settings.PLAY_HINT_SLOTS)]
    assert None not in held
    assert hints._take_slot() is None
    yield
    for fd in held:
        os.close(fd)


def test_with_every_slot_taken_a_hint_is_503_with_retry_after_at_once(
    hint_attempt, all_slots_taken, monkeypatch
):
    player, attempt = hint_attempt

    def no_solver(*args, **kwargs):  # "at once": the request never waits for a solver run
        raise AssertionError("the solver ran with no slot free")

    monkeypatch.setattr(hints, "hint", no_solver)
    reply = player.hint(attempt["id"])
    assert reply.status == 503 and reply.error_code == "hints_busy"
    assert reply.headers["Retry-After"] == "2"
    # Moves go on meanwhile.
    assert player.move(attempt, "KH>F")["version"] == 1


def test_a_free_slot_serves_the_hint_and_is_given_back(hint_attempt):
    player, attempt = hint_attempt
    for _ in range(2):
        cache.clear()
        reply = player.hint(attempt["id"])
        assert reply.status == 200 and reply.body["status"] == "solved"
    fd = hints._take_slot()  # the requests gave their slot back
    assert fd is not None
    os.close(fd)


def test_a_position_s_hint_comes_from_the_cache_the_second_time(hint_attempt, api):
    player, attempt = hint_attempt
    first = player.hint(attempt["id"])
    assert first.status == 200
    # Another player on the same position: answered with no slot free, so
    # without the solver.
    other = api()
    again = other.start("cruel", attempt["date"])
    held = hints._take_slot()
    try:
        second = other.hint(again["id"])
    finally:
        os.close(held)
    assert second.status == 200, second.body
    assert second.body == {**first.body, "version": again["version"]}


def test_hints_have_their_own_rate_per_player(hint_attempt, api, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/min", "user": "1000/min", "hint": "2/min"},
    }
    player, attempt = hint_attempt
    for _ in range(2):
        assert player.hint(attempt["id"]).status == 200
    reply = player.hint(attempt["id"])
    assert reply.status == 429 and reply.error_code == "throttled"
    assert int(reply.headers["Retry-After"]) > 0
    # Only hints: the player's moves and reads go on.
    assert player.get(f"/api/v1/attempts/{attempt['id']}").status == 200
    assert player.move(attempt, "KH>F")["version"] == 1
    # Another player has hints of its own.
    other = api()
    mine = other.start("cruel", attempt["date"])
    assert other.hint(mine["id"]).status == 200


def test_the_solver_of_a_hint_runs_in_another_process_at_a_lower_priority(monkeypatch, settings):
    pool = hints._solver_pool()
    asked = []
    submit = pool.submit

    def spy(fn, *args, **kwargs):
        asked.append(fn)
        return submit(fn, *args, **kwargs)

    monkeypatch.setattr(pool, "submit", spy)
    cache.clear()
    answer = hints.position_line(solitaire.parse_position(CRUEL_SMALL))
    assert answer == {"status": "solved", "line": answer["line"]} and answer["line"]
    assert asked == [hints.hint]
    # The process that solved it: not this one, and nicer by PLAY_HINT_NICE.
    assert submit(os.getpid).result() != os.getpid()
    expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + settings.PLAY_HINT_NICE)
    assert submit(os.getpriority, os.PRIO_PROCESS, 0).result() == expected


def test_a_solver_process_that_died_is_replaced(monkeypatch):
    pool = hints._solver_pool()
    with pytest.raises(BrokenProcessPool):  # its process exits
        pool.submit(os._exit, 1).result()
    cache.clear()
    answer = hints.position_line(solitaire.parse_position(CRUEL_SMALL))
    assert answer["status"] == "solved" and answer["line"]
    assert hints._solver_pool() is not pool


def test_a_hint_past_the_request_s_wait_is_pending_then_decided_by_the_whole_search(
        api, make_deal, today, settings, solver_calls):
    """A request waits PLAY_HINT_WAIT_SECONDS (here none) for a search that
    goes on with the whole budget: 202 pending with Retry-After, one search
    however many ask for the position meanwhile, then the decided hint,
    never an "unknown" cut short by the request."""
    settings.PLAY_HINT_WAIT_SECONDS = 0
    cache.clear()
    past = today - dt.timedelta(days=3)
    make_deal("flower", past)
    player, other = api(), api()
    attempt = player.start("flower", past.isoformat())
    theirs = other.start("flower", past.isoformat())
    first = player.get(f"/api/v1/attempts/{attempt['id']}/hint")
    assert first.status == 202, first.body
    assert first.body == {"status": "pending", "move": None, "version": 0}
    assert first.headers["Retry-After"] == str(settings.PLAY_HINT_RETRY_AFTER)
    answered = player.hint(attempt["id"])
    assert answered.status == 200 and answered.body["status"] == "solved", answered.body
    start = solitaire.parse_position(attempt["position"]["notation"])
    assert solitaire.Move.parse(answered.body["move"]) in start.legal_moves()
    # The other player on the same position: the same search's answer.
    again = other.hint(theirs["id"])
    assert again.body == {**answered.body, "version": theirs["version"]}
    assert solver_calls == [start.notation()]
