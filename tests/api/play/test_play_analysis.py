"""GET /api/v1/attempts/{id}/analysis: where the win slipped away.

An attempt is played into a known loss (a move the solver proves leaves no
win) and then on; the analysis, run as the worker runs it, must name that
exact move, and a keeping move whose position the oracle (the solver with a
generous budget) proves winnable. An unknown is never a verdict. And the
rule of hints: no analysis on a deal while the player's ranked attempt on it
is in play on its day."""

from __future__ import annotations

import datetime as dt
import functools
import threading

import pytest
from certified_deals import certified
from certified_deals import known_loss as certified_known_loss
from waiting import wait_until

import solitaire
from api import clock, publish
from api.play import tasks
from api.play.attempts import post_mortem, services
from api.play.models import Attempt, AttemptAnalysis, PositionVerdict
from solitaire.solver import SolveResult, SolveStatus


def _oracle(position) -> SolveStatus:
    return solitaire.solve(position, max_seconds=30).status


def known_loss(game: str) -> tuple[str, list[str], int]:
    """(start, line, k): the certified deal played into a loss at move k
    (tests/certified_deals.py)."""
    start, certificate = certified(game)
    return (start, *certified_known_loss(start, certificate))


def _play(player, attempt: dict, line: list[str]) -> dict:
    if attempt["ranked"]:  # a ranked batch holds only moves home: one by one
        for token in line:
            attempt = player.move(attempt, token)
        return attempt
    for i in range(0, len(line), 50):
        reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                            {"moves": line[i:i + 50], "version": attempt["version"]})
        assert reply.status == 200, reply.body
        attempt = reply.body
    return attempt


def _analyse(attempt: dict) -> str:
    """Run the task's body, as a worker would."""
    return tasks.analyse_attempt.apply(args=(attempt["id"],)).get()


@pytest.fixture
def past(today):
    return today - dt.timedelta(days=3)


@pytest.fixture
def no_analysis_on_finish(settings):
    """The finish queues nothing: the test runs the worker's part itself."""
    settings.PLAY_ANALYSIS_ON_FINISH = False


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_an_attempt_played_into_a_loss_names_the_losing_move_and_a_keeping_one(
        api, make_deal, past, game, no_analysis_on_finish):
    start, line, k = known_loss(game)
    make_deal(game, past)
    player = api()
    attempt = _play(player, player.start(game, past.isoformat()), line)
    player.finish(attempt)
    assert player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body["status"] == "pending"
    assert _analyse(attempt) == "lost"

    reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis?steps=true")
    assert reply.status == 200, reply.body
    body = reply.body
    assert body["status"] == "done" and body["verdict"] == "lost"
    lost = body["lost_at"]
    assert lost["move_number"] == k and lost["move"] == line[k - 1]
    # The oracle agrees: before move k the position is winnable, the losing
    # move's position is not, the keeping move's is, and the keeping line wins.
    before = solitaire.parse_position(start)
    for token in line[:k - 1]:
        before = before.apply(solitaire.Move.parse(token))
    assert _oracle(before.apply(solitaire.Move.parse(lost["move"]))) is SolveStatus.UNSOLVABLE
    keeping = before.apply(solitaire.Move.parse(lost["keeping_move"]))
    assert _oracle(keeping) is SolveStatus.SOLVED
    won = before
    for token in lost["keeping_line"]:
        won = won.apply(solitaire.Move.parse(token))
    assert won.cards_home() == 52
    # The replay's steps: both lines, position by position.
    assert len(body["positions"]) == len(line) + 1
    assert body["positions"][k - 1] == before.notation()
    assert lost["keeping_positions"][0] == before.notation()
    assert lost["keeping_positions"][1] == keeping.notation()
    assert body["moves"] == line and body["par"]["moves"] == len(certified(game)[1].split())
    assert body["sealed"] is False  # a past day's deal: nothing left to seal


# A Flower Garden deal whose first move 2C>5 loses the win, which the solver
# proves in about a second a position (0.7-0.9 s on the README's quiet
# machine): more than the 0.3 s a probe had on the laptop default, well
# within the budget every analysis now gets.
SLOW_LOSS_SEED, SLOW_LOSS_MOVE = 3, "2C>5"


@functools.cache
def _slow_loss() -> tuple[str, str, list[str]]:
    """(start, certificate, line): the deal, its solution, and the losing
    first move followed by three more."""
    start = solitaire.deal("flower", seed=SLOW_LOSS_SEED)
    result = solitaire.solve(start, max_seconds=120)
    assert result.status is SolveStatus.SOLVED
    line, after = [SLOW_LOSS_MOVE], start.apply(solitaire.Move.parse(SLOW_LOSS_MOVE))
    for _ in range(3):
        move = after.legal_moves()[0]
        line.append(move.token())
        after = after.apply(move)
    return start.notation(), solitaire.moves_text(result.moves), line


