"""The PostgreSQL database of this test run, for the processes a test starts
(web servers, workers) to share it with the test."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.db import connection


def shared_database_url(who: str) -> str:
    """The URL of the test run's database (pytest-django's test_ one); fails
    the test, naming ``who`` needs it, on any other engine."""
    db = connection.settings_dict
    if not db["ENGINE"].endswith("postgresql"):
        pytest.fail(f"{who} needs PostgreSQL: run scripts/test (DATABASE_URL=postgres://...)")
    auth = quote(db["USER"], safe="") + (f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or '5432'}/{quote(db['NAME'], safe='')}"
