"""Load the play API as an operator would, and check that no move was lost.

Self-contained: creates a scratch PostgreSQL database (dropped at the end
unless --keep), migrates it, prepares and verifies today's deals of both
games with the solver, starts gunicorn with deploy/gunicorn.conf.py,
DEBUG=false and the Redis cache, runs the scenarios, stops gunicorn.

Players are closed loops on persistent keep-alive connections (asyncio
streams, one process): each is a guest with its own session, bound to its
own loopback address (127.1.x.y), so every player is a distinct client to
the server and its per-address limits. A player starts an attempt (its
first is ranked), plays the deal's verified solution move by move (each
move waits for its answer, then the player thinks --think-ms), and starts a
practice attempt when it has won. Only moves answered within the measured
window count; a lost connection is retried with the same version, as the
page does (a retry of an applied move is answered `replayed`).

After each scenario every attempt's log (GET /attempts/{id}/log) is compared
with the moves the server acknowledged: a move missing from the log is
lost, one more than acknowledged is doubled, and `replay_ok` must hold.

Scenarios (--scenarios, comma-separated):
  human       players at a person's pace (think time lognormal around
              --human-median-s, random start), stepped up (--human-steps)
              until a step's move p99 passes --human-p99-ms; prints the
              largest count that held (the headline: players held)
  play        N players with a fixed think time, each game apart
  capacity    N players, no think time, each game apart (the saturation)
  hints       --paced-players players at a person's pace while H guests
              flood hints (in practice on the day before's deal: today's
              gets none) from positions of their own (random legal moves,
              so no answer comes from the position cache), with no thought
              but the Retry-After of a refusal
  mixed       --paced-players players at a person's pace while R guests
              read the leaderboard and their history
  scale       capacity with 1, 2 and 4 gunicorn workers (WEB_CONCURRENCY)
  floor       the stack's ceiling: N clients asking GET /health/ (a plain
              Django view: one query, three cache calls) with no think time;
              then the same against gunicorn serving a constant (no Django);
              capacity is printed against /health/'s requests a second
  pgbench     pgbench's ceiling for a move-shaped transaction (lock the
              attempt row, update it, insert an action) on the same database,
              with prepared statements as the service uses them

    python benchmarks/load_bench.py [--players 200] [--think-ms 150] [--seconds 20]
        [--scenarios human,play,capacity,hints,mixed,scale,floor,pgbench] [--port 8230]
        [--human-steps 200,400,800,1200,1600] [--human-median-s 1.5] [--paced-players 400]
        [--admin-url postgres://root@127.0.0.1:5432/postgres] [--db load_bench]
        [--cache-url redis://127.0.0.1:6379/15] [--workers 5] [--threads 4]
        [--smoke] [--json OUT] [--keep]

Exit status 1 when any move was lost or doubled or a log did not replay.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from common import (
    ROOT,
    Server,
    machine_speed,
    manage,
    scratch_database,
    today_deals,
)
from common import server_env as _server_env

NAME = "load-bench"


def server_env(args, url: str, workers: int) -> dict:
    return _server_env(args, url, workers, name=NAME)


# -- a small HTTP/1.1 keep-alive client ------------------------------------------


class Client:
    """One player's connection and session (cookies kept by hand)."""

    def __init__(self, port: int, address: str):
        self.port = port
        self.address = address
        self.reader = self.writer = None
        self.cookies: dict[str, str] = {}
        self.retry_after = 0.0  # the last answer's Retry-After, in seconds

    async def _connect(self):
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.port, local_addr=(self.address, 0)
        )

    def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, body=None, *, retries: int = 5):
        """(status, decoded JSON or None, seconds). Reconnects and sends the
        same request again when the connection drops (the server closes idle
        or recycled workers' connections)."""
        payload = b"" if body is None else json.dumps(body).encode()
        headers = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        if self.cookies:
            headers.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if "csrftoken" in self.cookies and method != "GET":
            headers.append(f"X-CSRFToken: {self.cookies['csrftoken']}")
        if body is not None:
            headers.append("Content-Type: application/json")
        headers.append(f"Content-Length: {len(payload)}")
        raw = ("\r\n".join(headers) + "\r\n\r\n").encode() + payload
        for attempt in range(retries + 1):
            start = time.perf_counter()
            try:
                if self.writer is None:
                    await self._connect()
                self.writer.write(raw)
                status, data, close = await self._response()
                elapsed = time.perf_counter() - start
                if close:
                    self.close()
                return status, data, elapsed
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                self.close()
                if attempt == retries:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))

    async def _response(self):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length, chunked, close = 0, False, False
        self.retry_after = 0.0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            value = value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "retry-after":
                self.retry_after = float(value)
            elif name == "set-cookie":
                pair = value.split(";", 1)[0]
                k, _, v = pair.partition("=")
                self.cookies[k.strip()] = v.strip()
        if chunked:
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        else:
            body = await self.reader.readexactly(length) if length else b""
        data = json.loads(body) if body[:1] in (b"{", b"[") else None
        return status, data, close