def test_a_loss_that_takes_the_solver_seconds_gets_its_verdict_with_the_default_budget(
        api, make_deal, past, no_analysis_on_finish):
    """The settings as shipped (no budget set by the test), on PostgreSQL
    and on the laptop default alike: the verdict names the move."""
    start, certificate, line = _slow_loss()
    make_deal("flower", past, position=start, certificate=certificate)
    player = api()
    attempt = player.finish(_play(player, player.start("flower", past.isoformat()), line))
    assert _analyse(attempt) == "lost"
    body = player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body
    assert body["status"] == "done" and body["verdict"] == "lost", body
    assert body["lost_at"]["move_number"] == 1 and body["lost_at"]["move"] == SLOW_LOSS_MOVE
    position = solitaire.parse_position(start)
    assert _oracle(position.apply(solitaire.Move.parse(SLOW_LOSS_MOVE))) is SolveStatus.UNSOLVABLE
    keeping = position.apply(solitaire.Move.parse(body["lost_at"]["keeping_move"]))
    assert _oracle(keeping) is SolveStatus.SOLVED


def test_the_analysis_runs_once_and_shares_decided_positions(
        api, make_deal, past, no_analysis_on_finish):
    start, line, k = known_loss("cruel")
    make_deal("cruel", past)
    player = api()
    first = _play(player, player.start("cruel", past.isoformat()), line)
    player.finish(first)
    assert _analyse(first) == "lost"
    row = AttemptAnalysis.objects.get(pk=first["id"])
    assert row.solver_calls > 0
    # Again: claimed and done, nothing changes.
    assert _analyse(first) == "not claimed"
    again = AttemptAnalysis.objects.get(pk=first["id"])
    assert (again.verdict, again.lost_at, again.analysed_at) == (row.verdict, row.lost_at,
                                                                 row.analysed_at)
    # A second attempt on the same line finds every position decided already.
    second = _play(player, player.start("cruel", past.isoformat()), line)
    player.finish(second)
    assert _analyse(second) == "lost"
    assert AttemptAnalysis.objects.get(pk=second["id"]).solver_calls == 0
    assert PositionVerdict.objects.exists()


def test_an_attempt_the_budget_cannot_decide_reads_as_undecided(
        api, make_deal, past, no_analysis_on_finish, monkeypatch):
    start, line, k = known_loss("flower")
    make_deal("flower", past)
    player = api()
    attempt = _play(player, player.start("flower", past.isoformat()), line)
    player.finish(attempt)
    real = solitaire.solve
    end = solitaire.parse_position(attempt["position"]["notation"]).notation()

    def tight(position, **budget):  # every probe but the last position runs out of budget
        if position.notation() == end:
            return real(position, **budget)
        return SolveResult(SolveStatus.LIMIT_REACHED)

    monkeypatch.setattr(services.solitaire, "solve", tight)
    assert _analyse(attempt) == "undecided"
    body = player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body
    assert body["status"] == "done" and body["verdict"] == "undecided"
    assert body["lost_at"] is None
    # Nothing undecided was kept as if decided.
    assert PositionVerdict.objects.filter(status="unknown").count() == 0


def test_an_abandoned_attempt_still_winnable_says_so_and_a_win_reads_against_par(
        api, make_deal, past, no_analysis_on_finish):
    start, certificate = certified("cruel")
    make_deal("cruel", past)
    player = api()
    attempt = _play(player, player.start("cruel", past.isoformat()), certificate.split()[:3])
    player.finish(attempt)
    assert _analyse(attempt) == "still_winnable"
    body = player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body
    assert body["verdict"] == "still_winnable" and body["lost_at"] is None
    won = _play(player, player.start("cruel", past.isoformat()), certificate.split())
    assert won["status"] == "won"
    body = player.get(f"/api/v1/attempts/{won['id']}/analysis").body
    assert body["status"] == "done" and body["verdict"] == "won"
    assert body["mine"] == {"moves": len(certificate.split()),
                            "redeals": certificate.split().count("R")}
    assert body["par"] == body["mine"]


def test_an_attempt_in_play_has_no_analysis_yet_and_bad_ids_are_404(api, make_deal, past):
    make_deal("cruel", past)
    player = api()
    attempt = player.start("cruel", past.isoformat())
    reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis")
    assert reply.status == 409 and reply.error_code == "attempt_not_over", reply.body
    assert api().get(f"/api/v1/attempts/{attempt['id']}/analysis").status == 404
    assert player.get("/api/v1/attempts/99999999999999999999/analysis").status == 404
    reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis?steps=maybe")
    assert reply.status == 400, reply.body


