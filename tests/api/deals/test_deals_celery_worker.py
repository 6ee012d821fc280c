"""End to end: real Celery worker processes, the Redis broker, the test
PostgreSQL database. Deals are queued on commit, a worker claims and
verifies them, and this process reads the certificates back."""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.db import transaction
from shared_database import shared_database_url
from waiting import wait_until

import solitaire
from api import celery_app
from api.clock import today
from api.deals.models import DailyDeal
from api.deals.services import (
    deal_enqueue_verification,
    deal_position,
    deal_prepare,
    deal_seed,
)
from solitaire.solver import SolveStatus, solve

# A real worker process over the Redis broker: not the embedded default.
pytestmark = pytest.mark.production

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def worker_queue(settings):
    """A queue of this test's own, so no message left by another run reaches its workers."""
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.fail("the worker tests need the Redis broker: run scripts/test (CELERY_BROKER_URL=redis://...)")
    queue = f"test-deals-{uuid.uuid4().hex[:12]}"
    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        yield queue
    finally:
        conf.task_always_eager, conf.task_default_queue = previous
        broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        broker.delete(queue)


class Worker:
    def __init__(self, process: subprocess.Popen, log_path: Path):
        self.process = process
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text()

    def alive(self) -> bool:
        return self.process.poll() is None

    def children(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_all(self) -> None:
        """SIGKILL to the worker and its pool's children at once."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def start_worker(worker_queue, settings, tmp_path, transactional_db):
    """start_worker(**env) -> a running `celery -A api worker` on the test database."""
    workers: list[Worker] = []

    def start(pool: str = "solo", **env_overrides: str) -> Worker:
        log_path = tmp_path / f"worker-{len(workers)}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "api.settings",
            "DATABASE_URL": shared_database_url("the worker tests"),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_QUEUE": worker_queue,
            "DEAL_SEED_SECRET": settings.DEAL_SEED_SECRET,
            "DAILY_TIME_ZONE": settings.DAILY_TIME_ZONE,
            "DEAL_SOLVE_MAX_SECONDS": str(settings.DEAL_SOLVE_MAX_SECONDS),
            "DEAL_SOLVE_MAX_NODES": str(settings.DEAL_SOLVE_MAX_NODES),
            "DEAL_MAX_CANDIDATES": str(settings.DEAL_MAX_CANDIDATES),
            **env_overrides,
        }
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "api", "worker",
                    f"--pool={pool}", "--concurrency=1", "--loglevel=INFO", "--queues", worker_queue,
                    "--hostname", f"{worker_queue}-{len(workers)}@%h",
                    "--without-gossip", "--without-mingle", "--without-heartbeat",
                ],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed as a whole
            )
        worker = Worker(process, log_path)
        workers.append(worker)
        wait_until(
            lambda: " ready." in worker.log() or not worker.alive(),
            seconds=60, explain=lambda: f"the worker did not start:\n{worker.log()}",
        )
        assert worker.alive(), f"the worker exited early:\n{worker.log()}"
        return worker

    yield start
    for worker in workers:
        worker.stop()


def _wait_for_outcome(deal: DailyDeal, worker: Worker, *, seconds: float) -> None:
    def settled():
        assert worker.alive(), f"the worker died:\n{worker.log()}"
        deal.refresh_from_db()
        return deal.state in (DailyDeal.State.VERIFIED, DailyDeal.State.FAILED)

    wait_until(settled, seconds=seconds, explain=lambda: f"still {deal.state}:\n{worker.log()}")


def test_a_real_worker_verifies_a_deal_queued_through_redis(start_worker, a_date, replay):
    worker = start_worker()

    with transaction.atomic():
        deal = deal_prepare(game="cruel", date=a_date)
        # Nothing is sent before the row is committed, so the worker always finds it.

    _wait_for_outcome(deal, worker, seconds=240)
    assert deal.state == DailyDeal.State.VERIFIED, deal.failure
    assert replay(deal.position, deal.certificate).position.cards_home() == 52
    assert deal.solution_length == len(deal.certificate.split())
    log = worker.log()
    assert "api.deals.tasks.verify_deal" in log and "succeeded" in log and "'verified'" in log

    # The same task again, through the broker: the claim makes it a no-op.
    certificate = deal.certificate
    with transaction.atomic():
        deal_enqueue_verification(deal_id=deal.pk)
    wait_until(lambda: "'not claimed'" in worker.log(), seconds=60, explain=worker.log)
    deal.refresh_from_db()
    assert (deal.state, deal.certificate) == (DailyDeal.State.VERIFIED, certificate)


# Node budgets, not seconds, so that the solver's answers do not depend on the machine's load.
SMALL_BUDGET_NODES = 50_000
# Not settled within this many nodes means seconds of search even in C (the
# first phase alone takes 30% of it), far longer than the test takes to kill.
LONG_BUDGET_NODES = 5_000_000


# Seconds of search a candidate: the tests that need one run on one xdist
# worker (LONG_CANDIDATE), which finds it once.
LONG_CANDIDATE = pytest.mark.xdist_group("deals-long-candidate")


@functools.cache
def _a_candidate_the_solver_needs_long_for(game: str, date) -> int:
    """One not settled within LONG_BUDGET_NODES: the first worker is surely
    still solving it when killed, and the second, on SMALL_BUDGET_NODES,
    moves past it."""
    for candidate in range(60):
        position = deal_position(game=game, seed=deal_seed(game=game, date=date, candidate=candidate))
        result = solve(solitaire.parse_position(position), max_nodes=LONG_BUDGET_NODES)
        if result.status == SolveStatus.LIMIT_REACHED:
            return candidate
    pytest.fail(f"every {game} candidate of {date} was settled within {LONG_BUDGET_NODES} nodes")


# The second worker's visibility timeout: a message unacknowledged for longer
# is given to it again.
VISIBILITY_SECONDS = 2


def _unacked_for(broker: redis.Redis, task_id: str) -> float:
    """Seconds the task's message has waited unacknowledged in the Redis
    broker (kombu's ``unacked`` hash and its ``unacked_index`` of delivery
    times); -1 while it is not there."""
    for tag, payload in broker.hgetall("unacked").items():
        if task_id.encode() in payload:
            delivered = broker.zscore("unacked_index", tag)
            return -1.0 if delivered is None else time.time() - delivered
    return -1.0


@LONG_CANDIDATE
def test_a_worker_killed_halfway_leaves_the_deal_to_the_next_worker(start_worker, a_date, replay, settings):
    game = "flower"
    candidate = _a_candidate_the_solver_needs_long_for(game, a_date)
    seed = deal_seed(game=game, date=a_date, candidate=candidate)
    deal = DailyDeal.objects.create(
        game=game, date=a_date, candidate=candidate, seed=seed,
        position=deal_position(game=game, seed=seed),
    )
    first = start_worker(DEAL_SOLVE_MAX_SECONDS="600", DEAL_SOLVE_MAX_NODES="1000000000")
    with transaction.atomic():
        deal_enqueue_verification(deal_id=deal.pk)

    def claimed():
        deal.refresh_from_db()
        return deal.state == DailyDeal.State.VERIFYING

    wait_until(claimed, seconds=60, explain=first.log)
    first.process.send_signal(signal.SIGKILL)  # no chance to release anything
    first.process.wait()
    deal.refresh_from_db()
    assert (deal.state, deal.candidate) == (DailyDeal.State.VERIFYING, candidate)
    task_id = re.search(r"verify_deal\[([0-9a-f-]+)\] received", first.log()).group(1)

    # The task was never acknowledged, so Redis gives it to the next worker
    # once the visibility timeout passes; that worker finds the claim stale.
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    wait_until(
        lambda: _unacked_for(broker, task_id) > VISIBILITY_SECONDS, seconds=30,
        explain=lambda: f"task {task_id} is not waiting unacknowledged in the broker",
    )
    second = start_worker(
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_SECONDS), DEAL_CLAIM_STALE_SECONDS="2",
        DEAL_SOLVE_MAX_SECONDS="600", DEAL_SOLVE_MAX_NODES=str(SMALL_BUDGET_NODES),
        DEAL_MAX_CANDIDATES=str(candidate + 40),
    )

    _wait_for_outcome(deal, second, seconds=300)
    assert f"verify_deal[{task_id}] received" in second.log()
    assert deal.state == DailyDeal.State.VERIFIED, deal.failure
    assert deal.candidate > candidate  # the second worker, on a smaller budget, moved on
    assert replay(deal.position, deal.certificate).position.cards_home() == 52


def test_a_new_stack_prepares_todays_deals_when_beat_starts(start_worker, worker_queue, settings,
                                                             tmp_path):
    """Beat's schedule runs at minute 7 of each hour; a stack that starts in
    between must not wait for it to have a deal."""
    start_worker(DEALS_DAYS_AHEAD="0", DEAL_SOLVE_MAX_SECONDS="1", DEAL_MAX_CANDIDATES="1")
    log_path = tmp_path / "beat.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "api.settings",
        "DATABASE_URL": shared_database_url("the worker tests"),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": worker_queue,
        "DAILY_TIME_ZONE": settings.DAILY_TIME_ZONE,
    }
    with open(log_path, "w") as log:
        beat = Worker(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "api", "beat", "--loglevel=INFO",
             "--schedule", str(tmp_path / "celerybeat-schedule")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        ), log_path)
    try:
        wait_until(
            lambda: DailyDeal.objects.filter(date=today()).count() == 2 or not beat.alive(),
            seconds=90, explain=lambda: f"no deal for today:\n{beat.log()}",
        )
        assert beat.alive(), beat.log()
    finally:
        beat.stop()
    assert set(DailyDeal.objects.filter(date=today()).values_list("game", flat=True)) == {
        "cruel", "flower"
    }
    assert "queued prepare_upcoming_deals" in beat.log()


# Each candidate gets a few seconds; the first one (see above) needs far more,
# so the worker is still on it when killed, and moves on once given it again.
SHORT_CANDIDATE_ENV = {"DEAL_SOLVE_MAX_SECONDS": "3", "DEAL_SOLVE_MAX_NODES": "1000000000"}


def _a_deal_being_verified(game, date, worker, candidate):
    seed = deal_seed(game=game, date=date, candidate=candidate)
    deal = DailyDeal.objects.create(
        game=game, date=date, candidate=candidate, seed=seed,
        position=deal_position(game=game, seed=seed),
    )
    with transaction.atomic():
        deal_enqueue_verification(deal_id=deal.pk)

    def claimed():
        deal.refresh_from_db()
        return deal.state == DailyDeal.State.VERIFYING

    wait_until(claimed, seconds=60, explain=worker.log)
    task_id = re.search(r"verify_deal\[([0-9a-f-]+)\] received", worker.log()).group(1)
    return deal, task_id


@LONG_CANDIDATE
def test_a_killed_pool_child_gives_the_task_back_and_it_takes_its_own_claim_over(
    start_worker, a_date, replay
):
    game = "flower"
    candidate = _a_candidate_the_solver_needs_long_for(game, a_date)
    worker = start_worker(pool="prefork", **SHORT_CANDIDATE_ENV,
                          DEAL_CLAIM_STALE_SECONDS="3600", DEAL_MAX_CANDIDATES=str(candidate + 40))
    deal, task_id = _a_deal_being_verified(game, a_date, worker, candidate)
    (child,) = worker.children()

    os.kill(child, signal.SIGKILL)  # the child dies mid-candidate; the worker lives

    _wait_for_outcome(deal, worker, seconds=60)
    assert deal.state == DailyDeal.State.VERIFIED, deal.failure
    assert replay(deal.position, deal.certificate).position.cards_home() == 52
    log = worker.log()
    assert log.count(f"verify_deal[{task_id}] received") == 2, log
    assert "'not claimed'" not in log


@LONG_CANDIDATE
def test_a_whole_worker_killed_is_covered_by_the_next_worker_within_a_minute(
    start_worker, a_date, replay
):
    game = "flower"
    candidate = _a_candidate_the_solver_needs_long_for(game, a_date)
    env = {**SHORT_CANDIDATE_ENV, "CELERY_VISIBILITY_TIMEOUT": "15", "CELERY_RESTORE_INTERVAL": "1",
           "DEAL_CLAIM_STALE_SECONDS": "3600", "DEAL_MAX_CANDIDATES": str(candidate + 40)}
    first = start_worker(pool="prefork", **env)
    deal, task_id = _a_deal_being_verified(game, a_date, first, candidate)

    first.kill_all()  # nothing acknowledged, nothing released
    # Started at once: its first sweep finds the task not yet past the
    # visibility timeout, so only the periodic sweep can give it back.
    second = start_worker(pool="prefork", **env)

    # Within the minute: the wait's own ceiling.
    _wait_for_outcome(deal, second, seconds=60)
    assert deal.state == DailyDeal.State.VERIFIED, deal.failure
    assert f"verify_deal[{task_id}] received" in second.log()
    assert "'not claimed'" not in second.log()
    assert replay(deal.position, deal.certificate).position.cards_home() == 52
