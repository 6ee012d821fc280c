"""A broker that hangs costs no request: gunicorn on the test PostgreSQL
database, a Redis of the test's own as the broker with a real Celery worker
on it. The broker is stopped (SIGSTOP: connections accepted, nothing
answered) for 20 s while 10 players finish at once and others keep moving:
every finish, every move and /health/ is answered while the broker still
hangs (none waits it out), and once the broker is back every analysis is
done, none lost. Their pace is a benchmark's to measure, not a test's."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from private_redis import PrivateRedis, free_port
from shared_database import shared_database_url
from waiting import wait_until

from api.play.models import Attempt, AttemptAnalysis

# gunicorn, PostgreSQL and a real worker: not the embedded default.
pytestmark = pytest.mark.production

ROOT = Path(__file__).resolve().parents[3]
GUNICORN = Path(sys.executable).with_name("gunicorn")

HANG_SECONDS = 20
FINISHERS = 10
MOVERS = 6


def _log(path: Path) -> str:
    return path.read_text(errors="replace")[-4000:] if path.exists() else ""


@pytest.fixture
def stack(tmp_path, transactional_db, settings, bare_api):
    """A broker of the test's own, gunicorn (DEBUG off, 2 workers of 4
    threads) and a Celery worker on it; yields (player, broker): player()
    is a new visitor of that server."""
    broker = PrivateRedis()
    broker.start()
    # The cache on the suite's Redis (the test's database there), keys of its own.
    cache_url = settings.CELERY_BROKER_URL
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "CELERY_BROKER_URL")}
    env.update({
        "DEBUG": "false", "SECRET_KEY": "broker-hang-test-secret-key-not-for-production-0123",
        "DEAL_SEED_SECRET": settings.DEAL_SEED_SECRET, "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": shared_database_url("the broker test"), "CELERY_BROKER_URL": broker.url,
        "CACHE_URL": cache_url, "CACHE_KEY_PREFIX": f"broker-hang-{uuid.uuid4().hex[:8]}",
        "DAILY_TIME_ZONE": settings.DAILY_TIME_ZONE,
        "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false", "WHITENOISE_USE_FINDERS": "true",
        "API_THROTTLE_ANON": "100000/min", "API_THROTTLE_USER": "100000/min",
        # Many guests from one address: the guest limits would refuse the finishers.
        "API_THROTTLE_GUEST_BURST": "100000/min", "API_THROTTLE_GUEST": "100000/hour",
        "PORT": str(port), "WEB_CONCURRENCY": "2", "GUNICORN_THREADS": "4",
        "METRICS_PORT": "0", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "GUNICORN_ACCESS_LOG": "", "LOG_LEVEL": "warning",
        # Short analyses: this test is about their delivery, not their verdicts.
        "PLAY_ANALYSIS_MAX_SECONDS": "0.2", "PLAY_ANALYSIS_MAX_NODES": "50000",
    })
    processes = []
    web_log, worker_log = tmp_path / "gunicorn.log", tmp_path / "worker.log"
    try:
        with open(web_log, "w") as out:
            processes.append(subprocess.Popen(
                [str(GUNICORN), "--config", "deploy/gunicorn.conf.py", "api.wsgi"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        with open(worker_log, "w") as out:
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "api", "worker", "--pool=solo",
                 "--loglevel=INFO", "--without-gossip", "--without-mingle",
                 "--without-heartbeat"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        url = f"http://127.0.0.1:{port}"
        probe = bare_api()
        probe.base_url = url

        def serving():
            assert all(p.poll() is None for p in processes), _log(web_log) + _log(worker_log)
            try:
                return probe.get("/health/").status == 200
            except OSError:
                return False

        wait_until(serving, seconds=90, explain=lambda: _log(web_log))
        wait_until(lambda: " ready." in _log(worker_log), seconds=90,
                   explain=lambda: _log(worker_log))
        def player():
            client = bare_api()
            client.base_url = url
            assert client.get("/api/v1/me").status == 200  # the guest, its CSRF cookie
            return client

        yield player, broker
    finally:
        broker.resume()
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        broker.stop()


def _timed(call):
    began = time.perf_counter()
    result = call()
    return time.perf_counter() - began, result


def _keep_moving(player, stop: threading.Event, latencies: list, lock) -> None:
    """A move, then its undo, each timed, a few a second, until ``stop``:
    the attempt never ends, so the mover queues nothing itself."""
    attempt = player.start("cruel")
    while not stop.is_set():
        legal = attempt["legal"][0]
        seconds, reply = _timed(lambda: player.post(
            f"/api/v1/attempts/{attempt['id']}/moves",
            {"move": f"{legal['card']}>{legal['targets'][0]}", "version": attempt["version"]}))
        assert reply.status == 200, reply.body
        with lock:
            latencies.append((time.monotonic(), seconds))
        attempt = reply.body
        seconds, reply = _timed(lambda: player.post(
            f"/api/v1/attempts/{attempt['id']}/undo", {"version": attempt["version"]}))
        assert reply.status == 200, reply.body
        with lock:
            latencies.append((time.monotonic(), seconds))
        attempt = reply.body
        stop.wait(0.1)


def test_a_hung_broker_costs_no_request_and_loses_no_analysis(stack, make_deal, today):
    player, broker = stack
    past = today - dt.timedelta(days=2)
    make_deal("cruel", today)
    make_deal("flower", past)

    # Before the hang: a finish's analysis goes through the broker to the worker.
    first = player()
    attempt = first.start("flower", past.isoformat())
    first.finish(attempt)
    wait_until(lambda: AttemptAnalysis.objects.filter(
        pk=attempt["id"], state=AttemptAnalysis.State.DONE).exists(), seconds=60,
        explain="the worker never analysed the attempt finished before the hang")

    finishers = [player() for _ in range(FINISHERS)]
    to_finish = [player.start("flower", past.isoformat()) for player in finishers]
    movers = [player() for _ in range(MOVERS)]
    stop, lock, latencies = threading.Event(), threading.Lock(), []
    moving = [threading.Thread(target=_keep_moving, args=(m, stop, latencies, lock))
              for m in movers]
    for thread in moving:
        thread.start()
    wait_until(lambda: len(latencies) >= 4 * MOVERS, seconds=30, explain="the movers never moved")

    broker.hang()
    hung_at = time.monotonic()
    finishes: list[tuple[float, dict]] = []
    start_together = threading.Barrier(FINISHERS)

    def finish(player, attempt):
        start_together.wait()
        seconds, reply = _timed(lambda: player.post(f"/api/v1/attempts/{attempt['id']}/finish"))
        with lock:
            finishes.append((seconds, reply))

    finishing = [threading.Thread(target=finish, args=pair)
                 for pair in zip(finishers, to_finish)]
    for thread in finishing:
        thread.start()
    for thread in finishing:
        thread.join()
    health_seconds, health = _timed(lambda: first.get("/health/"))
    # One more finish later in the hang, once the publishers have failed.
    late = player()
    late_attempt = late.start("flower", past.isoformat())
    wait_until(lambda: time.monotonic() - hung_at > HANG_SECONDS / 2, seconds=HANG_SECONDS)
    late_seconds, late_reply = _timed(
        lambda: late.post(f"/api/v1/attempts/{late_attempt['id']}/finish"))
    wait_until(lambda: time.monotonic() - hung_at >= HANG_SECONDS, seconds=HANG_SECONDS + 5)
    # Still hung: nothing reached the worker.
    finished_ids = [a["id"] for a in to_finish] + [late_attempt["id"]]
    assert not AttemptAnalysis.objects.filter(
        pk__in=finished_ids, state=AttemptAnalysis.State.DONE).exists()
    broker.resume()
    resumed_at = time.monotonic()
    stop.set()
    for thread in moving:
        thread.join(timeout=30)

    # No request waited for the broker: every finish, the moves and /health/
    # were answered while it still hung (a request that waited on it would
    # take the whole hang), and the moves went on all through it. How fast
    # they were is the load benchmark's to say, not this test's.
    waited_out = HANG_SECONDS / 2
    assert [reply.status for _s, reply in finishes] == [200] * FINISHERS
    assert max(seconds for seconds, _r in finishes) < waited_out, finishes
    assert late_reply.status == 200 and late_seconds < waited_out, late_seconds
    during = [seconds for at, seconds in latencies if hung_at <= at <= resumed_at]
    assert len(during) > 100, len(during)
    assert max(during) < waited_out, sorted(during)[-10:]
    # /health/ answers, the broker named as the part that is down.
    assert health_seconds < waited_out, health_seconds
    assert health.status == 200 and health.body["status"] == "degraded", health.body
    assert health.body["checks"]["broker"].startswith("unavailable"), health.body
    assert health.body["checks"]["database"] == "ok" == health.body["checks"]["cache"]

    # Once the broker is back, the kept tasks go out: every analysis done, none lost.
    def all_done():
        return AttemptAnalysis.objects.filter(
            pk__in=finished_ids, state=AttemptAnalysis.State.DONE).count() == len(finished_ids)

    wait_until(all_done, seconds=90, explain=lambda: (
        f"{AttemptAnalysis.objects.filter(pk__in=finished_ids, state='done').count()} of "
        f"{len(finished_ids)} analyses done"))
    assert set(Attempt.objects.filter(pk__in=finished_ids).values_list("status", flat=True)) == {
        "abandoned"}
