"""A cache that hangs (a real Redis of the test's own, stopped with SIGSTOP)
neither undoes a logout, nor lifts the login lockout, nor stalls play: the
cache costs at most one timeout, then is skipped for CACHE_RETRY_SECONDS."""

from __future__ import annotations

import threading
import time

import pytest
from private_redis import PrivateRedis, cache_settings

from api.cache import CircuitBreaker, breakers_reset
from api.outages import CACHE_ERRORS, CacheSkipped
from api.play.models import Attempt, LoginFailure

PASSWORD = "correct horse battery staple"


@pytest.fixture
def hung_cache(settings):
    """The cache on a Redis of the test's own; .hang() stops it (SIGSTOP).
    Always resumed and killed at the end."""
    server = PrivateRedis()
    server.start()
    caches_before = settings.CACHES
    settings.CACHES = cache_settings(server.url)
    breakers_reset()
    try:
        yield server
    finally:
        server.resume()
        settings.CACHES = caches_before
        server.stop()
        breakers_reset()


def test_a_logout_while_the_cache_hangs_is_final_once_it_is_back(
    hung_cache, api, bare_api, alice, login, todays_deals
):
    player = login(api, alice)
    session = player.cookie("sessionid")
    assert player.get("/api/v1/me").body["username"] == "alice"

    hung_cache.hang()
    assert player.post("/api/v1/auth/logout").status == 204
    hung_cache.resume()
    time.sleep(0.2)

    old_cookie = {"Cookie": f"sessionid={session}"}
    me = bare_api().get("/api/v1/me", headers=old_cookie)
    started = bare_api().post("/api/v1/attempts", {"game": "cruel"}, headers=old_cookie)
    assert me.status == 200 and me.body["username"] != "alice"
    assert started.status in (201, 403)
    assert not Attempt.objects.filter(player=alice).exists()


def test_wrong_passwords_lock_the_account_out_while_the_cache_hangs(
    hung_cache, bare_api, alice, settings
):
    settings.AUTH_LOCKOUT_FREE_FAILURES = 5
    client = bare_api()
    client.get("/api/v1/me")  # the CSRF cookie
    hung_cache.hang()

    wrong = [client.post("/api/v1/auth/login", {"username": "alice", "password": "nope"}).status
             for _ in range(25)]
    right = client.post("/api/v1/auth/login", {"username": "alice", "password": PASSWORD})

    assert wrong[:5] == [400] * 5
    assert set(wrong[5:]) == {429}
    assert right.status == 429 and right.error_code == "throttled"
    assert LoginFailure.objects.get().failures == 6  # refused ones are not tried


def test_the_lockout_is_counted_in_the_database_and_a_right_password_clears_it(
    bare_api, alice, settings
):
    client = bare_api()
    client.get("/api/v1/me")
    for _ in range(3):
        assert client.post("/api/v1/auth/login",
                           {"username": "ALICE", "password": "nope"}).status == 400
    assert LoginFailure.objects.get().failures == 3
    assert client.post("/api/v1/auth/login",
                       {"username": "alice", "password": PASSWORD}).status == 200
    assert not LoginFailure.objects.exists()


def _play(make, players: int, seconds: float) -> list[float]:
    """Each player moves as fast as answers come for ``seconds``; the
    latencies of the moves (a new attempt when one ends)."""
    clients = [make() for _ in range(players)]
    latencies: list[float] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def run(client):
        attempt = client.start("cruel")
        mine = []
        while time.monotonic() < stop_at:
            if attempt["status"] != "playing" or not attempt["legal"]:
                if not attempt["finished"]:  # practice opens once it is finished
                    client.finish(attempt)
                attempt = client.start("cruel")
                continue
            legal = attempt["legal"][0]
            began = time.perf_counter()
            reply = client.post(f"/api/v1/attempts/{attempt['id']}/moves",
                                {"move": f"{legal['card']}>{legal['targets'][0]}",
                                 "version": attempt["version"]})
            mine.append(time.perf_counter() - began)
            assert reply.status == 200, reply.body
            attempt = reply.body
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies


@pytest.fixture
def cache_calls(monkeypatch):
    """Counts the cache calls that reach Redis (past the circuit breaker)
    and those of them that failed: each failure while Redis hangs is one
    request that waited a whole timeout."""
    counts = {"reached": 0, "failed": 0}
    lock = threading.Lock()
    call = CircuitBreaker.call

    def counted_call(self, function, *args, **kwargs):
        if self.skipped is not CacheSkipped:  # the broker's breaker (api.publish)
            return call(self, function, *args, **kwargs)

        def reach(*a, **k):
            with lock:
                counts["reached"] += 1
            try:
                return function(*a, **k)
            except CACHE_ERRORS:
                with lock:
                    counts["failed"] += 1
                raise
        return call(self, reach, *args, **kwargs)

    monkeypatch.setattr(CircuitBreaker, "call", counted_call)
    return counts


def test_a_hung_cache_costs_one_timeout_then_play_keeps_its_pace(
    hung_cache, cache_calls, api, todays_deals, settings
):
    # Longer than the test, so the breaker's trial never comes round: what
    # is counted is the requests' own calls only.
    settings.CACHE_RETRY_SECONDS = 600.0
    window = 2.0
    before = _play(api, 8, window)
    assert cache_calls["reached"] > 0 and cache_calls["failed"] == 0

    hung_cache.hang()
    first = api().get("/health/")
    after_first = dict(cache_calls)
    again = api().get("/health/")
    after_again = dict(cache_calls)
    during = _play(api, 8, window)

    assert first.status == 200 and first.body["status"] == "degraded"
    assert again.body["status"] == "degraded"
    # Exactly one call waited for the hung Redis: the first one.
    assert after_first["failed"] == 1
    assert after_again == after_first  # the breaker is open: Redis not even asked
    # Play goes on, every move answered, and no move asked the hung Redis.
    assert len(during) > 0 and len(before) > 0
    assert cache_calls == after_first, cache_calls
