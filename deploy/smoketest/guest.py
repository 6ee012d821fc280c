"""A player through the published port, as the TLS terminator on the host
would forward them (Guest), and what a player does and sees: today's deals,
a deal won move by move, their records and leaderboard entry."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

from .stack import (
    HOST,
    STACK,
    StepFailed,
    compose,
    container,
    detail,
    manage,
    run,
    text,
    wait,
    worker_log,
)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to check, not to follow


class Guest:
    """A browser behind the TLS proxy: X-Forwarded-Proto https, session and
    CSRF cookies kept by hand (they are Secure, and the hop here is HTTP).
    ``address`` is the client address the host's proxy forwards (each
    simulated player its own); ``headers`` holds the last answer's headers."""

    def __init__(self, address: str = "203.0.113.7", timeout: float = 60):
        self.cookies: dict[str, str] = {}
        self.opener = urllib.request.build_opener(_NoRedirect)
        self.address = address
        self.timeout = timeout
        self.headers = None

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        """The answer's status and body, whatever the status."""
        sent = {
            "Host": HOST,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": self.address,
            "Accept": "application/json",
            "Accept-Language": "en",
            **(headers or {}),
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if method not in ("GET", "HEAD"):
            sent["Origin"] = f"https://{HOST}"
            sent["Referer"] = f"https://{HOST}/"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = urllib.request.Request(STACK.base_url + path, data=data, headers=sent, method=method)
        try:
            response = self.opener.open(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            response = error
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            if re.search(r"max-age=0\b", header, re.I):
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value.strip().strip('"')
        raw = response.read()
        self.headers = response.headers
        return (response.status if hasattr(response, "status") else response.code), raw

    def request(self, method: str, path: str, body=None, expect: int | tuple = 200):
        status, raw = self.call(method, path, body)
        expected = (expect,) if isinstance(expect, int) else expect
        if status not in expected:
            raise StepFailed(f"{method} {path} answered {status}: {raw[:500]!r}")
        return json.loads(raw) if raw else None


def step_todays_deals(guest: Guest) -> dict:
    me = guest.request("GET", "/api/v1/me")
    if not me["is_guest"] or "csrftoken" not in guest.cookies:
        raise StepFailed(f"GET /api/v1/me did not make a guest with a CSRF cookie: {me}")
    guest.request("PATCH", "/api/v1/me", {"display_name": "Smoke Guest"})
    detail(f"new guest {me['username']} (id {me['id']}), display name 'Smoke Guest'")

    def ready():
        daily = guest.request("GET", "/api/v1/daily")
        games = {deal["game"] for deal in daily["deals"] if deal["ready"]}
        return daily if games == {"cruel", "flower"} else None

    daily = wait("today's deals to be verified", ready, 600, every=3)
    for deal in daily["deals"]:
        detail(f"{daily['date']} {deal['game']}: ready, {deal['solution_length']} moves, "
               f"difficulty {deal['difficulty']}")
    log = worker_log()
    verified = len(re.findall(r"verify_deal\[[^\]]+\] succeeded in [^:]+: 'verified'", log))
    web_log = run("docker", "logs", container("web"))
    in_web = "verify_deal" in (web_log.stdout + web_log.stderr).decode(errors="replace")
    eager = manage("shell", "-v", "0", "-c", "from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER)")
    if verified < 2 or in_web or eager != "False":
        raise StepFailed(f"verification not by the worker: {verified} in its log, in web's log: {in_web}, "
                         f"web runs tasks eagerly: {eager}")
    detail(f"the worker's log: {verified} verify_deal tasks succeeded 'verified' (the web process runs "
           "none: CELERY_TASK_ALWAYS_EAGER False, tasks go to Redis)")
    return daily


def step_win(guest: Guest, daily: dict) -> dict:
    game = "cruel"
    attempt = guest.request("POST", "/api/v1/attempts", {"game": game}, expect=201)
    notation = attempt["position"]["notation"]
    solved = json.loads(text(compose("exec", "-T", "web", "python", "-m", "solitaire", "solve", notation,
                                     "--json", "--max-seconds", "30")))
    if solved["status"] != "solved":
        raise StepFailed(f"the solver did not solve the attempt's start: {solved['status']}")
    moves = solved["moves"].split()
    detail(f"attempt {attempt['id']} ({'ranked' if attempt['ranked'] else 'practice'}) on {game} "
           f"{attempt['date']}; the solver's line: {len(moves)} moves")
    started = time.monotonic()
    for move in moves:
        attempt = guest.request("POST", f"/api/v1/attempts/{attempt['id']}/moves",
                                {"move": move, "version": attempt["version"]})
    if attempt["status"] != "won" or attempt["counters"]["cards_home"] != 52:
        raise StepFailed(f"after the line: {attempt['status']}, {attempt['counters']}")
    detail(f"{len(moves)} moves posted one by one in {time.monotonic() - started:.1f} s: "
           f"status won, 52 cards home, {attempt['counters']['redeals']} redeals")
    return attempt


def leaderboard_entry(guest: Guest, attempt: dict) -> dict:
    board = guest.request("GET", f"/api/v1/leaderboard/{attempt['game']}/{attempt['date']}")
    me = board["me"]
    if not me or me["attempt_id"] != attempt["id"] or me["cards_home"] != 52 or me["display_name"] != "Smoke Guest":
        raise StepFailed(f"the leaderboard does not show the player's win: {board}")
    return {"rank": me["rank"], "total": board["total"], "cards_home": me["cards_home"],
            "display_name": me["display_name"], "attempt_id": me["attempt_id"]}


def records(guest: Guest, attempt: dict) -> dict:
    """What the player has: their identity, the won attempt, their leaderboard entry."""
    me = guest.request("GET", "/api/v1/me")
    stored = guest.request("GET", f"/api/v1/attempts/{attempt['id']}")
    log = guest.request("GET", f"/api/v1/attempts/{attempt['id']}/log")
    return {
        "player": me["id"],
        "display_name": me["display_name"],
        "attempt": [stored["id"], stored["status"], stored["counters"]["cards_home"], stored["version"]],
        "replay_ok": log["replay_ok"],
        "leaderboard": leaderboard_entry(guest, attempt),
    }
