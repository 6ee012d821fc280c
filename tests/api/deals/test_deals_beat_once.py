"""Two real `celery beat` processes on one database: one holds the schedule,
the other waits and runs nothing until the first is gone (killed outright)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from private_redis import PrivateRedis
from shared_database import shared_database_url
from waiting import wait_until

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
HOLDS = "this beat holds the schedule"
WAITS = "another beat holds the schedule; this one waits"
QUEUED = "Beat start: queued prepare_upcoming_deals"


class Beat:
    def __init__(self, tmp_path: Path, name: str, env: dict):
        self.log_path = tmp_path / f"{name}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "api", "beat", "--loglevel=INFO",
             "--schedule", str(tmp_path / f"{name}-schedule")],
            cwd=ROOT, env=env, stdout=self.log_path.open("w"), stderr=subprocess.STDOUT)

    def log(self) -> str:
        return self.log_path.read_text()

    def wait_for(self, text: str, seconds: float = 60) -> None:
        def logged():
            assert self.process.poll() is None, self.log()
            return text in self.log()

        wait_until(logged, seconds=seconds, explain=self.log, every=0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)


def _senders(url: str, queue: str) -> set[int]:
    """The process ids of the beats whose messages wait in ``queue``
    (Celery's ``origin`` header: ``gen<pid>@<host>``)."""
    messages = redis.Redis.from_url(url).lrange(queue, 0, -1)
    origins = [json.loads(message)["headers"]["origin"] for message in messages]
    return {int(origin.removeprefix("gen").split("@")[0]) for origin in origins}


def test_a_second_beat_waits_until_the_first_is_gone(tmp_path):
    broker = PrivateRedis()
    broker.start()
    queue = f"test-beat-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": shared_database_url("Two beats"),
           "CELERY_BROKER_URL": broker.url, "CELERY_QUEUE": queue,
           "BEAT_LOCK_RETRY_SECONDS": "0.2", "DJANGO_SETTINGS_MODULE": "api.settings"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    first = second = None
    try:
        first = Beat(tmp_path, "first", env)
        first.wait_for(QUEUED)
        second = Beat(tmp_path, "second", env)
        second.wait_for(WAITS)
        # While the first lives, the second runs nothing, however long it waits.
        time.sleep(2)
        assert HOLDS not in second.log() and QUEUED not in second.log()
        assert "Sending due task" not in second.log()
        # Every message queued so far is the first beat's (its start-up
        # task, and any due task it sent while the second waited).
        senders = _senders(broker.url, queue)
        assert senders and senders <= {first.process.pid}, (senders, first.process.pid)

        first.process.send_signal(signal.SIGKILL)  # no goodbye: the lock goes with its connection
        first.process.wait(timeout=30)
        second.wait_for(QUEUED)
        assert HOLDS in second.log()
        assert second.process.pid in _senders(broker.url, queue)
    finally:
        for beat in (first, second):
            if beat is not None:
                beat.stop()
        broker.stop()
