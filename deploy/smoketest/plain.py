"""The plain run: the single-container stack (deploy/compose.yaml alone),
built and run as shipped, end to end on this machine.

    deploy/smoke            (from anywhere in a clone; needs docker, root or the docker group)
    deploy/smoke --images   (steps 1 to 3 only: the images built and kept, no stack;
                             .ci/run does this beside the tests, so the run after it starts at step 4)

1. Images. The application image is built with deploy/Dockerfile from a clean
   checkout of HEAD (`git archive`, so nothing uncommitted or ignored gets
   in). Its base (python:3.11-slim) and the compose file's postgres:15 and
   redis:7 are used when present or pullable; where no registry answers,
   equivalents are built from Debian bookworm's packages (deploy/images/, on
   a base made once with debootstrap and kept as SMOKE_DEBIAN_IMAGE), and
   the script says so. The image runs as its non-root user and passes
   `manage.py check --deploy` with the compose file's environment.
2. The stack: deploy/compose.yaml with `docker compose` or Debian's
   docker-compose 1.29 (COMPOSE chooses), project SMOKE_PROJECT, the secrets
   as files, the web port on 127.0.0.1:SMOKE_WEB_PORT. Up, /health/ ok.
3. A new guest, through the published port (the nginx proxy) as the TLS
   terminator on the host would forward it: today's deals (verified by the
   worker over the broker), one of them won move by move with the solver's
   line, the leaderboard with the player.
   Slow clients: 16 sockets send a request's head one line every 2 s while
   the guest moves: the proxy holds them (and closes them after its
   client_header_timeout), the moves keep a p99 under 500 ms.
4. The worker killed while it verifies a deal, started again: the deal ends
   verified exactly once.
5. The web and database containers restarted: the records kept.
6. pg_dump from the database container, the database dropped, restored
   (the README's commands): the player's records intact; web comes back at
   another address (its old one held), and the proxy still reaches it.
7. Everything torn down, volumes included (built images are kept as a cache).

Each step is printed with its result and time; the first failure prints the
services' recent logs, tears the stack down (unless SMOKE_KEEP=1) and exits 1.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from .guest import Guest, records, step_todays_deals, step_win
from .images import APP_IMAGE, step_app_image, step_base_images
from .stack import (
    DEPLOY,
    HOST,
    STACK,
    T0,
    Run,
    StepFailed,
    address,
    compose,
    container,
    deal_row,
    detail,
    docker_preflight,
    health,
    manage,
    one_run_at_a_time,
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

SLOW_DEAL = ("cruel", "2032-01-09")
# The smoke's own network, apart from the default one of a real stack here.
SUBNET, GATEWAY, PROXY_ADDRESS = "172.30.81.0/24", "172.30.81.1", "172.30.81.250"
# Slow clients: this many sockets send a request's head one line every
# SLOW_LINE_SECONDS (opened again when the proxy closes them), while a player
# moves; the moves must keep their pace (p99 under SLOW_MOVES_P99 seconds).
SLOW_SOCKETS, SLOW_LINE_SECONDS, SLOW_ATTACK_SECONDS, SLOW_MOVES_P99 = 16, 2.0, 20.0, 0.5
# Short, so that the killed worker's task comes back within the run: Redis
# hands an unacknowledged task out again after the visibility timeout (the
# worker looks on start, then every 100 s), and the dead worker's claim on
# the deal is taken over once stale. Production keeps 3600 s and the default.
VISIBILITY_TIMEOUT, CLAIM_STALE = 30, 20


def step_slow_clients(guest: Guest) -> None:
    """Slowloris against the published port while a player moves: the proxy
    holds the slow heads (and drops them after client_header_timeout), so
    gunicorn's threads only ever see whole requests."""
    stop = threading.Event()
    opened, closed = [0], [0]

    def slow_client():
        sock = None
        while not stop.is_set():
            if sock is None:
                sock = socket.create_connection(("127.0.0.1", STACK.web_port), timeout=5)
                sock.sendall(f"POST /api/v1/attempts HTTP/1.1\r\nHost: {HOST}\r\n".encode())
                opened[0] += 1
            stop.wait(SLOW_LINE_SECONDS)
            try:
                sock.sendall(b"X-Slow: still-sending\r\n")
            except OSError:  # the proxy gave up on it: open another
                closed[0] += 1
                sock.close()
                sock = None
        if sock is not None:
            sock.close()

    attempt = guest.request("POST", "/api/v1/attempts", {"game": "cruel"}, expect=201)

    def moves_for(seconds: float) -> list[float]:
        """A move and its undo, timed, about five a second, for ``seconds``."""
        nonlocal attempt
        latencies = []
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            legal = attempt["legal"][0]
            for path, body in ((f"/api/v1/attempts/{attempt['id']}/moves",
                                {"move": f"{legal['card']}>{legal['targets'][0]}"}),
                               (f"/api/v1/attempts/{attempt['id']}/undo", {})):
                began = time.perf_counter()
                attempt = guest.request("POST", path, {**body, "version": attempt["version"]})
                latencies.append(time.perf_counter() - began)
            time.sleep(0.1)
        return sorted(latencies)

    def summary(ordered: list[float]) -> tuple[float, str]:
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return p99, (f"{len(ordered)} moves and undos: p50 {ordered[len(ordered) // 2] * 1000:.0f} ms, "
                     f"p99 {p99 * 1000:.0f} ms, slowest {ordered[-1] * 1000:.0f} ms")

    _p99, before = summary(moves_for(5))
    attackers = [threading.Thread(target=slow_client, daemon=True) for _ in range(SLOW_SOCKETS)]
    for thread in attackers:
        thread.start()
    p99, during = summary(moves_for(SLOW_ATTACK_SECONDS))
    stop.set()
    for thread in attackers:
        thread.join(timeout=10)
    detail(f"before: {before}")
    detail(f"{SLOW_SOCKETS} sockets sent a request head one line every {SLOW_LINE_SECONDS:.0f} s for "
           f"{SLOW_ATTACK_SECONDS:.0f} s ({opened[0]} opened; the proxy's client_header_timeout "
           f"closed them, {closed[0]} seen closed and opened again)")
    detail(f"meanwhile: {during}")
    if p99 >= SLOW_MOVES_P99:
        raise StepFailed(f"moves slowed by slow clients: p99 {p99 * 1000:.0f} ms "
                         f"(>= {SLOW_MOVES_P99 * 1000:.0f} ms)")
    if closed[0] == 0:
        raise StepFailed("the proxy never closed a slow client: is client_header_timeout in force?")


