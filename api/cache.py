"""The Redis cache backend, with one Redis client object per connection
pool instead of a new one for every call, and rate logs kept in Redis.

Django's RedisCacheClient builds a ``redis.Redis`` around its pool on each
get/set (0.1 ms of CPU on this machine kind). The client is thread-safe
over its pool, and Django's caches are per thread anyway.

A rate log (the throttles' sliding window) is one script run in Redis: one
round trip instead of a read and a write, and atomic, so requests at the
same instant cannot all pass on the same count."""

from __future__ import annotations

import itertools
import os
import secrets
from typing import NamedTuple

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _Client(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write))
        return client


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
