"""Three small pieces of a move's CPU, each against its alternative, for the
levers the move path could pull beside it (BENCHMARKS.md, "Service"):

- the answer to a move (``attempt_out`` on a Flower Garden game half
  played) as JSON: DRF's ``JSONRenderer`` (the service), ``json.dumps``
  and, when it is installed, ``orjson``;
- the metrics middleware's one observation a request, with prometheus
  _client in one process and in gunicorn's multiprocess mode;
- the rate's Redis script (``api.cache``), over TCP to 127.0.0.1:6379 and,
  with ``--redis-socket``, over a private redis-server's Unix socket: the
  client's CPU and Redis's own, a call.

No database. Each figure is the mean of ``--rounds`` alternated rounds.

    python benchmarks/move_pieces.py [--calls 5000] [--rounds 5] [--redis-socket]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def per_call_ms(function, calls: int) -> float:
    began = time.process_time()
    for _ in range(calls):
        function()
    return (time.process_time() - began) / calls * 1000


def half_played_answer() -> dict:
    import solitaire
    from api.play.attempts.domain import AttemptState
    from api.play.rest import answers

    start = solitaire.deal("flower", 3)
    board = solitaire.Board(start)
    for move in list(solitaire.solve(start, max_seconds=30).moves)[:70]:
        board.push(move)
    now = dt.datetime.now(dt.timezone.utc)
    state = AttemptState(
        id=1, player_id=1, deal_id=1, game="flower", date=now.date(),
        day_ends_at=now + dt.timedelta(hours=1), ranked=True, status="playing", version=70,
        start_position=start.notation(), position=board.position.notation(),
        line=solitaire.moves_text(board.move_stack), cards_home=board.position.cards_home(),
        redeals=0, undos=0, moves=70, elapsed_ms=0, started_at=now, last_action_at=now,
        ended_at=None, last_action="")
    return answers.attempt_out(state, now)


def answer_json(calls: int, rounds: int) -> None:
    import json

    from rest_framework.renderers import JSONRenderer

    answer = half_played_answer()
    renderer = JSONRenderer()
    ways = {
        "DRF's JSONRenderer (the service)": lambda: renderer.render(answer, "application/json", {}),
        "json.dumps": lambda: json.dumps(answer, ensure_ascii=False,
                                         separators=(",", ":")).encode(),
    }
    try:
        import orjson

        ways["orjson.dumps"] = lambda: orjson.dumps(answer)
    except ImportError:
        print("  (orjson is not installed: pip install orjson to compare it)")
    spent = {name: [] for name in ways}
    for _ in range(rounds):
        for name, way in ways.items():
            spent[name].append(per_call_ms(way, calls))
    print(f"a move's answer as JSON ({len(ways['json.dumps']())} bytes):")
    for name, ms in spent.items():
        print(f"  {name:<40} {statistics.fmean(ms):.4f} ms")


def metrics_observation(calls: int, rounds: int) -> None:
    """In a child process each, as prometheus_client reads its mode at import."""
    code = (
        "import time\n"
        "from api.metrics import REQUEST_SECONDS\n"
        f"n = {calls * rounds}\n"
        "t = time.process_time()\n"
        "for _ in range(n):\n"
        "    REQUEST_SECONDS.labels('play:attempt-moves', 'POST', '200').observe(0.0021)\n"
        "print(f'{(time.process_time() - t) / n * 1000:.4f}')\n"
    )
    print("the metrics middleware's observation, a request:")
    for label, multiprocess in (("one process", False), ("multiprocess (gunicorn)", True)):
        env = dict(os.environ)
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        with tempfile.TemporaryDirectory() as folder:
            if multiprocess:
                env["PROMETHEUS_MULTIPROC_DIR"] = folder
            out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split()[-1]
        print(f"  {label:<40} {out} ms")


def redis_server_cpu_ms(client) -> float:
    info = client.info("cpu")
    return (info["used_cpu_user"] + info["used_cpu_sys"]) * 1000


def rate_script(calls: int, rounds: int, *, socket_too: bool) -> None:
    import redis

    from api.cache import _RATE_LOG

    clients = {"TCP to 127.0.0.1:6379": redis.Redis(host="127.0.0.1", port=6379, db=15)}
    folder = server = None
    if socket_too:
        folder = tempfile.mkdtemp(prefix="move-pieces-")
        path = os.path.join(folder, "redis.sock")
        server = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", path, "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL)
        local = clients["Unix socket (a private redis-server)"] = redis.Redis(unix_socket_path=path)
        for _ in range(100):
            try:
                local.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            raise SystemExit(f"move_pieces: redis-server did not start on {path}")
    try:
        spent = {name: ([], []) for name in clients}
        for round_number in range(rounds):
            for name, client in clients.items():
                script = client.register_script(_RATE_LOG)
                key = f"move-pieces:{round_number}"
                count = iter(range(calls))

                def call():
                    script(keys=[key], args=[repr(time.time()), "60", 10**9, next(count)])

                before = redis_server_cpu_ms(client)
                spent[name][0].append(per_call_ms(call, calls))
                spent[name][1].append((redis_server_cpu_ms(client) - before) / calls)
                client.delete(key)
        print("the rate's Redis script, a call:")
        for name, (mine, theirs) in spent.items():
            print(f"  {name:<40} client {statistics.fmean(mine):.4f} ms, "
                  f"Redis {statistics.fmean(theirs):.4f} ms")
    finally:
        if server is not None:
            server.terminate()
            server.wait()
            shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calls", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--redis-socket", action="store_true",
                   help="also over a private redis-server's Unix socket")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")
    os.environ.setdefault("DEBUG", "true")  # settings without production secrets; no server here
    import django

    django.setup()
    print(f"move_pieces: Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    answer_json(args.calls, args.rounds)
    metrics_observation(args.calls, args.rounds)
    rate_script(args.calls, args.rounds, socket_too=args.redis_socket)
    return 0


if __name__ == "__main__":
    sys.exit(main())
