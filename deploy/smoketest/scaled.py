"""The scaled run: deploy/compose.yaml with deploy/compose.scale.yaml, web ×3,
every part failed once under play.

    deploy/smoke --scale          (the whole run, torn down at the end)
    deploy/smoke --scale --keep   (the stack left running; its address printed)
    deploy/smoke --down           (the scaled stack removed, volumes included)

Images as the plain run (plain.py), and PgBouncer's from Debian's packages.
Up with `--scale web=3 --scale worker=2`: PgBouncer, the PostgreSQL replica
streaming from its slot, the Redis master with two replicas and three
Sentinels. Then:

a. 200 simulated players, each its own client address, play both deals
   through nginx; the answers come from all three web replicas (each
   replica's own /metrics counts its moves). Figures: statements and
   PostgreSQL time per validated move (pg_stat_statements), web CPU per move
   (the web containers' cgroups), the replica's lag under the play.
b. One web replica killed (`docker kill`) mid-play: clients retry a failed
   move with the same `version` (docs/API.md), and every attempt ends with
   exactly the moves its player made (its version, its log, which replays).
c. The PostgreSQL replica stopped: public reads keep answering, within 5 s,
   from the primary; started again, it catches up and serves them again.
d. The Redis master killed: the Sentinels promote a replica; moves keep
   working, and a deal verification queued during the failover runs once.
e. PgBouncer restarted: requests fail fast (503 `unavailable` with
   Retry-After), none hangs past PGBOUNCER_BOUND seconds, play resumes.
f. The rush: 2,000 requests for the day's document in 10 s reach gunicorn a
   handful of times (the replicas' metrics), every answer byte-identical.
g. Everything torn down (not with --keep).

SMOKE_SCALE_PROJECT (solitaire-scale) and SMOKE_SCALE_WEB_PORT (18001) set
where it runs; the first failure prints the logs and tears down.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from .guest import Guest, step_todays_deals
from .images import APP_IMAGE, step_app_image, step_base_images, step_debian_images
from .stack import (
    DEPLOY,
    HOST,
    STACK,
    Run,
    StepFailed,
    compose,
    container,
    containers,
    deal_row,
    detail,
    docker_preflight,
    manage,
    one_run_at_a_time,
    psql,
    remove_project,
    run,
    say,
    set_environment,
    step_check_deploy,
    step_secrets,
    step_up,
    teardown,
    text,
    wait,
    worker_log,
)

WEB_REPLICAS, WORKERS = 3, 2
PLAYERS, MOVES_PER_DEAL, MOVE_PAUSE = 200, 12, 0.5
# Step b: this many players, a replica killed this long after they start.
KILL_PLAYERS, KILL_AFTER = 60, 4.0
# Public reads must keep answering within this while the replica is away.
REPLICA_READ_BOUND = 5.0
# No request may take longer than this while PgBouncer restarts.
PGBOUNCER_BOUND = 10.0
RUSH_REQUESTS, RUSH_SECONDS, RUSH_MAX_HITS = 2000, 10.0, 10
# A future deal queued while Redis fails over (not one the plain run uses).
FAILOVER_DEAL = ("flower", "2031-03-14")
SUBNET, GATEWAY, PROXY_ADDRESS = "172.30.82.0/24", "172.30.82.1", "172.30.82.250"
PGBOUNCER_IMAGE = os.environ.get("SMOKE_PGBOUNCER_IMAGE", "solitaire-pgbouncer:bookworm")
# The metrics the application gives (README's metrics table).
DAILY_DOCUMENT_VIEW = "play:daily-day"
READS_METRIC = "solitaire_db_public_reads_total"


def configure() -> None:
    STACK.project = os.environ.get("SMOKE_SCALE_PROJECT", "solitaire-scale")
    STACK.web_port = int(os.environ.get("SMOKE_SCALE_WEB_PORT", "18001"))
    STACK.files[:] = [DEPLOY / "compose.yaml", DEPLOY / "compose.scale.yaml"]


# -- What the stack says about itself ---------------------------------------------------


def metrics_of(web: str) -> dict[str, float]:
    """One web replica's /metrics (its gunicorn master, port 9100): sample -> value."""
    body = text(run("docker", "exec", web, "python", "-c",
                    "import urllib.request; print(urllib.request.urlopen("
                    "'http://127.0.0.1:9100/metrics', timeout=10).read().decode())"))
    samples = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def metric(samples: dict[str, float], name: str, **labels: str) -> float:
    """The sum of a metric's samples that carry these labels."""
    total = 0.0
    for sample, value in samples.items():
        base, _, rest = sample.partition("{")
        if base != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', rest))
        if all(found.get(k) == v for k, v in labels.items()):
            total += value
    return total


