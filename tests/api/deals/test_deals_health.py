
import pytest
from django.db import OperationalError
from private_redis import PrivateRedis

from api.deals import health

pytestmark = pytest.mark.django_db


@pytest.mark.production
def test_health_is_200_when_the_database_and_the_broker_answer(client, settings):
    assert settings.CELERY_BROKER_URL, "run the suite with CELERY_BROKER_URL set (scripts/test)"

    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok", "checks": {"database": "ok", "cache": "ok", "broker": "ok"}
    }
    assert "no-cache" in response["Cache-Control"]


def test_health_is_degraded_when_the_broker_does_not_answer(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"

    response = client.get("/health/")

    # Play goes on without the broker: the service is degraded, not down.
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("unavailable")
    assert "127.0.0.1" not in body["checks"]["broker"]


def test_a_hung_broker_makes_health_degraded_within_its_deadline(client, settings, caplog):
    broker = PrivateRedis()
    broker.start()
    settings.CELERY_BROKER_URL = broker.url
    settings.HEALTH_BROKER_TIMEOUT = 0.5
    try:
        assert client.get("/health/").json()["checks"]["broker"] == "ok"
        broker.hang()  # SIGSTOP: connections accepted, nothing answered, ever
        response = client.get("/health/")
    finally:
        broker.stop()

    # An answer at all, and by the check's own deadline: the hang never ends.
    assert response.status_code == 200 and response.json()["status"] == "degraded"
    assert response.json()["checks"]["broker"].startswith("unavailable")
    assert any("Timeout reading from" in r.getMessage() for r in caplog.records), caplog.text


def test_health_is_503_when_the_database_does_not_answer(client, monkeypatch):
    class BrokenCursor:
        def __enter__(self):
            raise OperationalError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: BrokenCursor())

    response = client.get("/health/")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"]["database"] == "unavailable (OperationalError)"
    assert response["Retry-After"].isdigit()


def test_without_a_broker_tasks_run_in_process_and_health_says_so(client, settings):
    settings.CELERY_BROKER_URL = ""

    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json()["checks"]["broker"].startswith("ok (no broker")


def test_health_answers_only_get(client):
    assert client.post("/health/").status_code == 405
