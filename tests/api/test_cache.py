"""api.cache.RedisCache: Django's Redis cache, one Redis client per pool."""

import os
import threading

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


class FakeClock:
    """api.cache's ``time``, standing still until the test moves it."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _trials_finished() -> None:
    """Waits for the breaker's background trials (threads named cache-trial)."""
    for thread in threading.enumerate():
        if thread.name == "cache-trial":
            thread.join(timeout=10)
            assert not thread.is_alive()


def test_the_breaker_skips_after_a_failure_and_a_background_trial_closes_it(monkeypatch):
    from redis.exceptions import ConnectionError as RedisConnectionError

    import api.cache
    from api.cache import CircuitBreaker
    from api.outages import CacheSkipped

    clock = FakeClock()
    monkeypatch.setattr(api.cache, "time", clock)
    probes = []
    answers = {"probe": RedisConnectionError("still down")}

    def probe():
        probes.append(clock.now)
        if answers["probe"]:
            raise answers["probe"]

    calls = []

    def failing():
        calls.append(clock.now)
        raise RedisConnectionError("down")

    breaker = CircuitBreaker(retry_seconds=5, probe=probe)
    with pytest.raises(RedisConnectionError):
        breaker.call(failing)
    assert breaker.is_open and calls == [1000.0]

    clock.now += 4.9  # within the retry period: skipped, neither called nor tried
    with pytest.raises(CacheSkipped):
        breaker.call(failing)
    assert calls == [1000.0] and probes == []

    clock.now += 0.2  # past it: the call starts one trial and is skipped; the trial fails
    with pytest.raises(CacheSkipped):
        breaker.call(failing)
    _trials_finished()
    assert probes == [1005.1] and breaker.is_open and calls == [1000.0]

    clock.now += 4.9  # the failed trial opened it for another period: no trial yet
    with pytest.raises(CacheSkipped):
        breaker.call(lambda: "never")
    _trials_finished()
    assert probes == [1005.1]

    answers["probe"] = None
    clock.now += 0.2  # past it: a trial that succeeds closes the breaker
    with pytest.raises(CacheSkipped):
        breaker.call(lambda: "never")
    _trials_finished()
    assert probes == [1005.1, 1010.2] and not breaker.is_open
    assert breaker.call(lambda: "answered") == "answered"
