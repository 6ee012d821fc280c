"""api.cache.RedisCache: Django's Redis cache, one Redis client per pool."""

import os
import threading
import time

import pytest

from api.cache import RedisCache


def make_cache():
    url = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    return RedisCache(url, {"KEY_PREFIX": f"test-cache-{os.getpid()}", "TIMEOUT": 60})


def test_it_keeps_values_and_counts_like_django_s_backend():
    cache = make_cache()
    cache.set("a", {"x": [1, 2]})
    assert cache.get("a") == {"x": [1, 2]}
    assert cache.add("n", 1) and not cache.add("n", 5)
    assert cache.incr("n") == 2
    cache.delete_many(["a", "n"])
    assert cache.get("a") is None and cache.get("n") is None


def test_the_redis_client_is_made_once_and_shared_by_threads():
    cache = make_cache()
    first = cache._cache.get_client("k", write=True)
    assert cache._cache.get_client("k") is first  # one server: one pool for reads and writes
    seen = []

    def work(i):
        cache.set(f"t{i}", i)
        seen.append((cache.get(f"t{i}"), cache._cache.get_client(f"t{i}")))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(v for v, _ in seen) == list(range(8))
    assert all(client is first for _, client in seen)
    cache.delete_many([f"t{i}" for i in range(8)])


def test_the_breaker_skips_after_a_failure_and_a_background_trial_closes_it():
    from redis.exceptions import ConnectionError as RedisConnectionError

    from api.cache import CircuitBreaker
    from api.outages import CacheSkipped

    answers = {"probe": RedisConnectionError("still down")}

    def probe():
        if answers["probe"]:
            raise answers["probe"]

    def failing():
        raise RedisConnectionError("down")

    breaker = CircuitBreaker(retry_seconds=0.05, probe=probe)
    with pytest.raises(RedisConnectionError):
        breaker.call(failing)
    assert breaker.is_open
    with pytest.raises(CacheSkipped):  # within the retry period: not called
        breaker.call(failing)

    time.sleep(0.06)
    with pytest.raises(CacheSkipped):  # starts a trial, which fails: still open
        breaker.call(lambda: "never")
    time.sleep(0.03)
    assert breaker.is_open

    answers["probe"] = None
    time.sleep(0.06)
    with pytest.raises(CacheSkipped):  # starts a trial, which succeeds
        breaker.call(lambda: "never")
    deadline = time.monotonic() + 2
    while breaker.is_open and time.monotonic() < deadline:
        time.sleep(0.01)
    assert breaker.call(lambda: "answered") == "answered"
