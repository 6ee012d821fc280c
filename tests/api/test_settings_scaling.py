"""Settings for the scaled stack: PgBouncer's transaction pooling, the direct
road for sessions (migrations), the replica's alias and router, Sentinel.

Each case starts a fresh Python process, since settings are read once."""

from __future__ import annotations

import json
import os

import pytest
from test_settings_production import PRODUCTION, manage

POOLED = "postgres://solitaire@pgbouncer.internal:6432/solitaire"
DIRECT = "postgres://solitaire@db.internal:5432/solitaire"
REPLICA = "postgres://solitaire@replica.internal:5432/solitaire"


def settings_of(expression: str, **env: str):
    result = manage("shell", "-v", "0", "-c",
                    f"import json; from django.conf import settings as s; print(json.dumps({expression}))",
                    **{**PRODUCTION, **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_unset_the_stack_is_as_it_was_one_database_no_router():
    databases = settings_of("s.DATABASES")
    assert list(databases) == ["default"]
    assert databases["default"]["DISABLE_SERVER_SIDE_CURSORS"] is False
    assert settings_of("s.DATABASE_ROUTERS") == []


def test_transaction_pooling_turns_server_side_cursors_off_and_the_direct_road_keeps_them():
    databases = settings_of("s.DATABASES", DATABASE_URL=POOLED, DATABASE_DIRECT_URL=DIRECT,
                            DATABASE_TRANSACTION_POOLING="true", DATABASE_PASSWORD="pw")
    assert databases["default"]["HOST"] == "pgbouncer.internal"
    assert databases["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert databases["direct"]["HOST"] == "db.internal"
    assert databases["direct"]["DISABLE_SERVER_SIDE_CURSORS"] is False
    assert databases["direct"]["PASSWORD"] == databases["default"]["PASSWORD"] == "pw"
    assert databases["direct"]["OPTIONS"]["connect_timeout"] == 2
    assert databases["direct"]["TEST"]["MIRROR"] == "default"


@pytest.mark.production
def test_migrate_goes_over_the_direct_url():
    """With a pooled URL that leads nowhere, migrate still reaches the database directly."""
    direct = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL", "")
    if not direct.startswith("postgres"):
        pytest.fail("needs PostgreSQL: run scripts/test with TEST_DATABASE_URL")
    env = {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/nowhere", "DATABASE_DIRECT_URL": direct,
           "DATABASE_TRANSACTION_POOLING": "true", "DEBUG": "true"}
    planned = manage("migrate", "--plan", **env)
    assert planned.returncode == 0, planned.stderr
    refused = manage("showmigrations", "play", **env)  # any other command: the pooled URL
    assert refused.returncode != 0 and "127.0.0.1" in refused.stderr


def test_a_replica_url_adds_the_replica_and_its_router():
    databases = settings_of("s.DATABASES", DATABASE_REPLICA_URL=REPLICA)
    assert databases["replica"]["HOST"] == "replica.internal"
    assert databases["replica"]["OPTIONS"]["connect_timeout"] == 2  # a replica down costs 2 s at most
    assert databases["replica"]["OPTIONS"]["tcp_user_timeout"] == 2000  # and one gone, too
    assert databases["replica"]["TEST"]["MIRROR"] == "default"
    assert settings_of("s.DATABASE_ROUTERS", DATABASE_REPLICA_URL=REPLICA) == [
        "api.replica.PublicReadRouter"]
    assert settings_of("s.DATABASE_REPLICA_MAX_LAG_SECONDS", DATABASE_REPLICA_URL=REPLICA) == 5.0
    result = manage("check", **{**PRODUCTION, "DATABASE_URL": "sqlite:///x.sqlite3",
                                "DATABASE_REPLICA_URL": REPLICA})
    assert result.returncode != 0 and "DATABASE_REPLICA_URL needs a PostgreSQL" in result.stderr


def test_sentinel_urls_name_the_master_for_the_cache_and_the_broker():
    sentinels = "sentinel://s1:26379/{db};sentinel://s2:26379/{db};sentinel://s3:26379/{db}"
    env = {"CACHE_URL": sentinels.format(db=1), "CELERY_BROKER_URL": sentinels.format(db=0),
           "REDIS_SENTINEL_MASTER": "main"}
    assert settings_of("s.CELERY_BROKER_TRANSPORT_OPTIONS", **env)["master_name"] == "main"
    cache = settings_of("s.CACHES['default']", **env)
    assert cache["LOCATION"] == sentinels.format(db=1)
    assert cache["OPTIONS"]["sentinel_master"] == "main"
    # Without Sentinel, nothing of it.
    assert "master_name" not in settings_of("s.CELERY_BROKER_TRANSPORT_OPTIONS")
    assert "sentinel_master" not in settings_of("s.CACHES['default']['OPTIONS']")