# -- the rule of hints ------------------------------------------------------------------


def test_no_analysis_of_practice_while_the_ranked_attempt_is_in_play(
        api, todays_deals, no_analysis_on_finish):
    player = api(language="pt-PT")
    ranked = player.start("cruel")
    player.finish(ranked)
    practice = player.start("cruel")
    player.finish(practice)
    # The ranked attempt open again beside a finished practice one.
    Attempt.objects.filter(pk=ranked["id"]).update(ended_at=None, status="playing")
    reply = player.get(f"/api/v1/attempts/{practice['id']}/analysis")
    assert reply.status == 403 and reply.error_code == "analysis_not_yet", reply.body
    assert "tentativa classificada" in reply.body["error"]["message"]
    reply = player.get(f"/api/v1/attempts/{ranked['id']}/analysis")
    assert reply.status == 409 and reply.error_code == "attempt_not_over", reply.body
    # Finishing the ranked attempt opens both.
    player.finish(ranked | {"version": Attempt.objects.get(pk=ranked["id"]).version})
    for attempt in (practice, ranked):
        reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis")
        assert reply.status == 200 and reply.body["status"] in ("pending", "done"), reply.body


def test_analysis_is_shown_once_the_day_is_over_even_with_the_ranked_attempt_unfinished(
        api, todays_deals, today, monkeypatch, no_analysis_on_finish):
    player = api()
    ranked = player.start("flower")
    moment = clock.day_end(today) + dt.timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: moment)
    practice = player.start("flower", today.isoformat())
    player.finish(practice)
    for attempt in (practice, ranked):  # the ranked one is frozen: over
        reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis")
        assert reply.status == 200 and reply.body["status"] == "pending", reply.body
    assert services.attempt_analyse(attempt_id=ranked["id"], now=moment) == "still_winnable"


# -- sealed until the day ends -----------------------------------------------------------


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_while_the_day_lasts_the_analysis_gives_the_keeping_move_and_not_its_line(
        api, make_deal, today, game, monkeypatch, no_analysis_on_finish):
    """The moves before the losing one plus the keeping line are the day's
    win: while the day lasts the analysis gives the losing move and the one
    move that kept the win, and the line only once the day is over."""
    start, line, k = known_loss(game)
    make_deal(game, today)
    player = api()
    ranked = _play(player, player.start(game), line)
    player.finish(ranked)
    practice = _play(player, player.start(game), line)
    player.finish(practice)
    for attempt in (ranked, practice):
        assert _analyse(attempt) == "lost"
        reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis?steps=true")
        assert reply.status == 200, reply.body
        body = reply.body
        assert body["sealed"] is True and body["verdict"] == "lost"
        assert body["day_ends_at"] == clock.day_end(today).isoformat()
        assert set(body["lost_at"]) == {"move_number", "move", "keeping_move"}
        assert body["lost_at"]["move_number"] == k and body["lost_at"]["move"] == line[k - 1]
        before = solitaire.parse_position(start).play(
            tuple(solitaire.Move.parse(t) for t in line[:k - 1]))
        assert solitaire.Move.parse(body["lost_at"]["keeping_move"]) in before.legal_moves()
        # The player's own line and its positions are theirs to see.
        assert body["moves"] == line and len(body["positions"]) == len(line) + 1
        assert "keeping_line" not in str(body) and "keeping_positions" not in str(body)

    # The day is over: the same analysis in full.
    after = clock.day_end(today) + dt.timedelta(seconds=1)
    monkeypatch.setattr(clock, "now", lambda: after)
    body = player.get(f"/api/v1/attempts/{practice['id']}/analysis?steps=true").body
    assert body["sealed"] is False
    lost = body["lost_at"]
    assert lost["keeping_line"][0] == lost["keeping_move"]
    won = before.play(tuple(solitaire.Move.parse(t) for t in lost["keeping_line"]))
    assert won.cards_home() == 52
    assert len(lost["keeping_positions"]) == len(lost["keeping_line"]) + 1


# -- beat: the sweep and the post-mortem ------------------------------------------------