def all_metrics() -> dict[str, dict[str, float]]:
    return {web[:12]: metrics_of(web) for web in containers("web")}


def cpu_seconds(ids: list[str]) -> float:
    """CPU time the containers used so far (their cgroups), in seconds."""
    total = 0.0
    for cid in ids:
        stat = text(run("docker", "exec", cid, "sh", "-c",
                        "cat /sys/fs/cgroup/cpu.stat 2>/dev/null || cat /sys/fs/cgroup/cpuacct/cpuacct.usage"))
        match = re.search(r"usage_usec (\d+)", stat)
        total += int(match.group(1)) / 1e6 if match else int(stat.split()[0]) / 1e9
    return total


def replica_state() -> tuple[str, float | None, bool]:
    """The replica's stream as the primary sees it: state, replay lag in
    seconds, and whether it has replayed everything written so far."""
    line = psql("select state, coalesce(extract(epoch from replay_lag), 0), "
                "replay_lsn = pg_current_wal_lsn() from pg_stat_replication limit 1")
    if not line:
        return "absent", None, False
    state, lag, caught_up = line.split("|")
    return state, float(lag), caught_up == "t"


def sentinel(*args: str) -> str:
    return text(run("docker", "exec", container("sentinel-1"), "redis-cli", "-p", "26379", *args))


def redis_master() -> str:
    """The service the Sentinels name as master (the nodes announce their service names)."""
    return sentinel("sentinel", "get-master-addr-by-name", "solitaire").split()[0]


def pgbouncer_admin(command: str) -> str:
    """A command on PgBouncer's admin console (SHOW POOLS, SHOW CONFIG ...)."""
    return text(run("docker", "exec", container("pgbouncer"), "sh", "-c",
                    'PGPASSWORD="$(cat "$DATABASE_PASSWORD_FILE")" psql -h 127.0.0.1 -p 6432 -U solitaire '
                    f'-tA pgbouncer -c "{command}"'))


def redis_role(service: str) -> str:
    return text(run("docker", "exec", container(service), "redis-cli", "role")).split()[0]


# -- Players ------------------------------------------------------------------------------


