"""Throttles that match the deployment (docs/API.md, "Limits"): the client's
address from a configured number of trusted proxies, rates for login, token
and register per account and per address, a lockout that grows after wrong
passwords, guests made per address, and the admin's login throttled too."""

import re
import urllib.parse

import pytest
from django.contrib.auth import get_user_model

from api.play.models import Player

PASSWORD = "correct horse battery staple"


def test_x_forwarded_for_is_ignored_without_trusted_proxies(bare_api, rates, todays_deals, today):
    rates(anon="3/min")
    visitor = bare_api()
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    statuses = [visitor.get(url, headers={"X-Forwarded-For": f"10.9.{n}.1"}).status
                for n in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_with_one_trusted_proxy_the_address_it_saw_is_the_client(
        bare_api, rates, settings, todays_deals, today):
    rates(anon="2/min")
    settings.TRUSTED_PROXY_COUNT = 1
    visitor = bare_api()
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    # The client forges the left part; our proxy appends what it saw.
    forged = [visitor.get(url, headers={"X-Forwarded-For": f"1.2.3.{n}, 203.0.113.7"}).status
              for n in range(3)]
    assert forged == [200, 200, 429]
    other = visitor.get(url, headers={"X-Forwarded-For": "1.2.3.4, 203.0.113.8"})
    assert other.status == 200  # another client behind the proxy: its own bucket
    # Without the proxy's hop the socket's address counts.
    assert [visitor.get(url).status for _ in range(3)] == [200, 200, 429]


def test_guests_made_per_address_are_limited(bare_api, rates, transactional_db):
    rates(guest="3/hour")
    statuses = [bare_api().get("/api/v1/me", headers={"X-Forwarded-For": f"10.0.0.{n}"})
                for n in range(5)]
    assert [r.status for r in statuses] == [200, 200, 200, 429, 429]
    assert statuses[-1].error_code == "throttled" and "Retry-After" in statuses[-1].headers
    assert Player.objects.filter(is_guest=True).count() == 3


@pytest.mark.parametrize("path", ["/api/v1/auth/login", "/api/v1/auth/token"])
def test_wrong_passwords_lock_the_account_out_for_longer_each_time(api, alice, settings, path):
    settings.AUTH_LOCKOUT_FREE_FAILURES = 3
    settings.AUTH_LOCKOUT_BASE_SECONDS = 30
    client = api()
    for _ in range(3):
        reply = client.post(path, {"username": "alice", "password": "wrong"})
        assert reply.status == 400 and reply.error_code == "bad_credentials"
    reply = client.post(path, {"username": "alice", "password": "wrong"})
    assert reply.status == 429 and reply.error_code == "throttled", reply.body
    assert 25 <= int(reply.headers["Retry-After"]) <= 30
    # Locked: even the right password is refused, on every way in.
    for way in ("/api/v1/auth/login", "/api/v1/auth/token"):
        reply = client.post(way, {"username": "ALICE", "password": PASSWORD})
        assert reply.status == 429 and reply.error_code == "throttled"
    # The next failure doubles the wait.
    from api.play.accounts import lockout

    lockout.lockout_failed("alice")
    assert 55 <= lockout.lockout_wait("alice") <= 60
    # Another account is not affected.
    get_user_model().objects.create_user(username="frank", password=PASSWORD)
    assert client.post(path, {"username": "frank", "password": PASSWORD}).status == 200


def test_a_right_password_before_the_lockout_clears_the_count(api, alice, settings):
    settings.AUTH_LOCKOUT_FREE_FAILURES = 2
    client = api()
    for _ in range(3):
        assert client.post("/api/v1/auth/token", {"username": "alice", "password": "x"}).status == 400
        assert client.post("/api/v1/auth/token",
                           {"username": "alice", "password": PASSWORD}).status == 200


@pytest.mark.parametrize("path, scope", [("/api/v1/auth/login", "login"),
                                         ("/api/v1/auth/token", "token")])
def test_login_and_token_rates_per_account_and_per_address(api, alice, bob, rates, path, scope):
    rates(**{f"{scope}_account": "2/min", f"{scope}_address": "4/min"})
    client = api()
    for _ in range(2):
        assert client.post(path, {"username": "alice", "password": PASSWORD}).status == 200
    reply = client.post(path, {"username": "Alice", "password": PASSWORD})
    assert reply.status == 429 and reply.error_code == "throttled"
    assert client.post(path, {"username": "bob", "password": PASSWORD}).status == 200
    # The address's fourth try (the account limit's refusal counted too).
    reply = client.post(path, {"username": "carol", "password": PASSWORD})
    assert reply.status == 429 and reply.error_code == "throttled"


def test_registration_rate_per_address(api, rates):
    rates(register_address="2/hour")
    statuses = []
    for n in range(3):
        reply = api().post("/api/v1/auth/register",
                           {"username": f"newcomer{n}", "password": "a long enough passphrase"})
        statuses.append(reply.status)
    assert statuses == [201, 201, 429]


def test_the_admin_is_not_served_unless_configured(bare_api, transactional_db):
    reply = bare_api().request("GET", "/admin/", headers={"Accept": "text/html"})
    assert reply.status == 404


def _admin_login(client, password: str) -> int:
    login_page = client.request("GET", "/staff/login/", headers={"Accept": "text/html"})
    assert login_page.status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page.body["_raw"]).group(1)
    form = urllib.parse.urlencode({"username": "root", "password": password,
                                   "csrfmiddlewaretoken": token, "next": "/staff/"}).encode()
    reply = client.request("POST", "/staff/login/", raw=form, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html",
        "Referer": client.base_url + "/staff/login/"})
    return reply.status


