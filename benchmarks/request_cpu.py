"""A request's CPU in the application itself: Django's WSGI application
called in this process, no server, no network, no client beside it.

Load benchmarks measure a server shared with its clients and the database;
this one isolates what the code spends, so a change to the move path shows
its gain on a noisy machine. It builds a scratch database with today's
deals (as load_bench.py does), then, as one guest player, times:

  GET /health/                the cheapest Django request (the floor)
  POST .../moves              a move of the verified solution (session,
                              CSRF, throttles, the attempt read, the engine,
                              the conditional write, the answer)
  GET /api/v1/attempts/{id}   an attempt read

CPU is the process's (time.process_time: user and system, this thread and
PostgreSQL's client side; PostgreSQL's own work is another process and not
counted). ``--parts`` times a move's parts (process CPU around each:
authentication, the rate, validation, the attempt read, the engine, the
write, the answer); ``--profile N`` prints cProfile's N costliest functions of the moves
(``--profile-sort tottime``: by their own time).
The three requests are interleaved, so the ratios hold while the machine's
speed drifts.

    python benchmarks/request_cpu.py [--game flower] [--requests 2000] [--parts]
        [--profile 25] [--profile-sort tottime]
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from http.cookies import SimpleCookie

from common import manage, scratch_database, server_env, today_deals

NAME = "request-cpu"


class Player:
    """One browser: its cookies, its CSRF token, its address."""

    def __init__(self, application):
        self.application = application
        self.cookies: dict[str, str] = {}

    def call(self, method: str, path: str, body=None) -> tuple[int, dict | None]:
        raw = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.9", "HTTP_HOST": "127.0.0.1", "HTTP_ACCEPT": "application/json",
            "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(raw), "wsgi.errors": sys.stderr,
            "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
            "wsgi.version": (1, 0),
        }
        if raw:
            environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(raw)))
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            environ["HTTP_X_CSRFTOKEN"] = self.cookies["csrftoken"]
            environ["HTTP_ORIGIN"] = "http://127.0.0.1"
        status_headers = []
        chunks = self.application(environ, lambda s, h, *e: status_headers.append((s, h)))
        content = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        status, headers = status_headers[0]
        for name, value in headers:
            if name.lower() == "set-cookie":
                for morsel in SimpleCookie(value).values():
                    self.cookies[morsel.key] = morsel.value
        answer = json.loads(content) if content.startswith((b"{", b"[")) else None
        return int(status.split()[0]), answer


class Line:
    """Moves of the verified solution, a new practice attempt when it is won."""

    def __init__(self, player: Player, game: str, moves: list[str]):
        self.player, self.game, self.moves = player, game, moves
        self.attempt, self.next = None, 0

    def start(self) -> None:
        status, self.attempt = self.player.call("POST", "/api/v1/attempts", {"game": self.game})
        assert status == 201, (status, self.attempt)
        self.next = 0

    def move(self) -> None:
        if self.attempt is None or self.next >= len(self.moves):
            self.start()
        a = self.attempt
        status, answer = self.player.call("POST", f"/api/v1/attempts/{a['id']}/moves",
                                          {"move": self.moves[self.next], "version": a["version"]})
        assert status == 200, (status, answer)
        self.attempt, self.next = answer, self.next + 1


def cpu_ms(call, count: int) -> list[float]:
    """Each call's process CPU in milliseconds."""
    out = []
    for _ in range(count):
        began = time.process_time()
        call()
        out.append((time.process_time() - began) * 1000)
    return out


def row(label: str, ms: list[float], floor: float | None) -> str:
    mean = statistics.fmean(ms)
    ratio = f"{mean / floor:5.2f}x" if floor else "     "
    return (f"{label:<40} mean {mean:6.3f} ms  median {statistics.median(ms):6.3f} ms  "
            f"{ratio} /health/")