class Player:
    """A guest from its own address who opens both of today's deals and
    plays legal moves at a human pace. A move that fails (an error status or
    a broken connection) is sent again with the same version until it is
    answered, as docs/API.md tells clients: the server answers a repeat
    without applying it twice. ``made`` counts, per attempt, the moves the
    player saw applied."""

    def __init__(self, number: int, timeout: float = 30):
        self.guest = Guest(address=f"198.18.{number // 250}.{number % 250 + 1}", timeout=timeout)
        self.made: dict[int, int] = {}
        self.failures: list[tuple[int | None, float, str]] = []  # status, seconds, detail
        self.latencies: list[float] = []
        self.served_by: dict[str, int] = {}
        self.random = random.Random(number)

    def send(self, method: str, path: str, body=None) -> dict:
        """The answer (200 or 201), after as many tries as it takes within a minute."""
        deadline = time.monotonic() + 60
        while True:
            began = time.monotonic()
            try:
                status, raw = self.guest.call(method, path, body)
            except OSError as error:
                status, raw = None, str(error).encode()
            took = time.monotonic() - began
            if status in (200, 201):
                self.latencies.append(took)
                server = self.guest.headers.get("X-Served-By") if self.guest.headers else None
                if server:
                    self.served_by[server] = self.served_by.get(server, 0) + 1
                return json.loads(raw)
            retry_after = self.guest.headers.get("Retry-After") if status and self.guest.headers else None
            self.failures.append((status, took, f"{method} {path}: {raw[:200]!r} (Retry-After {retry_after})"))
            if status is not None and status < 500 and status not in (429,):
                raise StepFailed(f"player {self.guest.address}: {method} {path} answered {status}: {raw[:300]!r}")
            if time.monotonic() > deadline:
                raise StepFailed(f"player {self.guest.address}: {method} {path} still failing after 60 s: "
                                 f"{self.failures[-3:]}")
            time.sleep(min(float(retry_after or 0.5), 2.0))

    def play(self, moves_per_deal: int, pause: float, stop: threading.Event | None = None) -> None:
        self.send("GET", "/api/v1/me")
        for game in ("cruel", "flower"):
            attempt = self.send("POST", "/api/v1/attempts", {"game": game})
            self.made[attempt["id"]] = attempt["version"]
            for _ in range(moves_per_deal):
                if stop is not None and stop.is_set() or not attempt["legal"]:
                    break
                legal = self.random.choice(attempt["legal"])
                move = f"{legal['card']}>{self.random.choice(legal['targets'])}"
                attempt = self.send("POST", f"/api/v1/attempts/{attempt['id']}/moves",
                                    {"move": move, "version": attempt["version"]})
                self.made[attempt["id"]] += 1
                if attempt["version"] != self.made[attempt["id"]]:
                    raise StepFailed(f"attempt {attempt['id']}: version {attempt['version']} after "
                                     f"{self.made[attempt['id']]} moves")
                time.sleep(pause * (0.5 + self.random.random()))

    def check(self) -> None:
        """Each attempt holds exactly the moves made: its version, its log, replaying."""
        for attempt_id, made in self.made.items():
            stored = self.send("GET", f"/api/v1/attempts/{attempt_id}")
            log = self.send("GET", f"/api/v1/attempts/{attempt_id}/log")
            actions = [a for a in log["actions"] if a != "finish"]
            if stored["version"] != made or len(actions) != made or not log["replay_ok"]:
                raise StepFailed(f"attempt {attempt_id}: {made} moves made, version {stored['version']}, "
                                 f"{len(actions)} in its log, replay_ok {log['replay_ok']}")


class Background:
    """A player moving in a thread every ``pause`` seconds until stop()."""

    def __init__(self, player: Player, pause: float):
        self.player, self.pause, self.halt, self.error = player, pause, threading.Event(), None
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self):
        try:
            self.player.play(10_000, self.pause, self.halt)
        except StepFailed as error:
            self.error = error

    def stop(self, what: str) -> None:
        self.halt.set()
        self.thread.join(timeout=90)
        if self.error is not None:
            raise StepFailed(f"{what}: {self.error}")


def play(players: list[Player], moves_per_deal: int, pause: float, stop: threading.Event | None = None) -> None:
    errors = []

    def one(player: Player):
        try:
            player.play(moves_per_deal, pause, stop)
        except (StepFailed, OSError, ValueError, KeyError) as error:
            errors.append(error)

    with ThreadPoolExecutor(max_workers=len(players)) as pool:
        list(pool.map(one, players))
    if errors:
        raise StepFailed(f"{len(errors)} players failed; the first: {errors[0]}")


def check_all(players: list[Player]) -> int:
    with ThreadPoolExecutor(max_workers=20) as pool:
        list(pool.map(lambda p: p.check(), players))
    return sum(len(p.made) for p in players)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


# -- Steps --------------------------------------------------------------------------------


def step_stack_parts() -> None:
    state, lag, caught_up = wait("the replica to stream from the primary",
                                 lambda: (lambda s: s if s[0] == "streaming" else None)(replica_state()), 120)
    slot = psql("select slot_name || ' active ' || active from pg_replication_slots")
    detail(f"PostgreSQL replica: {state} from slot {slot}, replay lag {lag:.3f} s")
    info = sentinel("sentinel", "master", "solitaire")
    fields = dict(zip(info.split("\n")[::2], info.split("\n")[1::2]))
    if fields.get("num-slaves") != "2" or fields.get("num-other-sentinels") != "2":
        raise StepFailed(f"Sentinel sees {fields.get('num-slaves')} replicas and "
                         f"{fields.get('num-other-sentinels')} other sentinels (2 and 2 wanted)")
    policy = text(run("docker", "exec", container("redis"), "redis-cli", "config", "get", "maxmemory-policy"))
    detail(f"Redis: master {redis_master()}, 2 replicas, 3 sentinels (quorum {fields.get('quorum')}); "
           f"maxmemory-policy {policy.split()[-1]}")
    mode = re.search(r"pool_mode\|(\w+)", pgbouncer_admin("show config"))
    version = text(run("docker", "exec", container("pgbouncer"), "pgbouncer", "--version")).splitlines()[0]
    detail(f"{version}, pool_mode {mode.group(1) if mode else '(not read)'}")
    detail(f"web ×{len(containers('web'))}, worker ×{len(containers('worker'))}, beat ×{len(containers('beat'))}")
    if len(containers("web")) != WEB_REPLICAS or len(containers("beat")) != 1:
        raise StepFailed("not web ×3 and beat ×1")