def test_the_admin_login_is_throttled_and_locks_out_too(bare_api, rates, settings, transactional_db):
    settings.ROOT_URLCONF = "tests.api.admin_urls"
    settings.AUTH_LOCKOUT_FREE_FAILURES = 3
    get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    client = bare_api()
    rates(login_address="5/min")
    # Wrong passwords: the form again, then locked out.
    assert [_admin_login(client, "wrong") for _ in range(4)] == [200] * 4
    # Locked out now: the API refuses the right password too.
    reply = bare_api().post("/api/v1/auth/token", {"username": "root", "password": PASSWORD})
    assert reply.status == 429
    # The address's fifth login post is answered, the sixth is throttled.
    assert _admin_login(client, PASSWORD) == 200
    assert _admin_login(client, PASSWORD) == 429


@pytest.fixture
def shared_redis_cache(settings):
    """The cache on the machine's Redis (database 12), as in production."""
    from django.core.cache import cache

    before = settings.CACHES
    settings.CACHES = {"default": {"BACKEND": "api.cache.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:6379/12"}}
    cache.clear()
    yield
    cache.clear()
    settings.CACHES = before


def test_on_redis_the_lockout_and_the_guest_limit_hold_across_requests(
        shared_redis_cache, api, bare_api, alice, rates, settings):
    settings.AUTH_LOCKOUT_FREE_FAILURES = 2
    rates(guest="2/hour")
    client = api()  # the first guest of this address
    for _ in range(2):
        assert client.post("/api/v1/auth/token", {"username": "alice", "password": "x"}).status == 400
    reply = client.post("/api/v1/auth/token", {"username": "alice", "password": "x"})
    assert reply.status == 429 and int(reply.headers["Retry-After"]) > 0
    reply = client.post("/api/v1/auth/login", {"username": "alice", "password": PASSWORD})
    assert reply.status == 429
    statuses = [bare_api().get("/api/v1/me", headers={"X-Forwarded-For": f"10.1.0.{n}"}).status
                for n in range(3)]
    assert statuses == [200, 429, 429]


def test_on_redis_a_rate_is_a_sliding_window_counted_atomically(shared_redis_cache, rates):
    """The log in Redis: the limit holds for requests at the same instant,
    Retry-After is DRF's, and a request leaves the window duration after it."""
    import concurrent.futures
    import types

    from api.play.rest import throttles

    rates(anon="5/min")
    request = types.SimpleNamespace(META={"REMOTE_ADDR": "198.51.100.7"},
                                    user=types.SimpleNamespace(is_authenticated=False))

    def ask(_):
        throttle = throttles.PlayAnonThrottle()
        return throttle.allow_request(request, None), throttle

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(12)))
    assert sum(allowed for allowed, _ in answers) == 5
    refused = next(t for allowed, t in answers if not allowed)
    assert 0 < refused.wait() <= 60
    later = throttles.PlayAnonThrottle()
    later.timer = lambda: refused.now + 61  # a minute on: the window is empty again
    assert later.allow_request(request, None)
