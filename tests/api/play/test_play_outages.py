"""A part that fails degrades the service instead of stopping it: a real
Redis cache killed and restarted under a live server, and the database made
unreachable for the live server's connections (never the machine's shared
PostgreSQL or Redis themselves)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from private_redis import PrivateRedis, cache_settings
from waiting import wait_until

from api.cache import breakers_reset

CLOSED_PORT = 6399  # nothing listens here


@pytest.fixture
def redis_cache(settings):
    """The cache on a Redis server of the test's own, with real throttle rates."""
    server = PrivateRedis()
    server.start()
    caches_before = settings.CACHES
    settings.CACHES = cache_settings(server.url)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1000/min", "user": "1000/min"},
    }
    # The cache is tried again this soon after a failure (api.cache's breaker).
    settings.CACHE_RETRY_SECONDS = 0.2
    yield server
    settings.CACHES = caches_before  # before the server goes: teardown clears the cache
    server.stop()


def test_play_goes_on_while_the_cache_is_down_and_health_says_so(
    redis_cache, api, todays_deals, today, live_server, caplog
):
    player = api()
    before = player.get("/health/").body
    assert before["status"] == "ok"

    redis_cache.stop()
    attempt = player.start("cruel")
    move = attempt["legal"][0]
    attempt = player.move(attempt, f"{move['card']}>{move['targets'][0]}")
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}")
    newcomer = api()  # a first visit: the anonymous throttle is tried too
    health = newcomer.get("/health/")

    assert attempt["version"] == 1
    assert board.status == 200 and board.body["total"] == 1 and board.body["me"]["rank"] == 1
    assert newcomer.get("/api/v1/me").status == 200
    assert health.status == 200, health.body
    assert health.body["status"] == "degraded"
    assert health.body["checks"]["cache"].startswith("unavailable")
    assert health.body["checks"]["database"] == "ok"
    assert any("Cache unavailable" in r.getMessage() for r in caplog.records)

    redis_cache.start()
    # Past CACHE_RETRY_SECONDS a call starts a trial of the cache in the
    # background (api.cache's breaker); health is ok once it has answered.
    wait_until(lambda: player.get("/health/").body["status"] == "ok", seconds=5, every=0.2,
               explain=lambda: f"health still {player.get('/health/').body}")
    assert player.get("/health/").body == before
    assert before["checks"]["cache"] == before["checks"]["database"] == "ok"


def test_throttles_count_again_once_the_cache_is_back(redis_cache, api, settings):
    player = api()
    redis_cache.stop()
    redis_cache.start()
    breakers_reset()  # the cache is back: no waiting for the breaker's trial
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min"},
    }

    statuses = [player.get("/api/v1/me").status for _ in range(5)]

    assert statuses[:3] == [200, 200, 200]
    assert statuses[3:] == [429, 429]


@pytest.fixture
def database_unreachable(live_server):
    """make() points every new connection at a closed port and ends the live
    server's open ones (only those to this test's own database); the test's
    own connection stays open. restore() undoes it."""
    settings_dict = connection.settings_dict
    real_port = settings_dict["PORT"]
    database = settings_dict["NAME"]

    def make():
        settings_dict["PORT"] = str(CLOSED_PORT)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()", [database],
            )

    def restore():
        settings_dict["PORT"] = real_port

    yield make, restore
    restore()


@pytest.mark.production
def test_a_database_outage_answers_503_with_retry_after_in_the_one_shape(
    api, todays_deals, database_unreachable
):
    make, restore = database_unreachable
    player = api()
    attempt = player.start("flower")

    make()
    replies = {
        "me": player.get("/api/v1/me"),
        "daily": player.get("/api/v1/daily"),
        "attempt": player.get(f"/api/v1/attempts/{attempt['id']}"),
        "undo": player.post(f"/api/v1/attempts/{attempt['id']}/undo", {"version": 0}),
        # The schema answers YAML by default; its errors are JSON all the same.
        "schema": player.get("/api/v1/schema/", headers={"Accept": "*/*"}),
    }
    health = player.get("/health/")
    restore()

    for name, reply in replies.items():
        assert reply.status == 503, (name, reply.status, reply.body)
        assert reply.error_code == "unavailable", (name, reply.body)
        assert set(reply.body["error"]) >= {"code", "message", "fields"}
        assert int(reply.headers["Retry-After"]) > 0
    assert health.status == 503
    assert health.body["checks"]["database"].startswith("unavailable")
    assert player.get(f"/api/v1/attempts/{attempt['id']}").status == 200


@pytest.mark.production
def test_a_database_outage_outside_the_api_views_is_a_503_too(
    bare_api, as_alice, database_unreachable, settings
):
    settings.ROOT_URLCONF = "tests.api.admin_urls"  # the admin, served at staff/
    make, _restore = database_unreachable
    make()

    visitor = bare_api().get("/api/v1/me")  # a first visit: the guest cannot be made
    # Outside DRF: the admin reads the session's user through Django's middleware.
    admin = as_alice.request("GET", reverse("admin:index"), headers={"Accept": "text/html"})

    assert (visitor.status, visitor.error_code) == (503, "unavailable")
    assert int(visitor.headers["Retry-After"]) > 0
    assert admin.status == 503, admin.body
    assert int(admin.headers["Retry-After"]) > 0
