"""Shared fixtures for the play API tests: a real HTTP client against the
live server (PostgreSQL when DATABASE_URL says so), deals with known
certificates, and named players."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

import pytest
from certified_deals import certified, deal_create
from django.contrib.auth import get_user_model
from waiting import wait_until

from api.play.models import Player

PASSWORD = "correct horse battery staple"


# -- HTTP ---------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    body: dict | list | None
    headers: dict

    @property
    def error_code(self) -> str | None:
        return (self.body or {}).get("error", {}).get("code") if isinstance(self.body, dict) else None


class Api:
    """A browser-like client: keeps cookies, sends Django's CSRF header."""

    def __init__(self, base_url: str, *, token: str | None = None, language: str = "en"):
        self.base_url = base_url
        self.token = token
        self.language = language
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)

    def request(self, method: str, path: str, body=None, *, raw: bytes | None = None,
                headers: dict | None = None, csrf: bool = True) -> Reply:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("Accept-Language", self.language)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        if csrf and self.cookie("csrftoken"):
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with self.opener.open(req, timeout=60) as resp:
                status, payload, hdrs = resp.status, resp.read(), dict(resp.headers)
        except urllib.error.HTTPError as error:
            status, payload, hdrs = error.code, error.read(), dict(error.headers)
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = {"_raw": payload.decode(errors="replace")}
        return Reply(status, parsed, hdrs)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, {} if body is None else body, **kw)

    def patch(self, path, body=None, **kw):
        return self.request("PATCH", path, body, **kw)

    # Steps the tests repeat.
    def start(self, game: str, date: str | None = None) -> dict:
        body = {"game": game} if date is None else {"game": game, "date": date}
        reply = self.post("/api/v1/attempts", body)
        assert reply.status == 201, reply.body
        return reply.body

    def finish(self, attempt: dict) -> dict:
        reply = self.post(f"/api/v1/attempts/{attempt['id']}/finish")
        assert reply.status == 200, reply.body
        return reply.body

    def hint(self, attempt_id: int) -> Reply:
        """GET the attempt's hint, asked again while the solver still
        searches (202 pending), as a client does after Retry-After."""
        path = f"/api/v1/attempts/{attempt_id}/hint"
        replies = []

        def answered():
            replies.append(self.get(path))
            return replies[-1].status != 202

        # The search's budget (PLAY_HINT_MAX_SECONDS) ends it well before this.
        wait_until(answered, seconds=300, every=0.5,
                   explain=lambda: f"the hint stayed pending: {replies[-1].body}")
        return replies[-1]

    def any_move(self, attempt: dict) -> dict:
        """Plays the first legal move the attempt offers."""
        legal = attempt["legal"][0]
        return self.move(attempt, f"{legal['card']}>{legal['targets'][0]}")

    def move(self, attempt: dict, move: str) -> dict:
        reply = self.post(f"/api/v1/attempts/{attempt['id']}/moves",
                          {"move": move, "version": attempt["version"]})
        assert reply.status == 200, reply.body
        return reply.body


@pytest.fixture(autouse=True)
def _generous_throttles(generous_throttles):
    """Every play test: fresh cache, rates no test reaches (tests/conftest.py)."""


@pytest.fixture
def rates(settings):
    """rates(**scopes): the throttle rates for this test (others unlimited)."""

    def set_rates(**scopes):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            "anon": "100000/min", "user": "100000/min", **scopes}}

    return set_rates


@pytest.fixture
def api(live_server):
    """A new visitor: makes the guest with its first request."""

    def make(**kw) -> Api:
        client = Api(live_server.url, **kw)
        assert client.get("/api/v1/me").status == 200
        return client

    return make


@pytest.fixture
def bare_api(live_server):
    """bare_api(token=None) -> an Api that has made no request yet."""
    return lambda **kw: Api(live_server.url, **kw)


@pytest.fixture
def password():
    return PASSWORD


# -- deals --------------------------------------------------------------------------


@pytest.fixture
def make_deal(transactional_db):
    """make_deal(game, date, position=..., certificate=...) -> DailyDeal"""
    return deal_create


@pytest.fixture
def certificate_of():
    """certificate_of(game) -> (position, certificate) found by the solver."""
    return certified


@pytest.fixture
def at(monkeypatch):
    """at(utc_datetime): the server's clock (api.clock.now) reads that moment
    from now on; the live server runs in this process, so it sees it too."""
    from api import clock

    def set_clock(moment):
        monkeypatch.setattr(clock, "now", lambda: moment)
    return set_clock


@pytest.fixture
def make_player(transactional_db):
    return player_create


@pytest.fixture
def login():
    """login(make_api, user) -> an Api logged in to that user's session."""
    return logged_in


@pytest.fixture
def todays_deals(transactional_db, today):
    return {game: deal_create(game, today) for game in ("cruel", "flower")}


# -- named players ------------------------------------------------------------------


def player_create(username: str, display_name: str | None = None):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    Player.objects.create(user=user, display_name=display_name or username.title(), is_guest=False)
    return user


@pytest.fixture
def alice(transactional_db):
    return player_create("alice")


@pytest.fixture
def bob(transactional_db):
    return player_create("bob")


@pytest.fixture
def carol(transactional_db):
    return player_create("carol")


def logged_in(make, user) -> Api:
    client = make()
    reply = client.post("/api/v1/auth/login", {"username": user.username, "password": PASSWORD})
    assert reply.status == 200, reply.body
    return client


@pytest.fixture
def as_alice(api, alice):
    return logged_in(api, alice)


@pytest.fixture
def as_bob(api, bob):
    return logged_in(api, bob)