def step_players(state: dict) -> None:
    psql("create extension if not exists pg_stat_statements")
    psql("select pg_stat_statements_reset()")
    before = all_metrics()
    webs = containers("web")
    cpu_before = cpu_seconds(webs)
    players = [Player(n) for n in range(PLAYERS)]
    lags: list[float] = []
    stop = threading.Event()

    def watch_lag():
        while not stop.wait(1.0):
            try:
                lag = replica_state()[1]
            except StepFailed:
                continue
            if lag is not None:
                lags.append(lag)

    watcher = threading.Thread(target=watch_lag, daemon=True)
    watcher.start()
    started = time.monotonic()
    try:
        play(players, MOVES_PER_DEAL, MOVE_PAUSE)
    finally:
        stop.set()
        watcher.join(timeout=10)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(webs) - cpu_before
    after = all_metrics()
    statements = psql("select sum(calls)::bigint || '|' || round(sum(total_exec_time)::numeric, 1) "
                      "from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = 'solitaire'")
    calls, exec_ms = statements.split("|")
    moves = {web: metric(after[web], "solitaire_moves_total") - metric(before.get(web, {}), "solitaire_moves_total")
             for web in after}
    total_moves = sum(p_made for p in players for p_made in p.made.values())
    requests = sum(len(p.latencies) for p in players)
    failures = sum(len(p.failures) for p in players)
    latencies = [x for p in players for x in p.latencies]
    detail(f"{PLAYERS} players, each its own address, {MOVES_PER_DEAL} moves on each deal: {total_moves} moves, "
           f"{requests} requests in {elapsed:.0f} s ({total_moves / elapsed:.0f} moves/s); failed tries {failures}; "
           f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms")
    detail("moves per web replica (its /metrics): " + ", ".join(f"{w} {n:.0f}" for w, n in moves.items()))
    served = {}
    for p in players:
        for server, count in p.served_by.items():
            served[server] = served.get(server, 0) + count
    if served:
        detail("answers per X-Served-By: " + ", ".join(f"{s} {n}" for s, n in sorted(served.items())))
    counted = check_all(players)
    detail(f"{counted} attempts: each one's version and log hold exactly its player's moves, and replay")
    detail(f"figures: {int(calls) / total_moves:.1f} statements and {float(exec_ms) / total_moves:.2f} ms of "
           f"PostgreSQL execution per move (pg_stat_statements, all {requests} requests of the play counted); "
           f"web CPU {cpu / total_moves * 1000:.1f} ms per move ({cpu:.1f} s over {len(webs)} replicas); "
           f"replica lag under play: max {max(lags, default=0) * 1000:.0f} ms, "
           f"median {percentile(lags, 0.5) * 1000:.0f} ms ({len(lags)} samples)")
    state["figures"] = {"moves": total_moves, "requests": requests, "seconds": elapsed, "statements": int(calls),
                        "exec_ms": float(exec_ms), "web_cpu_s": cpu, "lag_max_s": max(lags, default=0)}
    if len([w for w, n in moves.items() if n > 0]) != WEB_REPLICAS:
        raise StepFailed(f"not every web replica answered moves: {moves}")
    if failures:
        raise StepFailed(f"{failures} failed tries with every part up: "
                         f"{[f for p in players for f in p.failures][:5]}")


def step_kill_web() -> None:
    players = [Player(1000 + n) for n in range(KILL_PLAYERS)]
    victim = containers("web")[-1]
    result: dict = {}

    def kill_later():
        time.sleep(KILL_AFTER)
        run("docker", "kill", "--signal", "KILL", victim)
        result["killed_at"] = time.monotonic()

    killer = threading.Thread(target=kill_later)
    started = time.monotonic()
    killer.start()
    play(players, MOVES_PER_DEAL, MOVE_PAUSE)
    killer.join()
    failures = [f for p in players for f in p.failures]
    moves = sum(m for p in players for m in p.made.values())
    detail(f"{KILL_PLAYERS} players; web replica {victim[:12]} killed (SIGKILL) {KILL_AFTER:.0f} s in; "
           f"{moves} moves in {time.monotonic() - started:.0f} s")
    statuses: dict = {}
    for status, _took, _what in failures:
        statuses[status] = statuses.get(status, 0) + 1
    detail(f"failed tries, all sent again with the same version: {statuses or 'none'}")
    counted = check_all(players)
    detail(f"{counted} attempts: none lost or doubled a move (version, log and replay agree with the players)")
    if any(status not in (None, 502, 503, 504) for status in statuses):
        raise StepFailed(f"failures other than the killed replica's: {failures[:5]}")
    compose("up", "-d", "--no-build", "--no-recreate", "--scale", f"web={WEB_REPLICAS}",
            "--scale", f"worker={WORKERS}", "web", timeout=300)
    wait("web ×3 again", lambda: len(containers("web")) == WEB_REPLICAS, 60)
    detail(f"web ×{WEB_REPLICAS} again (compose up --scale)")


def public_read(guest: Guest, date: str) -> tuple[int, float]:
    began = time.monotonic()
    try:
        status, _raw = guest.call("GET", f"/api/v1/daily/{date}/cruel")
    except OSError:
        status = None
    return status, time.monotonic() - began


def reads_by_target() -> dict[str, float]:
    samples = all_metrics()
    return {target: sum(metric(s, READS_METRIC, target=target) for s in samples.values())
            for target in ("primary", "replica")}


def step_replica_away(state: dict) -> None:
    guest = Guest(address="198.18.9.1", timeout=30)
    date = state["daily"]["date"]
    compose("stop", "postgres-replica", timeout=120)
    stopped = time.monotonic()
    before = reads_by_target()
    answers = []
    while time.monotonic() - stopped < 12:
        answers.append(public_read(guest, date))
        time.sleep(0.25)
    after = reads_by_target()
    bad = [a for a in answers if a[0] != 200 or a[1] > REPLICA_READ_BOUND]
    detail(f"replica stopped: {len(answers)} public reads in 12 s, {len(bad)} failed or slower than "
           f"{REPLICA_READ_BOUND:.0f} s; slowest {max(a[1] for a in answers):.2f} s; reads counted by target "
           f"meanwhile: primary +{after['primary'] - before['primary']:.0f}, "
           f"replica +{after['replica'] - before['replica']:.0f}")
    if bad:
        raise StepFailed(f"public reads with the replica stopped: {bad[:5]}")
    if after["primary"] <= before["primary"]:
        raise StepFailed(f"no public read went to the primary ({READS_METRIC}): {before} -> {after}")
    compose("start", "postgres-replica", timeout=120)
    started = time.monotonic()
    status, lag, _ = wait("the replica to stream and catch up again",
                          lambda: (lambda s: s if s[0] == "streaming" and s[2] else None)(replica_state()), 120)
    detail(f"replica started again: {status}, caught up in {time.monotonic() - started:.1f} s (lag {lag:.3f} s)")
    mark = reads_by_target()

    def served_by_replica():
        public_read(guest, date)
        return reads_by_target()["replica"] > mark["replica"]

    wait("public reads from the replica again", served_by_replica, 60, every=1)
    detail(f"public reads go to the replica again {time.monotonic() - started:.0f} s after its start")


def step_redis_failover(state: dict) -> None:
    old = redis_master()
    player = Player(2000)
    playing = Background(player, 0.2)
    time.sleep(2)
    since = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    run("docker", "kill", "--signal", "KILL", container(old))
    killed = time.monotonic()
    game, date = FAILOVER_DEAL
    manage("prepare_deals", "--start", date, "--game", game, "--queue")
    detail(f"Redis master {old} killed; {game} {date} queued for verification "
           f"{time.monotonic() - killed:.1f} s later (prepare_deals --queue)")
    new = wait("the Sentinels to promote a replica",
               lambda: (lambda m: m if m != old else None)(redis_master()), 90)
    detail(f"the Sentinels promoted {new} ({redis_role(new)}) {time.monotonic() - killed:.1f} s after the kill")
    done = wait(f"{game} {date} to be verified",
                lambda: (lambda r: r if r.get("state") == "verified" else None)(deal_row(game, date)), 300, every=2)
    time.sleep(3)
    playing.stop("moves stopped during the failover")
    log = worker_log(since)
    verified = re.findall(r"verify_deal\[([0-9a-f-]+)\] succeeded in [^:]+: '(verified)'", log)
    moves = sum(player.made.values())
    detail(f"a player kept moving: {moves} moves, {len(player.failures)} failed tries (sent again), slowest "
           f"{max(player.latencies, default=0):.2f} s; the deal: {done['state']}, {done['rows']} row, "
           f"verified_at {done['verified_at']}; 'verified' results in the workers' logs since: {len(verified)}")
    player.check()
    if done["rows"] != 1 or len(verified) != 1:
        raise StepFailed(f"the verification did not run exactly once: {done}, {verified}")
    compose("start", old, timeout=120)
    wait(f"{old} back as a replica of {new}", lambda: redis_role(old) == "slave", 90)
    detail(f"{old} started again: a replica of {new} (the Sentinels reconfigured it)")


def step_pgbouncer_restart() -> None:
    player = Player(3000, timeout=PGBOUNCER_BOUND + 20)
    playing = Background(player, 0.1)
    time.sleep(2)
    stopped = time.monotonic()
    compose("stop", "-t", "2", "pgbouncer", timeout=60)
    time.sleep(3)
    compose("start", "pgbouncer", timeout=60)
    back = time.monotonic()
    before_resume = len(player.latencies)
    wait("a move after PgBouncer is back", lambda: len(player.latencies) > before_resume + 3, 60, every=0.5)
    resumed = time.monotonic() - back
    playing.stop("play did not resume")
    failures = player.failures
    slowest = max([took for _s, took, _w in failures] + player.latencies)
    codes = {status for status, _t, _w in failures}
    without_retry = [f for f in failures if f[0] == 503 and "Retry-After None" in f[2]]
    not_unavailable = [f for f in failures if f[0] == 503 and "unavailable" not in f[2]]
    detail(f"PgBouncer stopped {back - stopped:.0f} s and started: {len(failures)} requests failed "
           f"(statuses {sorted(codes, key=str)}), the slowest answer {slowest:.2f} s "
           f"(bound {PGBOUNCER_BOUND:.0f} s); play resumed {resumed:.1f} s after the start")
    player.check()
    if codes - {503} or without_retry or not_unavailable:
        raise StepFailed(f"not 503 unavailable with Retry-After: {failures[:5]}")
    if slowest > PGBOUNCER_BOUND:
        raise StepFailed(f"a request took {slowest:.1f} s (bound {PGBOUNCER_BOUND:.0f} s)")


def step_rush(state: dict) -> None:
    date = state["daily"]["date"]
    path = f"/api/v1/daily/{date}"

    def hits():
        return sum(metric(s, "solitaire_http_request_duration_seconds_count", view=DAILY_DOCUMENT_VIEW)
                   for s in all_metrics().values())

    before = hits()
    bodies: dict[str, int] = {}
    statuses: dict = {}
    lock = threading.Lock()
    started = time.monotonic()

    def fetch(number: int):
        # Paced: request n leaves at n / rate seconds, from its own address.
        delay = started + number * RUSH_SECONDS / RUSH_REQUESTS - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        guest = Guest(address=f"198.19.{number // 250}.{number % 250 + 1}", timeout=30)
        try:
            status, raw = guest.call("GET", path)
        except OSError as error:
            status, raw = None, str(error).encode()
        with lock:
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                digest = hashlib.sha256(raw).hexdigest()[:16]
                bodies[digest] = bodies.get(digest, 0) + 1

    with ThreadPoolExecutor(max_workers=50) as pool:
        list(pool.map(fetch, range(RUSH_REQUESTS)))
    elapsed = time.monotonic() - started
    reached = hits() - before
    detail(f"{RUSH_REQUESTS} GET {path} in {elapsed:.1f} s: statuses {statuses}; distinct bodies {len(bodies)}; "
           f"gunicorn answered {reached:.0f} of them (view {DAILY_DOCUMENT_VIEW} in the replicas' metrics)")
    if statuses != {200: RUSH_REQUESTS} or len(bodies) != 1:
        raise StepFailed(f"the rush's answers: {statuses}, bodies {bodies}")
    if reached > RUSH_MAX_HITS:
        raise StepFailed(f"gunicorn answered {reached:.0f} of the rush (at most {RUSH_MAX_HITS} wanted)")


def print_address(running: Run) -> None:
    say("")
    say(f"The scaled stack is running (project {STACK.project}): {STACK.base_url}/ through nginx")
    say(f"  as the TLS terminator would forward: curl -H 'Host: {HOST}' -H 'X-Forwarded-Proto: https' "
        f"{STACK.base_url}/api/v1/daily")
    say(f"  compose: SECRETS_DIR={running.work / 'secrets'} ALLOWED_HOSTS={HOST} "
        f"{' '.join(STACK.compose_args())} ps")
    say("  remove it: deploy/smoke --down")


def down() -> int:
    configure()
    one_run_at_a_time()
    remove_project()
    left = text(run("docker", "ps", "-a", "-q", "--filter", f"label=com.docker.compose.project={STACK.project}"))
    say(f"scaled stack {STACK.project}: " + ("removed, volumes included" if not left else f"left: {left}"))
    return 1 if left else 0


def main(keep: bool = False) -> int:
    configure()
    one_run_at_a_time()
    running = Run()
    step = running.step
    state: dict = {}
    guest = Guest()
    try:
        step("Docker and compose", docker_preflight)
        step("Base images", lambda: state.update(bases=step_base_images()))
        step("PgBouncer's image from Debian's packages",
             lambda: state.update(pgbouncer=step_debian_images(("PGBOUNCER_IMAGE", PGBOUNCER_IMAGE, "pgbouncer"))))
        step("Application image from a clean checkout of HEAD",
             lambda: step_app_image(state["bases"]["PYTHON_IMAGE"]))
        step("Secrets as files", lambda: step_secrets(running.work / "secrets"))
        set_environment(running.work, {"APP_IMAGE": APP_IMAGE, **state["bases"], **state["pgbouncer"]},
                        (SUBNET, GATEWAY, PROXY_ADDRESS))
        step("manage.py check --deploy in the image, with the scaled environment", step_check_deploy)
        running.up = True
        step(f"Stack up: web ×{WEB_REPLICAS}, worker ×{WORKERS}, beat, PgBouncer, PostgreSQL and its replica, "
             "Redis ×3 and 3 Sentinels, nginx; /health/ ok",
             lambda: step_up("--scale", f"web={WEB_REPLICAS}", "--scale", f"worker={WORKERS}"))
        step("Each engine's part in place: the replica streams, Sentinel watches 2 replicas, PgBouncer pools",
             step_stack_parts)
        step("Today's deals, verified by the workers", lambda: state.update(daily=step_todays_deals(guest)))
        step(f"a. {PLAYERS} players through nginx, answered by all {WEB_REPLICAS} web replicas",
             lambda: step_players(state))
        step("b. A web replica killed mid-play: no move lost or doubled", step_kill_web)
        step("c. The PostgreSQL replica stopped and started: public reads keep answering",
             lambda: step_replica_away(state))
        step("d. The Redis master killed: Sentinel promotes a replica, a queued verification runs once",
             lambda: step_redis_failover(state))
        step("e. PgBouncer restarted: fast 503s, play resumes", step_pgbouncer_restart)
        step(f"f. The rush: {RUSH_REQUESTS} requests for the day's document in {RUSH_SECONDS:.0f} s",
             lambda: step_rush(state))
        if keep:
            running.passed(keep_work=True)
            print_address(running)
            return 0
        step("g. Teardown, volumes included", teardown)
        running.up = False
    except Run.FAILURES as error:
        return running.failed(error, keep)
    return running.passed()