def address(i: int) -> str:
    return f"127.1.{i // 250}.{i % 250 + 1}"


# -- players ---------------------------------------------------------------------


@dataclass(frozen=True)
class Think:
    """Seconds a player thinks between moves: ``median`` each time, or with
    ``sigma`` drawn from a lognormal around it (a person's pace: most moves
    near the median, a few long looks)."""

    median: float
    sigma: float = 0.0

    def __call__(self) -> float:
        if not self.sigma:
            return self.median
        return random.lognormvariate(math.log(self.median), self.sigma)

    def __bool__(self) -> bool:
        return self.median > 0

    def label(self) -> str:
        ms = round(self.median * 1000)
        return f"~{ms} ms" if self.sigma else f"{ms} ms"


NO_THINK = Think(0.0)


@dataclass
class Run:
    deadline_start: float = float("inf")  # the measured window, set once all have joined
    deadline_end: float = float("inf")
    joined: int = 0
    latencies: dict = field(default_factory=dict)  # kind -> [seconds] in the window
    errors: dict = field(default_factory=dict)  # "kind status" -> count
    attempts: list = field(default_factory=list)  # (client, attempt id, acknowledged tokens)
    stop: bool = False
    stop_reason: str | None = None

    def note(self, kind: str, status: int, seconds: float, ok: bool, end: float):
        if not ok:
            key = f"{kind} {status}"
            self.errors[key] = self.errors.get(key, 0) + 1
        elif self.deadline_start <= end <= self.deadline_end:
            self.latencies.setdefault(kind, []).append(seconds)


async def join(client: Client, run: Run) -> None:
    status, _, seconds = await client.request("GET", "/api/v1/me")
    run.note("me", status, seconds, status == 200, time.perf_counter())


async def start_attempt(client: Client, run: Run, game: str, date: str = ""):
    body = {"game": game, "date": date} if date else {"game": game}
    status, data, seconds = await client.request("POST", "/api/v1/attempts", body)
    run.note("start", status, seconds, status == 201, time.perf_counter())
    return data if status == 201 else None


async def player(i: int, port: int, game: str, line: list[str], think: Think, run: Run):
    client = Client(port, address(i))
    try:
        await join(client, run)
        await asyncio.sleep(random.random() * 2 * max(think.median, 0.025))  # spread the starts
        first = True
        while not run.stop:
            attempt = await start_attempt(client, run, game)
            if attempt is None:
                return
            if first:  # ready: the measured window waits for every player to get here
                run.joined += 1
                first = False
            acked: list[str] = []
            run.attempts.append((client, attempt["id"], acked))
            version = attempt["version"]
            for token in line:
                if run.stop:
                    break
                status, data, seconds = await client.request(
                    "POST", f"/api/v1/attempts/{attempt['id']}/moves",
                    {"move": token, "version": version},
                )
                ok = status == 200 and data is not None and data["version"] == version + 1
                run.note("move", status, seconds, ok, time.perf_counter())
                if not ok:
                    run.stop_reason = f"move {token} answered {status}: {str(data)[:200]}"
                    return
                acked.append(token)
                version = data["version"]
                if think:
                    await asyncio.sleep(think())
    except (ConnectionError, OSError, asyncio.IncompleteReadError) as error:
        run.stop_reason = f"player {i}: {error!r}"


