"""A pytest plugin for the parallel run (scripts/test loads it with
`-p tests.xdist_worker`): each xdist worker gets a Redis database of its own
for the broker, so queues, Celery's unacknowledged-task keys and any test's
keys never meet another worker's, and a directory of its own for the hint
solver's slots. It runs before Django reads its settings.

gw0 keeps the database number of CELERY_BROKER_URL, gw1 the next one, and so
on (modulo Redis's 16). The database itself is pytest-django's: test_<name>_gw0,
test_<name>_gw1, ..."""

from __future__ import annotations

import os
import re

REDIS_DATABASES = 16


def worker_broker_url(url: str, worker: str) -> str:
    """The broker URL of xdist worker ``worker`` ("gw1"): its Redis database
    is the URL's own plus the worker's number."""
    index = int(worker.removeprefix("gw"))
    match = re.fullmatch(r"(redis://[^/?#]*)(?:/(\d*))?(.*)", url)
    if match is None:
        return url
    base, number, rest = match.groups()
    return f"{base}/{(int(number or 0) + index) % REDIS_DATABASES}{rest}"


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
# Once per process, even if this module is imported again under another name.
if (_worker.startswith("gw") and os.environ.get("CELERY_BROKER_URL")
        and os.environ.get("TEST_BROKER_OF_WORKER") != _worker):
    os.environ["CELERY_BROKER_URL"] = worker_broker_url(os.environ["CELERY_BROKER_URL"], _worker)
    os.environ["TEST_BROKER_OF_WORKER"] = _worker
# The hint solver's slots are locks on files shared by a machine's web
# processes: each worker gets a directory of its own, so no worker's hint
# waits on another's.
if _worker.startswith("gw") and "PLAY_HINT_SLOT_DIR" not in os.environ:
    _run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "run")[:12]
    os.environ["PLAY_HINT_SLOT_DIR"] = f"/dev/shm/solitaire-test-hints-{_run}-{_worker}"
