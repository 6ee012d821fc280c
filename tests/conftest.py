"""Fixtures shared by the API and page tests. The helpers they use (deals with
certificates) are in certified_deals.py beside this file. Nothing here is
imported from Django at load time: the engine's tests run without it."""

from __future__ import annotations

import os
import threading
import time

import pytest


def pytest_collection_modifyitems(config, items):
    """TEST_DATABASE_ONLY=1 (scripts/test's embedded pass): only the tests that
    use the database run again, the others already ran once on PostgreSQL."""
    if os.environ.get("TEST_DATABASE_ONLY") != "1":
        return
    kept, left = [], []
    for item in items:
        uses_database = (item.get_closest_marker("django_db") is not None
                         or {"django_db_setup", "live_server"} & set(getattr(item, "fixturenames", ())))
        (kept if uses_database else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture
def generous_throttles(settings):
    """Throttle rates no test reaches, and an empty cache (so no throttle or
    cached answer) before and after the test; no task another test left
    waiting for its broker (api.publish)."""
    from django.core.cache import cache

    from api import publish
    from api.cache import breakers_reset

    breakers_reset()
    publish.reset()
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"},
    }
    yield
    cache.clear()
    publish.reset()


@pytest.fixture(autouse=True)
def _live_server_quiet_before_emptying(request):
    """A test ends while the live server may still be answering one of its
    requests (a page's, or one whose answer the test has read before the
    server closed it). Emptying the tables then (tests/emptied_tables.py)
    can wait on that request's locks on PostgreSQL, or miss the rows it
    writes; on SQLite the server shares the test's connection, and the
    request's end fails once the test's database access is closed. So the
    emptying waits, up to 15 s: on PostgreSQL until no other connection to
    the test database is in a query or a transaction, on SQLite until the
    server's request threads have ended (browser contexts are closed by then)."""
    names = request.fixturenames
    if "live_server" not in names or "transactional_db" not in names:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up first, so emptied after this
    yield
    from django.db import connection

    deadline = time.monotonic() + 15
    if connection.vendor != "postgresql":
        while time.monotonic() < deadline and any(
                "process_request_thread" in thread.name for thread in threading.enumerate()):
            time.sleep(0.02)
        return
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND pid <> pg_backend_pid() AND state <> 'idle'")
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.05)


@pytest.fixture
def today():
    """Today in the daily calendar's time zone."""
    from api import clock

    return clock.today()


@pytest.fixture(autouse=True)
def _celery_joins_allowed():
    """Celery's eager mode marks "inside a task" in one flag for the whole
    process (join on a result refused); two tasks run eagerly at once by the
    live server's threads can leave it set. Each test starts outside any task."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test databases, emptied after each test that commits
    by tests/emptied_tables.py rather than by Django's flush; passwords
    hashed in a thousand rounds (tests/fast_passwords.py)."""
    from django.conf import settings
    from django.test.utils import override_settings
    from emptied_tables import install

    install()
    hashers = override_settings(PASSWORD_HASHERS=[
        "fast_passwords.FewRoundsPBKDF2PasswordHasher", *settings.PASSWORD_HASHERS])
    hashers.enable()
    yield
    hashers.disable()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings):
    """On PostgreSQL, the test databases' commits do not wait for the disk
    (synchronous_commit off: a few milliseconds each, at every request of
    the live server). What other connections see of a commit is the same;
    only a crash of the server could lose the last ones, and the test
    databases are made again on every run."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        if database["ENGINE"].endswith("postgresql"):
            options = database.setdefault("OPTIONS", {})
            options["options"] = f"{options.get('options', '')} -c synchronous_commit=off".strip()