async def hinter(i: int, port: int, game: str, past: str, run: Run):
    """A guest flooding hints from positions of its own: a practice attempt
    on the day before's deal (today's gets no hints until its day ends), one
    random legal move, then a hint, again and again, with
    no thought. A refusal (429 for its rate, 503 with every solver slot
    taken) is waited out for its Retry-After, as the page and any client
    that honours the API do; a client that does not is a flood of requests,
    which a proxy's per-address limit stops before Django."""
    client = Client(port, address(i))
    rng = random.Random(i)
    await join(client, run)
    attempt = await start_attempt(client, run, game, past)
    if attempt is None:
        return
    run.joined += 1
    acked: list[str] = []
    run.attempts.append((client, attempt["id"], acked))
    version, state = attempt["version"], attempt
    while not run.stop:
        status, data, seconds = await client.request(
            "GET", f"/api/v1/attempts/{attempt['id']}/hint")
        run.note("hint", status, seconds, status in (200, 429, 503), time.perf_counter())
        if status in (429, 503):
            run.note("hint_refused", status, seconds, True, time.perf_counter())
            await asyncio.sleep(client.retry_after or 1.0)
        choices = [f"{m['card']}>{t}" for m in state.get("legal", []) for t in m["targets"]]
        if not choices or state.get("status") != "playing":
            attempt = await start_attempt(client, run, game, past)
            if attempt is None:
                return
            acked = []
            run.attempts.append((client, attempt["id"], acked))
            version, state = attempt["version"], attempt
            continue
        token = rng.choice(choices)
        status, data, seconds = await client.request(
            "POST", f"/api/v1/attempts/{attempt['id']}/moves", {"move": token, "version": version})
        if status != 200:
            run.note("hinter_move", status, seconds, False, time.perf_counter())
            return
        acked.append(token)
        version, state = data["version"], data


async def reader(i: int, port: int, game: str, date: str, run: Run):
    client = Client(port, address(i))
    await join(client, run)
    run.joined += 1
    paths = [f"/api/v1/leaderboard/{game}/{date}", "/api/v1/history"]
    n = 0
    while not run.stop:
        path = paths[n % 2]
        n += 1
        status, _, seconds = await client.request("GET", path)
        run.note("leaderboard" if n % 2 else "history", status, seconds, status == 200,
                 time.perf_counter())
        await asyncio.sleep(0.1)


def trees_cpu(pids: tuple[int, ...]) -> float:
    return sum(process_tree_cpu(pid) for pid in pids) if pids else float("nan")


async def measured_window(run: Run, tasks, *, warmup: float, seconds: float,
                          server_pids: tuple[int, ...]) -> float:
    """Let the tasks warm up, then count what they do for ``seconds``; stop
    them. Returns the CPU seconds of the servers (gunicorn process trees)
    in the measured window."""
    run.deadline_start = time.perf_counter() + warmup
    run.deadline_end = run.deadline_start + seconds
    await asyncio.sleep(warmup)
    server0 = trees_cpu(server_pids)
    await asyncio.sleep(seconds)
    server1 = trees_cpu(server_pids)
    run.stop = True
    await asyncio.wait(tasks, timeout=30)
    return server1 - server0


async def health_floor(port: int, *, clients: int, seconds: float, warmup: float,
                       server_pids: tuple[int, ...] = ()) -> dict:
    """The stack's ceiling on this machine: GET /health/ (a plain Django view:
    one query and three cache calls, where a move makes three queries and two
    cache calls; the same gunicorn and middleware) by the same number of
    clients, closed loop with no think time. It has no session, no throttle,
    no engine and no write: a move cannot be answered as fast."""
    run = Run()

    async def pinger(i: int):
        client = Client(port, address(i))
        try:
            while not run.stop:
                status, _, took = await client.request("GET", "/health/")
                run.note("health", status, took, status == 200, time.perf_counter())
        finally:
            client.close()

    tasks = [asyncio.create_task(pinger(i)) for i in range(clients)]
    server_cpu = await measured_window(run, tasks, warmup=warmup, seconds=seconds,
                                          server_pids=server_pids)
    health = summary("health", run, seconds)
    return {"clients": clients, "seconds": seconds, "health": health, "errors": run.errors,
            "server_cpu_ms_per_request": round(server_cpu * 1000 / max(1, health["count"]), 2)}