def step_kill_worker() -> None:
    game, date = SLOW_DEAL
    since = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    worker = container("worker")
    manage("prepare_deals", "--start", date, "--game", game, "--queue")
    # Watched from inside the database container, every 50 ms, for up to 2 minutes.
    query = f"select state from deals_dailydeal where game = '{game}' and date = '{date}'"
    watch = (f'i=0; until [ "$(psql -U solitaire -d solitaire -tAc "{query}")" = verifying ]; do '
             'i=$((i+1)); [ $i -gt 2400 ] && exit 1; sleep 0.05; done')
    if run("docker", "exec", container("postgres"), "sh", "-c", watch, check=False, timeout=300).returncode:
        raise StepFailed(f"the worker did not start verifying {game} {date}: {deal_row(game, date)}")
    run("docker", "kill", "--signal", "KILL", worker)
    killed_at = time.monotonic()
    row = deal_row(game, date)
    if row["state"] != "verifying":
        raise StepFailed(f"the verification ended before the kill: {row}")
    detail(f"{game} {date} queued (prepare_deals --queue); the worker claimed it "
           f"({row['claimed_by']}, candidate {row['candidate']}) and was killed (SIGKILL) while verifying")
    after = row
    detail(f"after the kill: state {after['state']}, claimed by the dead worker, verified_at "
           f"{after['verified_at'] or 'none'}")
    # Until both the visibility timeout (the task goes back to the queue)
    # and the claim's staleness (another worker may take the deal) are past.
    pause = max(VISIBILITY_TIMEOUT, CLAIM_STALE) + 3 - max(after["claim_age"], 0)
    if pause > 0:
        detail(f"waiting {pause} s: the task's visibility timeout ({VISIBILITY_TIMEOUT} s) and the claim's "
               f"staleness ({CLAIM_STALE} s)")
        time.sleep(pause)
    compose("start", "worker")
    done = wait(f"{game} {date} to be verified by the restarted worker",
                lambda: (lambda r: r if r.get("state") == "verified" else None)(deal_row(game, date)), 180)
    detail(f"worker started again; {time.monotonic() - killed_at:.0f} s after the kill: state {done['state']}, "
           f"candidate {done['candidate']}, verified_at {done['verified_at']}, claim released")

    log = worker_log(since)
    received = re.findall(r"verify_deal\[([0-9a-f-]+)\] received", log)
    succeeded = re.findall(r"verify_deal\[([0-9a-f-]+)\] succeeded in [^:]+: '([a-z ]+)'", log)
    verified = [task for task, result in succeeded if result == "verified"]
    task = received[0] if received else None
    valid = manage("shell", "-v", "0", "-c",
                   "from api.deals.models import DailyDeal as D; from api.deals.services import certificate_is_valid as v; "
                   f"d = D.objects.get(game='{game}', date='{date}'); print(v(position=d.position, certificate=d.certificate))")
    if done["rows"] != 1 or len(verified) != 1 or verified[0] != task or received.count(task) < 2 or valid != "True":
        raise StepFailed(f"not verified exactly once: rows {done['rows']}, received {received}, "
                         f"succeeded {succeeded}, certificate replays: {valid}")
    detail(f"task {task}: received {received.count(task)} times (before the kill, and given back by Redis "
           f"after it), succeeded 'verified' once; other results: {[r for _t, r in succeeded if r != 'verified'] or 'none'}")
    # Asked again, a verified deal is not verified again: prepare_deals
    # queues no task for it (deal_prepare), so there is nothing to wait for.
    manage("prepare_deals", "--start", date, "--game", game, "--queue")
    again = deal_row(game, date)
    if again["verified_at"] != done["verified_at"] or again["state"] != "verified":
        raise StepFailed(f"the deal was verified again: {again}")
    detail(f"one row for {game} {date}, its certificate replays to a win; prepared again, it stays as it was "
           f"(verified_at {again['verified_at']})")


