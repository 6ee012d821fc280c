"""A cache that hangs (a real Redis of the test's own, stopped with SIGSTOP)
neither undoes a logout, nor lifts the login lockout, nor stalls play: the
cache costs at most one timeout, then is skipped for CACHE_RETRY_SECONDS."""

from __future__ import annotations

import threading

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
    hung_cache.wait_answering()

    # The old session cookie, with a CSRF token that was valid: the session
    # is gone, so each request is a new guest's, whose token is new too and
    # whose POST is refused; were alice still logged in, it would start her
    # an attempt.
    client = bare_api()
    assert client.get("/api/v1/me").status == 200
    old_cookie = {"Cookie": f"sessionid={session}; csrftoken={client.cookie('csrftoken')}"}
    me = client.get("/api/v1/me", headers=old_cookie)
    started = client.post("/api/v1/attempts", {"game": "cruel"}, headers=old_cookie)
    assert me.status == 200 and me.body["username"] != "alice"
    assert started.status == 403 and started.error_code == "csrf_failed", started.body
    assert not Attempt.objects.exists()


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


def _play(make, players: int, moves: int) -> int:
    """Each player makes ``moves`` moves at once with the others (a new
    attempt when one ends); every move must be answered 200. The number of
    moves answered."""
    clients = [make() for _ in range(players)]
    answered = []
    lock = threading.Lock()

    def run(client):
        attempt = client.start("cruel")
        made = 0
        while made < moves:
            if attempt["status"] != "playing" or not attempt["legal"]:
                if not attempt["finished"]:  # practice opens once it is finished
                    client.finish(attempt)
                attempt = client.start("cruel")
                continue
            legal = attempt["legal"][0]
            reply = client.post(f"/api/v1/attempts/{attempt['id']}/moves",
                                {"move": f"{legal['card']}>{legal['targets'][0]}",
                                 "version": attempt["version"]})
            assert reply.status == 200, reply.body
            attempt = reply.body
            made += 1
        with lock:
            answered.append(made)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(answered)


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


# Serial: before the hang, every cache call must answer within its 0.5 s timeout.
@pytest.mark.serial
def test_a_hung_cache_costs_one_timeout_then_play_keeps_its_pace(
    hung_cache, cache_calls, api, todays_deals, settings
):
    # Longer than the test, so the breaker's trial never comes round: what
    # is counted is the requests' own calls only.
    settings.CACHE_RETRY_SECONDS = 600.0
    assert _play(api, 4, 10) == 40
    assert cache_calls["reached"] > 0 and cache_calls["failed"] == 0  # play uses the cache

    hung_cache.hang()
    first = api().get("/health/")
    after_first = dict(cache_calls)
    again = api().get("/health/")
    after_again = dict(cache_calls)
    during = _play(api, 4, 10)

    assert first.status == 200 and first.body["status"] == "degraded"
    assert again.body["status"] == "degraded"
    # Exactly one call waited for the hung Redis: the first one.
    assert after_first["failed"] == 1
    assert after_again == after_first  # the breaker is open: Redis not even asked
    # Play goes on, every move answered, and no move asked the hung Redis
    # (so none waited a timeout for it).
    assert during == 40
    assert cache_calls == after_first, cache_calls
