"""Checks of the services the site depends on, for the health endpoint."""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from kombu import Connection

logger = logging.getLogger(__name__)


def database_check() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        logger.warning("Health: database unavailable: %r", error)
        return f"unavailable ({type(error).__name__})"
    return "ok"


def broker_check() -> str:
    url = settings.CELERY_BROKER_URL
    if not url:
        return "ok (no broker: tasks run in-process)"
    # Within its own deadline: connecting and each exchange with the server
    # take at most HEALTH_BROKER_TIMEOUT (a hung broker answers nothing).
    timeout = settings.HEALTH_BROKER_TIMEOUT
    try:
        with Connection(url, connect_timeout=timeout, transport_options={
                **settings.CELERY_BROKER_TRANSPORT_OPTIONS,  # a sentinel:// URL's master_name
                "socket_connect_timeout": timeout, "socket_timeout": timeout}) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
            # Opening a channel makes the transport talk to the server
            # (the Redis transport pings it).
            _channel = broker.default_channel
    except Exception as error:
        logger.warning("Health: broker unavailable: %r", error)
        return f"unavailable ({type(error).__name__})"
    return "ok"


def cache_check() -> str:
    """Write, read and delete a key: the cache answers and keeps what it is given."""
    key = f"health:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", timeout=30)
        answer = cache.get(key)
        cache.delete(key)
    except Exception as error:
        logger.warning("Health: cache unavailable: %r", error)
        return f"unavailable ({type(error).__name__})"
    return "ok" if answer == "ok" else "unavailable (lost a key)"


def health_checks() -> dict[str, str]:
    return {"database": database_check(), "cache": cache_check(), "broker": broker_check()}


# Without these the site cannot serve; without the others it degrades (play
# goes on without throttles or cached counts; deals wait for the broker).
REQUIRED = ("database",)


def health_status(checks: dict[str, str]) -> str:
    """"ok", "degraded" (an optional part is down) or "unavailable"."""
    failed = {name for name, result in checks.items() if not result.startswith("ok")}
    if failed & set(REQUIRED):
        return "unavailable"
    return "degraded" if failed else "ok"