def step_restart(guest: Guest, attempt: dict, before: dict) -> None:
    compose("restart", "web", "postgres", timeout=300)
    wait("/health/ ok after the restart", lambda: health().get("status") == "ok", 180)
    now = wait("the records after the restart", lambda: records(guest, attempt), 60, every=2)
    if now != before:
        raise StepFailed(f"records changed across the restart:\n before {before}\n after  {now}")
    detail(f"web and postgres restarted, /health/ ok; the same session sees the same records: {json.dumps(now)}")


def step_backup_restore(guest: Guest, attempt: dict, before: dict, folder: Path) -> None:
    dump = folder / "solitaire.dump"
    # The README's commands ("Backup and restore").
    with dump.open("wb") as out:
        compose("exec", "-T", "postgres", "pg_dump", "-U", "solitaire", "-d", "solitaire", "--format=custom",
                stdout=out)
    detail(f"pg_dump -U solitaire -d solitaire --format=custom: {dump.stat().st_size} bytes")
    network, web_was_at = address("web")
    compose("stop", "web", "worker", "beat", timeout=300)
    compose("exec", "-T", "postgres", "dropdb", "-U", "solitaire", "solitaire")
    databases = psql_list()
    if "solitaire" in databases:
        raise StepFailed(f"the database is still there: {databases}")
    detail(f"web, worker and beat stopped; dropdb solitaire; databases left: {', '.join(databases)}")
    compose("exec", "-T", "postgres", "createdb", "-U", "solitaire", "solitaire")
    compose("exec", "-T", "postgres", "pg_restore", "-U", "solitaire", "-d", "solitaire", "--no-owner",
            input=dump.read_bytes())
    # A stand-in holds web's old address while web starts again, so web comes
    # back at another one (as any restart may bring it): the proxy must find
    # it by name, not at the address it had.
    holder = text(run("docker", "run", "-d", "--rm", "--network", network, "--ip", web_was_at,
                      "--entrypoint", "sleep", APP_IMAGE, "600"))
    try:
        compose("start", "web", "worker", "beat", timeout=300)
    finally:
        run("docker", "rm", "-f", holder, check=False)
    web_now_at = address("web")[1]
    if web_now_at == web_was_at:
        raise StepFailed(f"web came back at its old address {web_was_at} although it was held")
    detail(f"web started again at {web_now_at}, its old address {web_was_at} held by a stand-in")
    wait("/health/ ok after the restore", lambda: health().get("status") == "ok", 180)
    now = wait("the records after the restore", lambda: records(guest, attempt), 60, every=2)
    if now != before:
        raise StepFailed(f"records changed across the restore:\n before {before}\n after  {now}")
    detail(f"createdb, pg_restore, services started: the player's records intact: {json.dumps(now)}")