async def check_logs(run: Run) -> dict:
    """Every attempt's log against the moves the server acknowledged."""
    lost = doubled = bad_replay = 0
    for client, attempt_id, acked in run.attempts:
        status, data, _ = await client.request("GET", f"/api/v1/attempts/{attempt_id}/log")
        if status != 200:
            bad_replay += 1
            continue
        logged = data["actions"]
        lost += sum(1 for a, b in zip(acked, logged) if a != b) + max(0, len(acked) - len(logged))
        doubled += max(0, len(logged) - len(acked))
        bad_replay += not data["replay_ok"]
    for client, _, _ in run.attempts:
        client.close()
    return {"attempts": len(run.attempts), "lost": lost, "doubled": doubled,
            "bad_replay": bad_replay}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(kind: str, run: Run, seconds: float) -> dict:
    lat = run.latencies.get(kind, [])
    return {
        "count": len(lat), "per_second": round(len(lat) / seconds, 1),
        "p50_ms": round(pct(lat, 0.50) * 1000, 1), "p90_ms": round(pct(lat, 0.90) * 1000, 1),
        "p99_ms": round(pct(lat, 0.99) * 1000, 1),
        "max_ms": round(max(lat) * 1000, 1) if lat else float("nan"),
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else float("nan"),
    }


def process_tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its children (gunicorn's master and
    workers; recycled workers' time is in the master's children fields)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids = [pid, *map(int, f.read().split())]
    except OSError:
        return float("nan")
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:13]) / tick  # utime, stime
        if p == pid:
            total += sum(int(x) for x in fields[13:15]) / tick  # waited children
    return total


async def scenario(port: int, *, game: str, line: list[str], players: int, think: Think,
                   seconds: float, warmup: float, hinters: int = 0, readers: int = 0,
                   date: str = "", server_pids: tuple[int, ...] = ()) -> dict:
    run = Run()
    tasks = [asyncio.create_task(player(i, port, game, line, think, run)) for i in range(players)]
    past = (dt.date.fromisoformat(date) - dt.timedelta(days=1)).isoformat() if date else ""
    tasks += [asyncio.create_task(hinter(players + i, port, game, past, run))
              for i in range(hinters)]
    tasks += [asyncio.create_task(reader(players + hinters + i, port, game, date, run))
              for i in range(readers)]
    total = len(tasks)
    for _ in range(1200):  # every guest made and playing (workers booted) before the clock runs
        if run.joined >= total:
            break
        await asyncio.sleep(0.1)
    cpu0 = os.times()
    server_cpu = await measured_window(run, tasks, warmup=warmup, seconds=seconds,
                                       server_pids=server_pids)
    for task in tasks:
        if task.done() and task.exception() is not None and run.stop_reason is None:
            run.stop_reason = repr(task.exception())
    cpu1 = os.times()
    integrity = await check_logs(run)
    out = {
        "game": game, "players": players, "think": think.label(), "seconds": seconds,
        "hinters": hinters, "readers": readers,
        "move": summary("move", run, seconds), "errors": run.errors,
        "integrity": integrity, "problem": run.stop_reason,
        "loadgen_cpu_s": round((cpu1.user + cpu1.system) - (cpu0.user + cpu0.system), 2),
        "server_cpu_s": round(server_cpu, 2),
    }
    moves = out["move"]["count"]
    out["server_cpu_ms_per_request"] = round(
        server_cpu * 1000 / max(1, sum(len(v) for v in run.latencies.values())), 2)
    out["server_cpu_ms_per_move"] = round(server_cpu * 1000 / moves, 2) if moves else None
    for kind in ("hint", "hint_refused", "leaderboard", "history"):
        if kind in run.latencies:
            out[kind] = summary(kind, run, seconds)
    return out


# -- the server and its database ---------------------------------------------------------


def bare_application(environ, start_response):
    """gunicorn's own ceiling: a WSGI app answering a constant (the floor)."""
    body = b'{"status": "ok"}'
    start_response("200 OK", [("Content-Type", "application/json"),
                              ("Content-Length", str(len(body)))])
    return [body]


