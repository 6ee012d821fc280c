"""The Redis cache backend, with one Redis client object per connection
pool instead of a new one for every call, and rate logs kept in Redis.

Django's RedisCacheClient builds a ``redis.Redis`` around its pool on each
get/set (0.1 ms of CPU on this machine kind). The client is thread-safe
over its pool, and Django's caches are per thread anyway.

A circuit breaker: after a call fails (Redis down, or hung past its
timeout), every call in this process raises ``CacheSkipped`` at once for
CACHE_RETRY_SECONDS; then a thread of its own pings Redis, closing the
breaker if it answers and opening it again if not, while calls go on being
skipped. A hung Redis thus costs the requests in flight when it hung one
timeout each, and no request anything after that.

A rate log (the throttles' sliding window) is one script run in Redis: one
round trip instead of a read and a write, and atomic, so requests at the
same instant cannot all pass on the same count."""

from __future__ import annotations

import functools
import itertools
import os
import secrets
import threading
import time
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

from api.outages import CACHE_ERRORS, CacheSkipped


class CircuitBreaker:
    """Closed: calls go through. Open (``_retry_at`` set): calls raise
    ``skipped`` (CacheSkipped) at once. From ``_retry_at`` on, the next call
    starts one trial in a thread of its own (``probe``: a PING under the
    cache's timeout) and is skipped all the same, so no request waits for a
    cache that may still hang; the trial closes the breaker, or opens it for
    another ``retry_setting`` (CACHE_RETRY_SECONDS) seconds. Without a
    probe, that call is the trial. A call failing with one of ``errors``
    opens it (api.publish keeps one for the broker)."""

    def __init__(self, retry_seconds=None, probe=None, *, errors=CACHE_ERRORS,
                 skipped: type[Exception] = CacheSkipped,
                 retry_setting: str = "CACHE_RETRY_SECONDS"):
        self._retry_seconds = retry_seconds
        self.probe = probe
        self.errors = errors
        self.skipped = skipped
        self.retry_setting = retry_setting
        self._retry_at = 0.0  # 0: closed
        self._probing = False
        self._lock = threading.Lock()

    @property
    def retry_seconds(self) -> float:
        if self._retry_seconds is not None:
            return self._retry_seconds
        return getattr(settings, self.retry_setting, 5.0)

    @property
    def is_open(self) -> bool:
        return self._retry_at != 0.0

    @property
    def seconds_to_trial(self) -> float:
        """0 when closed or when the next call is a trial, else the wait."""
        retry_at = self._retry_at
        return max(0.0, retry_at - time.monotonic()) if retry_at else 0.0

    def _open(self) -> None:
        self._retry_at = time.monotonic() + self.retry_seconds

    def call(self, function, *args, **kwargs):
        retry_at = self._retry_at
        if retry_at:
            now = time.monotonic()
            if now < retry_at:
                raise self.skipped(f"skipped for {retry_at - now:.1f} s after a failure")
            with self._lock:  # one trial at a time
                if self._retry_at != retry_at or self._probing:
                    raise self.skipped("being tried again")
                self._retry_at = now + self.retry_seconds
                self._probing = self.probe is not None
            if self.probe is not None:
                threading.Thread(target=self._trial, daemon=True, name="cache-trial").start()
                raise self.skipped("being tried again")
        try:
            result = function(*args, **kwargs)
        except self.errors:
            self._open()
            raise
        if self._retry_at:
            self._retry_at = 0.0
        return result

    def _trial(self) -> None:
        try:
            self.probe()
        except Exception:  # still down or hung: skipped for another while
            self._open()
        else:
            self._retry_at = 0.0
        finally:
            self._probing = False

    def reset(self) -> None:
        self._retry_at = 0.0
        self._probing = False


# One per Redis server list and process: Django makes a cache object per
# thread, and every thread should learn from one failure.
_BREAKERS: dict[tuple, CircuitBreaker] = {}
_BREAKERS_LOCK = threading.Lock()


def breaker_for(servers, probe=None) -> CircuitBreaker:
    key = tuple(servers)
    breaker = _BREAKERS.get(key)
    if breaker is None:
        with _BREAKERS_LOCK:
            breaker = _BREAKERS.setdefault(key, CircuitBreaker(probe=probe))
    return breaker


