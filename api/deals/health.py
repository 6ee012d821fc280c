"""Checks of the services the site depends on, for the health endpoint."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from kombu import Connection

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 3


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
    try:
        with Connection(url, connect_timeout=BROKER_TIMEOUT_SECONDS) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT_SECONDS)
            # Opening a channel makes the transport talk to the server
            # (the Redis transport pings it).
            _channel = broker.default_channel
    except Exception as error:
        logger.warning("Health: broker unavailable: %r", error)
        return f"unavailable ({type(error).__name__})"
    return "ok"


def health_checks() -> dict[str, str]:
    return {"database": database_check(), "broker": broker_check()}