PGBENCH_SCRIPT = """\
\\set aid random(1, :attempts)
BEGIN;
SELECT id, version, position FROM play_attempt WHERE id = :aid FOR UPDATE;
UPDATE play_attempt SET version = version + 1, moves = moves + 1, last_action = '2C>3',
    last_action_at = now(), elapsed_ms = elapsed_ms + 1 WHERE id = :aid;
INSERT INTO play_attemptaction (attempt_id, number, kind, move, at)
    SELECT :aid, version, 'move', '2C>3', now() FROM play_attempt WHERE id = :aid;
COMMIT;
"""


def pgbench(url: str, seconds: float, clients: int) -> float:
    """Transactions per second of the move-shaped script on the attempts there are."""
    import psycopg

    with psycopg.connect(url) as conn:
        first, last = conn.execute("SELECT min(id), max(id) FROM play_attempt").fetchone()
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(PGBENCH_SCRIPT.replace("random(1, :attempts)", f"random({first}, {last})"))
        script = f.name
    parts = urlsplit(url)
    done = subprocess.run(
        ["pgbench", "-n", "-h", parts.hostname, "-p", str(parts.port or 5432), "-U",
         parts.username or "root", "-c", str(clients), "-j", "2", "-T", str(int(seconds)),
         # Prepared statements, as the service's own connections use them.
         "-M", "prepared", "-f", script, parts.path.lstrip("/")],
        capture_output=True, text=True, check=True)
    os.unlink(script)
    for line in done.stdout.splitlines():
        if line.startswith("tps"):
            return float(line.split("=")[1].split()[0])
    raise RuntimeError(done.stdout)


def show(title: str, r: dict) -> None:
    m = r["move"]
    i = r["integrity"]
    print(f"{title:<34} {r['game']:<6} {r['players']:>4} players think {r['think']:>7}: "
          f"{m['per_second']:>7.1f} moves/s  p50 {m['p50_ms']:>6.1f}  p90 {m['p90_ms']:>6.1f}  "
          f"p99 {m['p99_ms']:>6.1f}  max {m['max_ms']:>7.1f} ms  "
          f"lost {i['lost']} doubled {i['doubled']} bad replays {i['bad_replay']}"
          f" ({i['attempts']} attempts)", flush=True)
    print(f"{'':<34} server CPU {r['server_cpu_s']} s in the window: "
          f"{r['server_cpu_ms_per_move']} ms per move, {r['server_cpu_ms_per_request']} ms per "
          f"request; load generator {r['loadgen_cpu_s']} s", flush=True)
    for kind in ("hint", "hint_refused", "leaderboard", "history"):
        if kind in r:
            k = r[kind]
            print(f"{'':<34} {kind:<12} {k['count']:>6} answered, {k['per_second']:.1f}/s, "
                  f"p50 {k['p50_ms']} p99 {k['p99_ms']} max {k['max_ms']} ms", flush=True)
    if r["errors"]:
        print(f"{'':<34} errors: {r['errors']}", flush=True)
    if r["problem"]:
        print(f"{'':<34} problem: {r['problem']}", flush=True)


