"""Prepared statements on PostgreSQL (DATABASE_PREPARED_STATEMENTS): a move's
queries are parsed and planned once per connection, then only bound. The
setting itself: tests/api/test_settings_production.py."""

import pytest


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