def breakers_reset() -> None:
    """Close every breaker (tests that start and stop their own Redis)."""
    for breaker in list(_BREAKERS.values()):
        breaker.reset()


def sentinel_master_pool(servers, master: str, **options):
    """A connection pool to the master that the sentinels in ``servers``
    (sentinel://[:password@]host:port/db URLs) name as ``master``. Each new
    connection asks them where it is, so after a failover (the old one's
    connections fail, or answer READONLY as a replica: redis-py drops them)
    the pool reaches the promoted one."""
    from redis.sentinel import Sentinel, SentinelConnectionPool

    addresses, db, password = [], 0, None
    for url in servers:
        parts = urlsplit(url)
        addresses.append((parts.hostname, parts.port or 26379))
        db = int(parts.path.strip("/") or 0)
        password = unquote(parts.password) if parts.password else password
    timeouts = {name: options[name] for name in ("socket_timeout", "socket_connect_timeout")
                if name in options}
    sentinel = Sentinel(addresses, sentinel_kwargs=timeouts)
    return SentinelConnectionPool(master, sentinel, db=db, password=password, **options)


class _Client(RedisCacheClient):
    def __init__(self, *args, sentinel_master: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}
        self._sentinel_master = sentinel_master
        self.breaker = breaker_for(self._servers, probe=self._ping)

    def _get_connection_pool_index(self, write):
        # Behind Sentinel every call goes to the master: a replica may lag.
        return 0 if self._sentinel_master else super()._get_connection_pool_index(write)

    def _get_connection_pool(self, write):
        if not self._sentinel_master:
            return super()._get_connection_pool(write)
        pool = self._pools.get(0)
        if pool is None:
            pool = self._pools[0] = sentinel_master_pool(
                self._servers, self._sentinel_master, **self._pool_options)
        return pool

    def _ping(self):
        return self.get_client(write=True).ping()

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write))
        return client


def _guarded(name: str):
    method = getattr(RedisCacheClient, name)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        return self.breaker.call(method, self, *args, **kwargs)

    return call


for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr",
              "set_many", "delete_many", "clear"):
    setattr(_Client, _name, _guarded(_name))


# KEYS[1] the log (a sorted set of request times); ARGV now, duration, limit,
# a unique member. Drops times at or before now - duration; when fewer than
# limit remain, adds now: {1, count}; else {0, count, oldest time}.
_RATE_LOG = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, oldest[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000))
return {1, count + 1}
"""


# A log entry's member is unique: a random tag, the process (workers forked
# after import share the tag) and a counter (atomic under the GIL).
_PROCESS = secrets.token_hex(4)
_SEQUENCE = itertools.count()


class RateVerdict(NamedTuple):
    allowed: bool
    count: int  # requests in the window, this one included when allowed
    oldest: float | None  # the oldest request time in the window, when refused


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _Client
        self._rate_script = None

    def rate_log(self, key: str, *, now: float, duration: float, limit: int) -> RateVerdict:
        """Count a request at ``now`` in the sliding window of ``duration``
        seconds under ``key``, unless ``limit`` requests are in it already.
        Raises redis-py's errors when Redis is down (api.outages)."""
        return self._cache.breaker.call(self._rate_log, key, now=now, duration=duration, limit=limit)

    def _rate_log(self, key: str, *, now: float, duration: float, limit: int) -> RateVerdict:
        full_key = self.make_and_validate_key(f"rate-log:{key}")  # not a cache value's key
        client = self._cache.get_client(full_key, write=True)
        if self._rate_script is None:
            self._rate_script = client.register_script(_RATE_LOG)
        member = f"{now!r}:{_PROCESS}:{os.getpid()}:{next(_SEQUENCE)}"
        reply = self._rate_script(keys=[full_key], args=[repr(now), repr(duration), limit, member],
                                  client=client)
        if reply[0]:
            return RateVerdict(True, int(reply[1]), None)
        return RateVerdict(False, int(reply[1]), float(reply[2]))