def parse_args(argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--think-ms", type=float, default=150)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--hinters", type=int, default=20)
    p.add_argument("--readers", type=int, default=20)
    p.add_argument("--games", default="flower,cruel")
    p.add_argument("--scenarios", default="human,play,capacity,hints,mixed,scale,floor,pgbench")
    p.add_argument("--human-steps", default="200,400,800,1200,1600")
    p.add_argument("--human-median-s", type=float, default=1.5)
    p.add_argument("--human-sigma", type=float, default=0.5)
    p.add_argument("--human-p99-ms", type=float, default=100)
    p.add_argument("--paced-players", type=int, default=400,
                   help="players at a person's pace beside the hint flood and the readers")
    p.add_argument("--port", type=int, default=8230, help="0: any free port")
    p.add_argument("--admin-url", default="postgres://root@127.0.0.1:5432/postgres")
    p.add_argument("--db", default="load_bench")
    p.add_argument("--cache-url", default="redis://127.0.0.1:6379/15")
    p.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", os.cpu_count())))
    p.add_argument("--threads", type=int, default=int(os.environ.get("GUNICORN_THREADS", 4)))
    p.add_argument("--pgbench-clients", type=int, default=16)
    p.add_argument("--smoke", action="store_true",
                   help="a few players for a few seconds, both games, play only (CI)")
    p.add_argument("--json", help="write every scenario's figures here")
    p.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = p.parse_args(argv)
    if not args.port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
    if args.smoke:
        args.players, args.seconds, args.warmup, args.think_ms = 4, 3, 0.5, 20
        args.hinters, args.readers, args.paced_players = 2, 2, 4
        # Every step holds (the bound is a minute): a smoke run checks integrity, not speed.
        args.human_median_s, args.human_steps, args.human_p99_ms = 0.05, "2,4", 60_000
        if args.scenarios == p.get_default("scenarios"):
            args.scenarios = "human,play,hints"
    args.server_log = open(os.devnull, "w") if not os.environ.get("LOAD_BENCH_SERVER_LOG") \
        else open(os.environ["LOAD_BENCH_SERVER_LOG"], "a")
    return args


