"""The README's first command as a new user runs it: a clean copy of the
checkout, ``scripts/serve`` (its own .venv, the embedded default: SQLite, no
broker, no shared cache), and a guest who wins both of today's deals over
HTTP by the solver's line, then reads every page of records."""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
# Settings a developer or the test run may have set: serve must not see them.
_NOT_INHERITED = ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DEBUG", "SECRET_KEY",
                  "DEAL_SEED_SECRET", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE", "VIRTUAL_ENV")


def _clean_copy(destination: Path) -> None:
    """The files a fresh clone holds (tracked, and new ones not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Guest:
    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def call(self, method: str, path: str, body=None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), None)
        if token:
            request.add_header("X-CSRFToken", token)
        try:
            with self.opener.open(request, timeout=60) as reply:
                status, payload = reply.status, reply.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        is_json = payload[:1] in (b"{", b"[")
        return status, json.loads(payload) if is_json else payload.decode(errors="replace")

    def ok(self, method: str, path: str, body=None, *, expect: int = 200):
        status, answer = self.call(method, path, body)
        assert status == expect, (method, path, status, answer)
        return answer


def _wait_until_served(base: str, process: subprocess.Popen, log: Path, seconds: float) -> None:
    def served() -> bool:
        assert process.poll() is None, f"scripts/serve stopped:\n{log.read_text()[-4000:]}"
        try:
            with urllib.request.urlopen(base + "/health/", timeout=5) as reply:
                return reply.status == 200
        except OSError:
            return False

    wait_until(served, seconds=seconds, every=1,
               explain=lambda: f"nothing served within {seconds} s:\n{log.read_text()[-4000:]}")


def test_scripts_serve_on_a_clean_checkout_serves_deals_a_guest_wins(tmp_path):
    checkout = tmp_path / "checkout"
    _clean_copy(checkout)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    env["PORT"] = str(port)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(ROOT)))
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(["scripts/serve"], cwd=checkout, env=env, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_served(base, process, log, seconds=900)
        assert "Installing the project" in log.read_text()  # its own .venv, from nothing
        guest = _Guest(base)
        me = guest.ok("GET", "/api/v1/me")
        daily = guest.ok("GET", "/api/v1/daily")
        today = daily["date"]
        assert sorted(d["game"] for d in daily["deals"] if d["ready"]) == ["cruel", "flower"]
        with sqlite3.connect(checkout / "db.sqlite3") as db:
            lines = dict(db.execute(
                "SELECT game, certificate FROM deals_dailydeal WHERE date = ? AND state = 'verified'",
                (today,)))
        for game in ("cruel", "flower"):
            attempt = guest.ok("POST", "/api/v1/attempts", {"game": game}, expect=201)
            assert attempt["ranked"] is True
            path = f"/api/v1/attempts/{attempt['id']}"
            for move in lines[game].split():
                attempt = guest.ok("POST", f"{path}/moves",
                                   {"move": move, "version": attempt["version"]})
            assert attempt["status"] == "won" and attempt["counters"]["cards_home"] == 52
            assert guest.ok("GET", path)["status"] == "won"
            assert guest.ok("GET", f"{path}/log")["replay_ok"] is True
            board = guest.ok("GET", f"/api/v1/leaderboard/{game}/{today}")
            assert board["me"]["rank"] == 1 and board["entries"][0]["cards_home"] == 52
            calendar = guest.ok("GET", f"/api/v1/calendar/{game}")
            assert any(day["record"] for day in calendar["days"] if day["date"] == today)
        history = guest.ok("GET", "/api/v1/history")
        assert history["streaks"]["won"]["current"] == 1, history
        assert guest.ok("GET", "/api/v1/attempts")["count"] == 2
        assert guest.ok("GET", "/api/v1/me")["id"] == me["id"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
