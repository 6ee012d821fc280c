"""End to end: a real Celery worker process, the Redis broker, the test
PostgreSQL database. The deal is queued on commit, the worker claims and
verifies it, and this process reads the certificate back."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection, transaction

from api import celery_app
from api.deals.models import DailyDeal
from api.deals.services import deal_prepare

ROOT = Path(__file__).resolve().parents[3]


def test_database_url() -> str:
    """The URL of the database this test run uses (pytest-django's test_ database)."""
    db = connection.settings_dict
    if not db["ENGINE"].endswith("postgresql"):
        pytest.fail("the worker test needs PostgreSQL: run scripts/test (DATABASE_URL=postgres://...)")
    auth = quote(db["USER"], safe="") + (f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else "")
    host = db["HOST"] or "localhost"
    port = db["PORT"] or "5432"
    return f"postgres://{auth}@{host}:{port}/{quote(db['NAME'], safe='')}"


test_database_url.__test__ = False  # a helper, not a test


@pytest.fixture
def worker_queue(settings):
    """A queue of this test's own, so no message left by another run reaches the worker."""
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.fail("the worker test needs the Redis broker: run scripts/test (CELERY_BROKER_URL=redis://...)")
    queue = f"test-deals-{uuid.uuid4().hex[:12]}"
    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        yield queue
    finally:
        conf.task_always_eager, conf.task_default_queue = previous
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(queue)


@pytest.fixture
def celery_worker(worker_queue, settings, tmp_path, transactional_db):
    log_path = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "api.settings",
        "DATABASE_URL": test_database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_QUEUE": worker_queue,
        "DEAL_SEED_SECRET": settings.DEAL_SEED_SECRET,
        "DAILY_TIME_ZONE": settings.DAILY_TIME_ZONE,
        "DEAL_SOLVE_MAX_SECONDS": str(settings.DEAL_SOLVE_MAX_SECONDS),
        "DEAL_SOLVE_MAX_NODES": str(settings.DEAL_SOLVE_MAX_NODES),
        "DEAL_MAX_CANDIDATES": str(settings.DEAL_MAX_CANDIDATES),
    }
    with open(log_path, "w") as log:
        worker = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "api", "worker",
                "--pool=solo", "--loglevel=INFO", "--queues", worker_queue,
                "--hostname", f"{worker_queue}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    read_log = log_path.read_text
    try:
        deadline = time.monotonic() + 60
        while " ready." not in read_log():
            assert worker.poll() is None, f"the worker exited early:\n{read_log()}"
            assert time.monotonic() < deadline, f"the worker did not start:\n{read_log()}"
            time.sleep(0.2)
        yield worker, read_log
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def test_a_real_worker_verifies_a_deal_queued_through_redis(celery_worker, a_date, replay):
    worker, read_log = celery_worker

    with transaction.atomic():
        deal = deal_prepare(game="cruel", date=a_date)
        # Nothing is sent before the row is committed, so the worker always finds it.

    deadline = time.monotonic() + 240
    while deal.state not in (DailyDeal.State.VERIFIED, DailyDeal.State.FAILED):
        assert worker.poll() is None, f"the worker died:\n{read_log()}"
        assert time.monotonic() < deadline, f"not verified in time ({deal.state}):\n{read_log()}"
        time.sleep(0.25)
        deal.refresh_from_db()

    assert deal.state == DailyDeal.State.VERIFIED, deal.failure
    assert replay(deal.position, deal.certificate).position.cards_home() == 52
    assert deal.solution_length == len(deal.certificate.split())
    log = read_log()
    assert "api.deals.tasks.verify_deal" in log and "succeeded" in log and "'verified'" in log

    # The same task again, through the broker: the claim makes it a no-op.
    certificate = deal.certificate
    celery_app.send_task("api.deals.tasks.verify_deal", args=[deal.pk], queue=celery_app.conf.task_default_queue)
    deadline = time.monotonic() + 60
    while "'not claimed'" not in read_log():
        assert time.monotonic() < deadline, read_log()
        time.sleep(0.25)
    deal.refresh_from_db()
    assert (deal.state, deal.certificate) == (DailyDeal.State.VERIFIED, certificate)
