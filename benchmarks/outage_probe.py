"""Probe a production-like server black-box while its cache hangs, and print
each check with PASS or FAIL.

Self-contained, as load_bench.py: a scratch PostgreSQL database (dropped at
the end unless --keep), migrated, today's deals prepared by the solver; a
redis-server of the probe's own on a free port as the cache (it is the one
stopped with SIGSTOP: the machine's shared Redis is never touched); gunicorn
with deploy/gunicorn.conf.py and DEBUG=false. Only HTTP reaches the server.

One function per item of the hardening list; each returns its checks.

- 1: a solver's line cannot be posted as one batch on a ranked attempt;
  posted move by move at machine speed it wins, is marked machine_pace,
  and is ranked after a person-paced player with fewer cards home.
- 2: with the ranked attempt open, no practice attempt and no hint on the deal.
- 3: a logout made while the cache hangs stays final once it is back.
- 4: wrong passwords lock the account out while the cache hangs.
- 5: with the cache hung, 16 players keep at least half their moves per
  second and a move's p99 stays under 600 ms; /health/ says degraded at
  once; a new guest is made at once.

    python benchmarks/outage_probe.py [--players 16] [--seconds 15]
        [--admin-url postgres://root@127.0.0.1:5432/postgres] [--db outage_probe] [--keep]

Exit status 1 when any check fails.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import common

PASSWORD = "a long pass phrase for the probe 42"


# -- a small HTTP client: keep-alive, cookies, Django's CSRF header ---------------------------


class Client:
    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body=None, *, cookies: dict | None = None):
        headers = {"Accept": "application/json", "Accept-Language": "en"}
        jar = self.cookies if cookies is None else cookies
        if jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        if "csrftoken" in jar:
            headers["X-CSRFToken"] = jar["csrftoken"]
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                reply = self.conn.getresponse()
                payload = reply.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        if cookies is None:
            for header, value in reply.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    cookie_value = rest.split(";", 1)[0]
                    if cookie_value in ('""', "") or "Max-Age=0" in value:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = cookie_value
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = None
        return reply.status, parsed


@dataclass
class Check:
    item: int
    what: str
    ok: bool
    detail: str


# -- the cache the probe stops ------------------------------------------------------------------


class ProbeRedis:
    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.proc = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        common.wait_listening(self.port, self.proc, "redis-server", seconds=10)

    @contextmanager
    def hung(self):
        """SIGSTOP for the block; always SIGCONT after it."""
        self.proc.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.proc.send_signal(signal.SIGCONT)

    def stop(self):
        self.proc.send_signal(signal.SIGCONT)
        self.proc.kill()
        self.proc.wait()


# -- the items ------------------------------------------------------------------------------------


def _guest(port: int) -> Client:
    client = Client(port)
    client.request("GET", "/api/v1/me")
    return client


def _solver_line(attempt: dict) -> list[str]:
    import solitaire

    result = solitaire.solve(solitaire.parse_position(attempt["position"]["notation"]),
                             max_seconds=60)
    if result.status is not solitaire.SolveStatus.SOLVED:
        raise SystemExit(f"the solver did not solve today's deal: {result.status}")
    return [move.token() for move in result.moves]


def _first_move(attempt: dict) -> str:
    return f"{attempt['legal'][0]['card']}>{attempt['legal'][0]['targets'][0]}"


def item_1(port: int, cache: ProbeRedis) -> list[Check]:
    person = _guest(port)
    _, slow = person.request("POST", "/api/v1/attempts", {"game": "flower"})
    for _ in range(2):  # a person's pace: a look between moves
        time.sleep(0.3)
        _, slow = person.request("POST", f"/api/v1/attempts/{slow['id']}/moves",
                                 {"move": _first_move(slow), "version": slow["version"]})
    machine = _guest(port)
    _, attempt = machine.request("POST", "/api/v1/attempts", {"game": "flower"})
    line = _solver_line(attempt)
    path = f"/api/v1/attempts/{attempt['id']}/moves"
    batch, body = machine.request("POST", path, {"moves": line[:52], "version": 0})
    code = ((body or {}).get("error") or {}).get("code")
    for move in line:
        status, attempt = machine.request("POST", path, {"move": move, "version": attempt["version"]})
        if status != 200:
            break
    _, board = machine.request("GET", f"/api/v1/leaderboard/flower/{attempt['date']}?limit=100")
    me = board["me"] or {}
    _, seen = person.request("GET", f"/api/v1/leaderboard/flower/{attempt['date']}?limit=100")
    return [
        Check(1, "a ranked batch of the solver's line is refused", batch == 422 and
              code == "batch_not_home", f"{batch} {code}"),
        Check(1, "the line posted move by move at machine speed wins",
              attempt.get("status") == "won", f"{attempt.get('status')}"),
        Check(1, "the machine-paced result is marked", me.get("machine_pace") is True,
              f"machine_pace {me.get('machine_pace')}"),
        Check(1, "a person with fewer cards home ranks above it",
              (seen["me"] or {}).get("rank", 10**9) < me.get("rank", 0),
              f"person {(seen['me'] or {}).get('rank')} ({slow['counters']['cards_home']}/52), "
              f"machine {me.get('rank')} (52/52)"),
    ]


def item_2(port: int, cache: ProbeRedis) -> list[Check]:
    player = _guest(port)
    _, ranked = player.request("POST", "/api/v1/attempts", {"game": "cruel"})
    practice, body = player.request("POST", "/api/v1/attempts", {"game": "cruel"})
    hint, _ = player.request("GET", f"/api/v1/attempts/{ranked['id']}/hint")
    player.request("POST", f"/api/v1/attempts/{ranked['id']}/finish")
    after, _ = player.request("POST", "/api/v1/attempts", {"game": "cruel"})
    code = ((body or {}).get("error") or {}).get("code")
    return [
        Check(2, "no practice attempt while the ranked one is open",
              practice == 409 and code == "ranked_open", f"{practice} {code}"),
        Check(2, "no hint on the open ranked attempt", hint == 403, f"{hint}"),
        Check(2, "practice opens once the ranked attempt is finished", after == 201, f"{after}"),
    ]


def _account(port: int, name: str) -> Client:
    client = Client(port)
    client.request("GET", "/api/v1/me")
    status, body = client.request("POST", "/api/v1/auth/register",
                                  {"username": name, "password": PASSWORD})
    if status != 201:
        raise SystemExit(f"could not register {name}: {status} {body}")
    return client


def item_3(port: int, cache: ProbeRedis) -> list[Check]:
    name = f"probe3{int(time.time()) % 100000}"
    player = _account(port, name)
    status, me = player.request("GET", "/api/v1/me")
    old = dict(player.cookies)
    with cache.hung():
        status, _ = player.request("POST", "/api/v1/auth/logout")
    time.sleep(1)
    replay = Client(port)
    _, me_again = replay.request("GET", "/api/v1/me", cookies={"sessionid": old["sessionid"]})
    started, body = replay.request("POST", "/api/v1/attempts", {"game": "cruel"}, cookies=old)
    still_in = (me_again or {}).get("username") == name
    return [
        Check(3, "logout while the cache hangs answers 204", status == 204, f"{status}"),
        Check(3, "the old session cookie is not authenticated once the cache is back",
              not still_in, f"/me answers {(me_again or {}).get('username')!r}"),
        Check(3, "the old session cookie starts no attempt as the player",
              not (started == 201 and still_in), f"POST /attempts {started}"),
    ]


def item_4(port: int, cache: ProbeRedis) -> list[Check]:
    name = f"probe4{int(time.time()) % 100000}"
    _account(port, name)
    client = Client(port)
    client.request("GET", "/api/v1/me")
    with cache.hung():
        wrong = [client.request("POST", "/api/v1/auth/login",
                                {"username": name, "password": "wrong"})[0] for _ in range(25)]
        right, _ = client.request("POST", "/api/v1/auth/login", {"username": name, "password": PASSWORD})
    passed_through = wrong.count(400)
    return [
        Check(4, "at most the free failures are tried while the cache hangs",
              passed_through <= 5, f"{passed_through} answered 400, {wrong.count(429)} 429"),
        Check(4, "the right password after 25 wrong ones is locked out", right == 429, f"{right}"),
    ]


def _play(port: int, players: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    lock = threading.Lock()

    def run(client: Client, stop_at: float):
        _, attempt = client.request("POST", "/api/v1/attempts", {"game": "cruel"})
        mine = []
        while time.monotonic() < stop_at:
            if not attempt or attempt.get("status") != "playing" or not attempt.get("legal"):
                _, attempt = client.request("POST", "/api/v1/attempts", {"game": "cruel"})
                continue
            legal = attempt["legal"][0]
            began = time.perf_counter()
            status, reply = client.request(
                "POST", f"/api/v1/attempts/{attempt['id']}/moves",
                {"move": f"{legal['card']}>{legal['targets'][0]}", "version": attempt["version"]})
            mine.append(time.perf_counter() - began)
            attempt = reply if status == 200 else None
        with lock:
            latencies.extend(mine)

    clients = []
    for _ in range(players):
        client = Client(port)
        client.request("GET", "/api/v1/me")
        clients.append(client)
    stop_at = time.monotonic() + seconds
    threads = [threading.Thread(target=run, args=(c, stop_at)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies


def item_5(port: int, cache: ProbeRedis, *, players: int, seconds: float) -> list[Check]:
    up = _play(port, players, seconds)
    with cache.hung():
        began = time.perf_counter()
        status, health = Client(port).request("GET", "/health/")
        health_seconds = time.perf_counter() - began
        began = time.perf_counter()
        Client(port).request("GET", "/api/v1/me")
        guest_seconds = time.perf_counter() - began
        hung = _play(port, players, seconds)
    rate_up, rate_hung = len(up) / seconds, len(hung) / seconds
    p99 = statistics.quantiles(hung, n=100)[98] if len(hung) >= 2 else float("inf")
    p50 = statistics.median(hung) if hung else float("inf")
    p99_up = statistics.quantiles(up, n=100)[98] if len(up) >= 2 else float("inf")
    return [
        Check(5, f"{players} players keep half their moves/s with the cache hung",
              rate_hung >= rate_up / 2, f"{rate_up:.0f} -> {rate_hung:.0f} moves/s"),
        Check(5, "a move's p99 stays under 600 ms with the cache hung",
              p99 < 0.6, f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms; "
                         f"cache up: p99 {p99_up * 1000:.0f} ms"),
        Check(5, "/health/ says degraded at once",
              status == 200 and (health or {}).get("status") == "degraded" and health_seconds < 1.0,
              f"{status} {(health or {}).get('status')} in {health_seconds:.2f} s"),
        Check(5, "a new guest is made at once", guest_seconds < 1.0, f"{guest_seconds:.2f} s"),
    ]


# -- the run ----------------------------------------------------------------------------------


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=16)
    p.add_argument("--seconds", type=float, default=15,
                   help="each measured window (the requests in flight when the cache hangs "
                        "pay one timeout each: a short window makes them weigh in the p99)")
    p.add_argument("--admin-url", default="postgres://root@127.0.0.1:5432/postgres")
    p.add_argument("--db", default="outage_probe")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = p.parse_args(argv)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        args.port = s.getsockname()[1]
    args.server_log = open(os.devnull, "w")

    import psycopg

    cache = ProbeRedis()
    args.cache_url = f"redis://127.0.0.1:{cache.port}/0"
    url = common.db_url(args.admin_url, args.db)
    with psycopg.connect(args.admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {args.db} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {args.db}")
    checks: list[Check] = []
    try:
        env = common.server_env(args, url, args.workers)
        env.update({"METRICS_PORT": "0", "API_THROTTLE_GUEST": "1000/hour"})
        common.manage(env, "migrate", "--no-input")
        common.manage(env, "prepare_deals")
        with common.Server(args, env):
            for item in (item_1, item_2, item_3, item_4):
                checks += item(args.port, cache)
                time.sleep(6)  # past CACHE_RETRY_SECONDS: each item starts on a working cache
            checks += item_5(args.port, cache, players=args.players, seconds=args.seconds)
    finally:
        cache.stop()
        if not args.keep:
            with psycopg.connect(args.admin_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {args.db} WITH (FORCE)")
    for check in checks:
        print(f"{'PASS' if check.ok else 'FAIL'}  item {check.item}: {check.what} ({check.detail})")
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
