"""CACHE_URL and CELERY_BROKER_URL through Redis Sentinel, for real: a
master, a replica and three sentinels of the test's own; the cache, a rate
log, a task's publish and the health checks work through them, and again
after the master is killed and a sentinel has promoted the replica."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from waiting import wait_until

# Real redis-server and redis-sentinel processes: not the embedded default.
pytestmark = pytest.mark.production

ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server") or "redis-server"
MASTER_NAME = "solitaire-test"
MASTER, REPLICA = 6390, 6391
SENTINELS = (26390, 26391, 26392)


def _wait(condition, *, seconds: float, explain: str):
    """wait_until, a Redis that does not answer yet counting as not yet."""
    def tolerant():
        try:
            return condition()
        except (redis.RedisError, OSError):
            return None

    return wait_until(tolerant, seconds=seconds, explain=explain, every=0.1)


@pytest.fixture
def sentinel_group(tmp_path):
    processes: dict[int, subprocess.Popen] = {}

    def start(port: int, *args: str) -> None:
        processes[port] = subprocess.Popen(
            [REDIS, *args], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(lambda: redis.Redis(port=port, socket_timeout=0.5).ping(), seconds=10,
              explain=f"redis on {port} did not start")

    common = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    start(MASTER, "--port", str(MASTER), *common)
    start(REPLICA, "--port", str(REPLICA), *common, "--replicaof", "127.0.0.1", str(MASTER))
    for port in SENTINELS:
        conf = tmp_path / f"sentinel-{port}.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\n"
            f"sentinel monitor {MASTER_NAME} 127.0.0.1 {MASTER} 2\n"
            f"sentinel down-after-milliseconds {MASTER_NAME} 1000\n"
            f"sentinel failover-timeout {MASTER_NAME} 5000\n")
        start(port, str(conf), "--sentinel")
    try:
        yield processes
    finally:
        for process in processes.values():
            process.kill()
            process.wait(timeout=10)


def master_port() -> int:
    return int(redis.Redis(port=SENTINELS[0]).sentinel_get_master_addr_by_name(MASTER_NAME)[1])


# One process for the whole test, as a web process lives through a failover:
# each line on its stdin runs a round (cache, rate log, publish, health),
# tried again until it all goes through (the breakers skip a failed Redis
# for CACHE_RETRY_SECONDS, BROKER_RETRY_SECONDS), and prints what it got.
SCRIPT = """
import json, sys, time
from django.core.cache import cache
from api import publish
from api.deals.health import health_checks
from api.outages import CacheSkipped
for line in sys.stdin:
    deadline = time.monotonic() + 60
    while True:
        try:
            cache.set("seen", 7)
            verdict = cache.rate_log("sentinel", now=time.time(), duration=60, limit=5)
            publish.BREAKER.call(publish._publish,
                                 publish.Job("api.deals.tasks.prepare_upcoming_deals", (), {}))
            answer = {"seen": cache.get("seen"), "allowed": verdict.allowed, **health_checks()}
            break
        except Exception as error:
            assert time.monotonic() < deadline, repr(error)
            time.sleep(0.2)
    print(json.dumps(answer), flush=True)
"""


class App:
    def __init__(self, **env: str):
        environ = {k: v for k, v in os.environ.items()
                   if k not in ("CACHE_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER")}
        environ.update(env, DEBUG="true", DJANGO_SETTINGS_MODULE="api.settings",
                       CACHE_RETRY_SECONDS="0.5", BROKER_RETRY_SECONDS="0.5")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", SCRIPT], cwd=ROOT,
            env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def round(self) -> dict:
        import json

        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the app process ended"
        return json.loads(line)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


def test_the_cache_and_the_broker_follow_the_master_through_a_failover(sentinel_group):
    sentinels = ";".join(f"sentinel://127.0.0.1:{port}/{{db}}" for port in SENTINELS)
    env = {"CACHE_URL": sentinels.format(db=1), "CELERY_BROKER_URL": sentinels.format(db=0),
           "REDIS_SENTINEL_MASTER": MASTER_NAME, "CELERY_QUEUE": "sentinel-test"}
    # The sentinels know the replica before the master may fail.
    _wait(lambda: redis.Redis(port=SENTINELS[0]).sentinel_slaves(MASTER_NAME), seconds=30,
          explain="the sentinels never saw the replica")

    app = App(**env)
    try:
        answer = app.round()
        assert answer == {"seen": 7, "allowed": True, "database": "ok", "cache": "ok",
                          "broker": "ok"}
        assert redis.Redis(port=MASTER, db=0).llen("sentinel-test") == 1
        assert any(key.endswith(b"seen") for key in redis.Redis(port=MASTER, db=1).keys())
        _wait(lambda: redis.Redis(port=REPLICA, db=0).llen("sentinel-test") == 1, seconds=10,
              explain="the replica did not get the task")

        sentinel_group[MASTER].send_signal(signal.SIGKILL)
        _wait(lambda: master_port() == REPLICA, seconds=60, explain="no failover to the replica")
        _wait(lambda: redis.Redis(port=REPLICA).info("replication")["role"] == "master",
              seconds=30, explain="the replica was not promoted")

        # The same process, its pools made before: they find the new master.
        answer = app.round()
        assert answer == {"seen": 7, "allowed": True, "database": "ok", "cache": "ok",
                          "broker": "ok"}
        # The first task came over with the replica, the second went to it.
        assert redis.Redis(port=REPLICA, db=0).llen("sentinel-test") == 2
    finally:
        app.stop()