class Bench:
    """One run: the scratch database, today's lines, and every scenario's figures."""

    def __init__(self, args, url: str):
        self.args, self.url = args, url
        self.games = args.games.split(",")
        self.human = Think(args.human_median_s, args.human_sigma)
        self.results: list[dict] = []
        self.failed = False

    def prepare(self) -> None:
        env = server_env(self.args, self.url, self.args.workers)
        manage(env, "migrate", "--no-input")
        manage(env, "prepare_deals")
        self.date, self.lines = today_deals(env)
        # The day before's deals: the hint flood's practice (hints are sealed on today's).
        day_before = dt.date.fromisoformat(self.date) - dt.timedelta(days=1)
        manage(env, "prepare_deals", "--start", day_before.isoformat(), "--days", "1")
        print(f"load_bench: {self.date}, lines of "
              f"{', '.join(f'{g} {len(self.lines[g])} moves' for g in self.games)}; "
              f"gunicorn {self.args.workers} workers x {self.args.threads} threads; "
              f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}; "
              f"machine {machine_speed():,.0f} Flower engine steps/s", flush=True)

    def go(self, title: str, *, game: str, workers: int | None = None, **kw) -> dict:
        args = self.args
        w = workers or args.workers
        with Server(args, server_env(args, self.url, w)) as server:
            r = asyncio.run(scenario(args.port, seconds=args.seconds, warmup=args.warmup,
                                     date=self.date, server_pids=(server.proc.pid,), game=game,
                                     line=self.lines[game], **kw))
        return self.record(f"{title} ({w}x{args.threads})", r, scenario_name=title, workers=w)

    def record(self, label: str, r: dict, **about) -> dict:
        r.update(about, threads=self.args.threads)
        self.results.append(r)
        show(label, r)
        i = r["integrity"]
        if i["lost"] or i["doubled"] or i["bad_replay"] or r["problem"]:
            self.failed = True
        if not r["move"]["count"]:
            print("load_bench: no move was answered in the window", flush=True)
            self.failed = True
        return r

    def human_steps(self) -> None:
        """Players at a person's pace, more at each step, until p99 passes the bound."""
        game = self.games[0]
        held = None
        for players in map(int, self.args.human_steps.split(",")):
            r = self.go("human pace", game=game, players=players, think=self.human)
            if r["move"]["p99_ms"] > self.args.human_p99_ms:
                break
            held = r
        print(f"{'human pace: players held':<34} "
              + (f"{held['players']} ({held['move']['per_second']} moves/s, p99 "
                 f"{held['move']['p99_ms']} ms <= {self.args.human_p99_ms:g} ms)"
                 if held else f"none at p99 <= {self.args.human_p99_ms:g} ms"), flush=True)
        self.results.append({"scenario_name": "human pace held", "game": game,
                             "players": held["players"] if held else 0})

    def floor(self) -> None:
        args = self.args
        bare_env = server_env(args, self.url, args.workers)
        bare_env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT)])
        for label, env, app in (("GET /health/", server_env(args, self.url, args.workers), "api.wsgi"),
                                ("gunicorn alone", bare_env, "load_bench:bare_application")):
            with Server(args, env, app) as server:
                r = asyncio.run(health_floor(args.port, clients=args.players,
                                             seconds=args.seconds, warmup=args.warmup,
                                             server_pids=(server.proc.pid,)))
            r.update(scenario_name="floor", app=app, workers=args.workers, threads=args.threads)
            self.results.append(r)
            h = r["health"]
            where = f"gunicorn {args.workers}x{args.threads}"
            print(f"{'floor: ' + label + ' (' + where + ')':<34} "
                  f"{r['clients']:>4} clients, no think: {h['per_second']:>7.1f} requests/s  "
                  f"p50 {h['p50_ms']:>6.1f}  p99 {h['p99_ms']:>6.1f} ms; server CPU "
                  f"{r['server_cpu_ms_per_request']} ms per request", flush=True)
            if r["errors"]:
                print(f"{'':<34} errors: {r['errors']}", flush=True)
                self.failed = True
            if app == "api.wsgi" and h["per_second"]:
                self.against_health(h["per_second"], r["server_cpu_ms_per_request"])
            elif not h["per_second"]:
                print(f"{'':<34} no request answered in the window: no floor", flush=True)
                self.failed = True

    def against_health(self, per_second: float, cpu_ms: float) -> None:
        """Each move scenario's throughput and CPU a move against the floor's
        (the same run, so the machine's speed weighs on both alike)."""
        for r in self.results:
            if "move" in r and r["move"]["count"]:
                r["x_health_per_second"] = round(r["move"]["per_second"] / per_second, 3)
                r["x_health_cpu"] = round(r["server_cpu_ms_per_move"] / cpu_ms, 2)
                print(f"  {r['scenario_name']} {r['game']} {r['players']}: "
                      f"{r['x_health_per_second']:.1%} of /health/'s requests/s, "
                      f"{r['x_health_cpu']} x its CPU a request", flush=True)

    def pgbench(self) -> None:
        tps = pgbench(self.url, self.args.seconds, self.args.pgbench_clients)
        self.results.append({"scenario_name": "pgbench", "tps": tps})
        print(f"{'pgbench move-shaped ceiling':<34} {tps:,.0f} transactions/s "
              f"({self.args.pgbench_clients} clients)", flush=True)
        for r in self.results:
            if r.get("scenario_name") in ("play", "capacity", "human pace"):
                share = r["move"]["per_second"] / tps
                r["share_of_pgbench"] = round(share, 4)
                print(f"  {r['scenario_name']} {r['game']} {r['players']}: {share:.1%} of "
                      "pgbench's ceiling")

    def run(self, scenarios: list[str]) -> None:
        args, first = self.args, self.games[0]
        fixed = Think(args.think_ms / 1000)
        if "human" in scenarios:
            self.human_steps()
        for game in self.games:
            if "play" in scenarios:
                self.go("play", game=game, players=args.players, think=fixed)
            if "capacity" in scenarios:
                self.go("capacity", game=game, players=args.players, think=NO_THINK)
        if "hints" in scenarios:
            self.go("hint flood", game=first, players=args.paced_players, think=self.human,
                    hinters=args.hinters)
        if "mixed" in scenarios:
            self.go("mixed", game=first, players=args.paced_players, think=self.human,
                    readers=args.readers)
        if "scale" in scenarios:
            for w in (1, 2, 4):
                self.go("scale", workers=w, game=first, players=args.players, think=NO_THINK)
        if "floor" in scenarios:
            self.floor()
        if "pgbench" in scenarios:
            self.pgbench()


def main(argv=None) -> int:
    args = parse_args(argv)
    with scratch_database(args.admin_url, args.db, keep=args.keep) as url:
        bench = Bench(args, url)
        bench.prepare()
        bench.run(args.scenarios.split(","))
    print(f"load_bench: machine at the end {machine_speed():,.0f} Flower engine steps/s")
    if args.json:
        Path(args.json).write_text(json.dumps(bench.results, indent=1))
    print("load_bench: integrity",
          "FAILED" if bench.failed else "ok: no move lost or doubled, every log replays")
    return 1 if bench.failed else 0


if __name__ == "__main__":
    sys.exit(main())
