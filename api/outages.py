"""What the site does when a part it depends on is down.

- The cache (Redis): play goes on. Throttles let requests through and the
  leaderboard counts live (api.play.rest.throttles, api.play.records.leaderboard); each failure
  is logged as a warning. After a failure the process leaves the cache alone
  for CACHE_RETRY_SECONDS (api.cache's circuit breaker: calls raise
  ``CacheSkipped`` at once), then one call tries it again; so a hung cache
  costs one timeout, not one per call. ``/health/`` reports the cache as
  degraded. Sessions and the login lockout never depend on the cache.
- The broker (Celery's Redis): no request waits for it. Requests hand their
  tasks to a thread of their process after the answer is sent, which
  publishes under a deadline and a circuit breaker of its own and keeps them
  until the broker answers (api.publish); beat's sweeps recover the rest.
  ``/health/`` reports the broker as degraded within its own deadline.
- The database: every request answers 503 ``unavailable`` with
  ``Retry-After`` in the one error shape (api.play.rest.errors), and ``/health/``
  answers 503.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


class CacheSkipped(RedisError):
    """A cache call not made: a recent call failed, so the cache is left
    alone for CACHE_RETRY_SECONDS (api.cache's circuit breaker)."""

# What the Redis cache raises when its server cannot be reached or answers
# nothing in time (redis-py's errors, or the socket's own).
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)

# What the database raises when it cannot be reached, dropped the connection
# or cannot serve the query now (psycopg's errors, wrapped by Django).
DATABASE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)

# Seconds a client is asked to wait after a 503.
RETRY_AFTER_SECONDS = 10


def cache_failed(what: str, error: BaseException) -> None:
    """Log a cache failure that the caller works around (a call skipped by
    the circuit breaker only at debug level: the failure that opened it was
    logged already)."""
    level = logging.DEBUG if isinstance(error, CacheSkipped) else logging.WARNING
    log.log(level, "Cache unavailable, %s: %r", what, error)


def database_unavailable(error: BaseException | None) -> bool:
    return isinstance(error, DATABASE_ERRORS)
