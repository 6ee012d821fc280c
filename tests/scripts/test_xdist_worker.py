"""tests/xdist_worker.py: each parallel worker's broker is a Redis database
of its own, so no two workers share a queue or Celery's bookkeeping keys."""

import os
import subprocess
import sys
from pathlib import Path

from xdist_worker import worker_broker_url

ROOT = Path(__file__).resolve().parents[2]


def test_each_worker_gets_the_next_redis_database_and_the_rest_is_kept():
    assert worker_broker_url("redis://127.0.0.1:6379/7", "gw0") == "redis://127.0.0.1:6379/7"
    assert worker_broker_url("redis://127.0.0.1:6379/7", "gw2") == "redis://127.0.0.1:6379/9"
    assert worker_broker_url("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"
    assert worker_broker_url("redis://:pw@redis:6379/15?x=1", "gw1") == "redis://:pw@redis:6379/0?x=1"


def test_two_workers_of_a_run_see_two_brokers(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_broker.py").write_text(
        "import os\n"
        "def test_write():\n"
        "    with open(os.environ['OUT'], 'a') as out:\n"
        "        out.write(os.environ['PYTEST_XDIST_WORKER'] + ' ' + os.environ['CELERY_BROKER_URL'] + '\\n')\n"
    )
    out = tmp_path / "seen.txt"
    env = {**os.environ, "OUT": str(out), "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"}
    for name in ("PYTEST_XDIST_WORKER", "TEST_BROKER_OF_WORKER"):
        env.pop(name, None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.xdist_worker", "-p", "no:django", "-p", "no:cacheprovider",
         "-n", "2", "--dist", "each", "-c", str(tmp_path / "pytest.ini"), "-q", str(tmp_path / "test_broker.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert sorted(out.read_text().splitlines()) == [
        "gw0 redis://127.0.0.1:6379/3", "gw1 redis://127.0.0.1:6379/4"]