def psql_list() -> list[str]:
    return text(compose("exec", "-T", "postgres", "psql", "-U", "solitaire", "-d", "postgres", "-tAc",
                        "select datname from pg_database where not datistemplate order by 1")).split()


def main(images_only: bool = False) -> int:
    STACK.project = os.environ.get("SMOKE_PROJECT", "solitaire-smoke")
    STACK.web_port = int(os.environ.get("SMOKE_WEB_PORT", "18000"))
    STACK.files[:] = [DEPLOY / "compose.yaml"]
    keep = os.environ.get("SMOKE_KEEP") == "1"
    one_run_at_a_time()
    running = Run()
    step = running.step
    guest = Guest()
    state: dict = {}
    try:
        step("Docker and compose", docker_preflight)
        step("Base images", lambda: state.update(bases=step_base_images()))
        step("Application image from a clean checkout of HEAD",
             lambda: step_app_image(state["bases"]["PYTHON_IMAGE"]))
        if images_only:
            say(f"Images ready in {time.monotonic() - T0:.0f} s (--images: no stack)")
            return running.passed()
        step("Secrets as files", lambda: step_secrets(running.work / "secrets"))
        set_environment(
            running.work, {"APP_IMAGE": APP_IMAGE, **state["bases"]}, (SUBNET, GATEWAY, PROXY_ADDRESS),
            CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
            DEAL_CLAIM_STALE_SECONDS=str(CLAIM_STALE),
            # The time budget (10 s), not the node budget, ends a hard candidate.
            DEAL_SOLVE_MAX_NODES="20000000",
        )
        step("manage.py check --deploy in the image, with the compose environment", step_check_deploy)
        running.up = True
        step("Stack up: migrate, web, worker, beat, PostgreSQL, Redis, the nginx proxy; /health/ ok",
             step_up)
        step("A new guest reads today's deals, verified by the worker",
             lambda: state.update(daily=step_todays_deals(guest)))
        step("The guest wins one, move by move, with the solver's line",
             lambda: state.update(attempt=step_win(guest, state["daily"])))
        step("The leaderboard shows the player",
             lambda: (state.update(records=records(guest, state["attempt"])),
                      detail(f"leaderboard: {json.dumps(state['records']['leaderboard'])}")))
        step(f"{SLOW_SOCKETS} slow clients (a header line every {SLOW_LINE_SECONDS:.0f} s): moves keep their pace",
             lambda: step_slow_clients(guest))
        step("Worker killed while verifying a deal, started again: verified exactly once", step_kill_worker)
        step("Web and database restarted: the records kept",
             lambda: step_restart(guest, state["attempt"], state["records"]))
        step("Backup (pg_dump), drop, restore: the player's records intact",
             lambda: step_backup_restore(guest, state["attempt"], state["records"], running.work))
        step("Teardown, volumes included", teardown)
        running.up = False
    except Run.FAILURES as error:
        if keep:
            say("SMOKE_KEEP=1")
        return running.failed(error, keep)
    return running.passed()