def test_the_post_mortem_counts_wins_and_where_the_others_lost(
        api, make_deal, today, monkeypatch, no_analysis_on_finish):
    start, line, k = known_loss("cruel")
    _start, certificate = certified("cruel")
    deal = make_deal("cruel", today)
    losers = [api(), api()]
    for player in losers:
        player.finish(_play(player, player.start("cruel"), line))
    winner = api()
    assert _play(winner, winner.start("cruel"), certificate.split())["status"] == "won"
    api().start("cruel")  # never moved: not on the board, not counted
    reply = winner.get(f"/api/v1/daily/{today.isoformat()}/cruel/post-mortem")
    assert reply.status == 404 and reply.error_code == "day_not_over", reply.body

    after = clock.day_end(today) + dt.timedelta(hours=1)
    monkeypatch.setattr(clock, "now", lambda: after)
    assert winner.get(f"/api/v1/daily/{today.isoformat()}/cruel/post-mortem").body == {
        "status": "pending"}
    assert post_mortem.post_mortems_compute(now=after) == 1
    body = winner.get(f"/api/v1/daily/{today.isoformat()}/cruel/post-mortem").body
    assert body["status"] == "done"
    assert body["ranked"] == 3 and body["won"] == 1 and body["lost"] == 2
    assert body["lost_at"] == [{"move_number": k, "count": 2}]
    assert body["losing_moves"] == [{"move_number": k, "move": line[k - 1], "count": 2}]
    assert body["par"] == {"moves": deal.solution_length, "redeals": deal.redeals}
    # Done: beat leaves it alone from now on.
    assert post_mortem.post_mortems_compute(now=after) == 0


def test_finishing_queues_the_analysis_and_the_sweep_recovers_a_lost_one(
        api, make_deal, past, monkeypatch):
    queued = []
    # Services queue the task by its name; Celery hands that to the task's apply_async.
    monkeypatch.setattr(tasks.analyse_attempt, "apply_async",
                        lambda args=(), kwargs=None, **options: queued.append(args[0]))
    make_deal("cruel", past)
    player = api()
    attempt = player.start("cruel", past.isoformat())
    player.finish(attempt)
    # Once the finish committed and its answer was sent (api.publish).
    wait_until(lambda: queued, seconds=10, explain="the finish queued nothing")
    assert queued == [attempt["id"]]
    player.finish(attempt)  # finishing twice changes nothing, queues nothing
    assert publish.PUBLISHER.wait_idle(timeout=10)
    assert queued == [attempt["id"]]
    # The message was lost: beat's sweep queues it again once the claim
    # window has passed, and not after the analysis is done.
    later = clock.now() + dt.timedelta(hours=1)
    assert services.analyses_sweep(now=later) == 1 and queued[-1] == attempt["id"]
    # The sweep runs in a worker, outside any request: published at once.
    assert services.attempt_analyse(attempt_id=attempt["id"], now=later) == "still_winnable"
    assert services.analyses_sweep(now=later) == 0


def test_a_broker_that_is_down_does_not_fail_the_finish(api, make_deal, past, monkeypatch):
    def down(args=(), kwargs=None, **options):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(tasks.analyse_attempt, "apply_async", down)
    make_deal("flower", past)
    player = api()
    attempt = player.start("flower", past.isoformat())
    assert player.finish(attempt)["status"] == "abandoned"
    reply = player.get(f"/api/v1/attempts/{attempt['id']}/analysis")
    assert reply.status == 200 and reply.body["status"] == "pending", reply.body


def test_without_a_broker_analyses_run_after_the_answer_one_at_a_time(
        api, make_deal, past, monkeypatch):
    """The embedded default: the finish is answered first, then this
    process's publisher thread runs the analyses, never two at once."""
    from api import celery_app

    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    release = threading.Event()
    running, most, analysed = [0], [0], []
    lock = threading.Lock()
    analyse = services.attempt_analyse

    def held_analyse(*, attempt_id, now):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(30)
        try:
            return analyse(attempt_id=attempt_id, now=now)
        finally:
            with lock:
                running[0] -= 1
                analysed.append(attempt_id)

    monkeypatch.setattr(services, "attempt_analyse", held_analyse)
    make_deal("cruel", past)
    players = [api(), api()]
    attempts = [player.start("cruel", past.isoformat()) for player in players]
    for player, attempt in zip(players, attempts):
        assert player.finish(attempt)["status"] == "abandoned"  # answered while held
    wait_until(lambda: running[0] == 1, seconds=10, explain="no analysis started")
    assert analysed == []
    release.set()
    wait_until(lambda: len(analysed) == 2, seconds=60, explain=lambda: f"analysed {analysed}")
    assert most[0] == 1
    assert sorted(analysed) == sorted(a["id"] for a in attempts)
    for player, attempt in zip(players, attempts):
        body = player.get(f"/api/v1/attempts/{attempt['id']}/analysis").body
        assert body["status"] == "done" and body["verdict"] == "still_winnable", body
