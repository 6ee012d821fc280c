"""Prepared statements on PostgreSQL (DATABASE_PREPARED_STATEMENTS): a move's
queries are parsed and planned once per connection, then only bound."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _prepared(connection) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.production
def test_a_moves_queries_are_prepared_once_used_a_few_times(todays_deals):
    from django.db import connection
    from django.test import Client

    client = Client()
    client.get("/api/v1/me")
    attempt = client.post("/api/v1/attempts", {"game": "cruel"},
                          content_type="application/json").json()
    assert not any("play_attempt" in sql for sql in _prepared(connection))
    for _ in range(8):
        read = client.get(f"/api/v1/attempts/{attempt['id']}")
        assert read.status_code == 200
    token = f"{attempt['legal'][0]['card']}>{attempt['legal'][0]['targets'][0]}"
    reply = client.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": token, "version": 0}, content_type="application/json")

    assert reply.status_code == 200 and reply.json()["version"] == 1
    prepared = _prepared(connection)
    # The session with its user, and the attempt with its deal: each request's reads.
    assert any("play_session" in sql and "auth_user" in sql for sql in prepared), prepared
    assert any("play_attempt" in sql for sql in prepared), prepared


def _database_options(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    environ.update(env, DJANGO_SETTINGS_MODULE="api.settings", DEBUG="true")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                               "print(sorted(settings.DATABASES['default'].get('OPTIONS', {}).items()))"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_prepared_statements_are_on_for_postgresql_and_can_be_turned_off():
    url = "postgres://solitaire@db.internal:5432/solitaire"
    assert _database_options(DATABASE_URL=url) == (
        "[('prepare_threshold', 5), ('server_side_binding', True)]")
    assert _database_options(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false") == "[]"


def test_a_bad_prepared_statements_value_stops_the_process_with_its_name():
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    environ.update(DJANGO_SETTINGS_MODULE="api.settings", DEBUG="true",
                   DATABASE_URL="postgres://solitaire@db.internal:5432/solitaire",
                   DATABASE_PREPARED_STATEMENTS="sometimes")
    result = subprocess.run([sys.executable, "-c", "import django; django.setup()"],
                            cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "DATABASE_PREPARED_STATEMENTS='sometimes' is not a boolean" in result.stderr