def timed_parts() -> collections.Counter:
    """Wraps the move's parts so that each adds its process CPU seconds to
    the counter it returns."""
    from rest_framework import authentication
    from rest_framework import views as drf

    from api import sessions
    from api.play import domain
    from api.play.accounts import lockout
    from api.play.attempts import store
    from api.play.rest import answers, views

    spent: collections.Counter = collections.Counter()

    def wrap(owner, name, label):
        inner = getattr(owner, name)

        def timed(*args, **kwargs):
            began = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - began
        setattr(owner, name, timed)

    for owner, name, label in (
        (drf.APIView, "dispatch", "DRF dispatch (all below)"),
        (drf.APIView, "initial", "  authentication, CSRF and the rates"),
        (authentication.SessionAuthentication, "authenticate", "    session authentication"),
        (sessions.SessionStore, "_get_session_from_db", "      the session read"),
        (lockout.LockoutModelBackend, "get_user", "      the user read"),
        (authentication.SessionAuthentication, "enforce_csrf", "      the CSRF check"),
        (drf.APIView, "check_throttles", "    the rates"),
        (views, "_valid", "  the body (MoveIn)"),
        (store, "load", "  the attempt read"),
        (domain, "play", "  the engine step and legal moves"),
        (store, "save", "  the conditional write"),
        (answers.AttemptOut, "build", "  the answer"),
        (drf.APIView, "finalize_response", "  DRF's finalize"),
    ):
        spent[label] = 0.0  # printed in this order
        wrap(owner, name, label)
    return spent


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="flower", choices=("flower", "cruel"))
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--profile", type=int, default=0, metavar="N")
    p.add_argument("--profile-sort", default="cumulative", choices=("cumulative", "tottime"))
    p.add_argument("--parts", action="store_true")
    p.add_argument("--admin-url", default="postgres://root@127.0.0.1:5432/postgres")
    p.add_argument("--db", default="request_cpu")
    p.add_argument("--cache-url", default="redis://127.0.0.1:6379/14")
    p.add_argument("--keep", action="store_true")
    args = p.parse_args(argv)
    args.port, args.threads = 0, 1
    return args


def measure(args, lines: dict[str, list[str]]) -> None:
    import django

    django.setup()
    from django.core.wsgi import get_wsgi_application

    player = Player(get_wsgi_application())
    assert player.call("GET", "/api/v1/me")[0] == 200  # the CSRF cookie
    line = Line(player, args.game, lines[args.game])
    for _ in range(50):  # warm: caches, compiled queries, the engine
        line.move()
        player.call("GET", "/health/")
    # Interleaved, so that the machine's speed, which drifts, weighs on the
    # three alike and the ratios hold.
    health, moves, read = [], [], []
    for _ in range(args.requests):
        health += cpu_ms(lambda: player.call("GET", "/health/"), 1)
        moves += cpu_ms(line.move, 1)
        read += cpu_ms(lambda: player.call("GET", f"/api/v1/attempts/{line.attempt['id']}"), 1)
    floor = statistics.fmean(health)
    print(f"request_cpu: {args.game}, {args.requests} requests each, in-process, "
          f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    print(row("GET /health/", health, None))
    print(row("POST /attempts/{id}/moves", moves, floor))
    print(row("GET /attempts/{id}", read, floor))
    if args.parts:
        spent = timed_parts()
        total = sum(cpu_ms(line.move, args.requests))
        print(f"a move's parts, {args.requests} moves, {total / args.requests:.3f} ms a move:")
        for label, seconds in spent.items():
            print(f"  {label:<44} {seconds * 1000 / args.requests:6.3f} ms")
    if args.profile:
        profile = cProfile.Profile(time.process_time)  # CPU, not waits on the database
        profile.runcall(lambda: [line.move() for _ in range(args.requests)])
        stats = pstats.Stats(profile)
        stats.sort_stats(args.profile_sort).print_stats(args.profile)


def main(argv=None) -> int:
    args = parse_args(argv)
    with scratch_database(args.admin_url, args.db, keep=args.keep) as url:
        env = server_env(args, url, 1, name=NAME)
        env.update({
            # One player moving as fast as the CPU allows: no rate, cap or pace stops it.
            "API_THROTTLE_USER": "100000000/min", "API_THROTTLE_ANON": "100000000/min",
            "PLAY_MAX_ATTEMPTS_PER_DEAL": "100000", "PLAY_ANALYSIS_ON_FINISH": "false",
        })
        manage(env, "migrate", "--no-input")
        manage(env, "prepare_deals")
        _, lines = today_deals(env)
        os.environ.clear()
        os.environ.update(env, DJANGO_SETTINGS_MODULE="api.settings")
        measure(args, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
