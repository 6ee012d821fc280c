"""benchmarks/load_bench.py --smoke: a few players against a real gunicorn,
PostgreSQL and Redis for a few seconds; asserts integrity, not speed."""

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "load_bench.py"


def test_the_smoke_run_loses_and_doubles_no_move(tmp_path):
    database = urlsplit(os.environ["DATABASE_URL"])
    admin = urlunsplit(database._replace(path="/postgres"))
    scratch = f"{database.path.lstrip('/') or 'postgres'}_load"
    cache = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    out = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke", "--port", "0", "--admin-url", admin,
         "--db", scratch, "--cache-url", cache, "--json", str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "integrity ok" in done.stdout
    results = json.loads(out.read_text())
    played = {r["game"] for r in results if r["scenario_name"] == "play"}
    assert played == {"flower", "cruel"}
    held = next(r for r in results if r["scenario_name"] == "human pace held")
    assert held["players"] == 4  # the smoke's bound holds every step
    for r in (r for r in results if "move" in r):
        assert r["move"]["count"] > 0
        assert r["integrity"] == {**r["integrity"], "lost": 0, "doubled": 0, "bad_replay": 0}
        assert r["integrity"]["attempts"] >= r["players"]
        assert not r["errors"].get("move 500")
    flood = next(r for r in results if r["scenario_name"] == "hint flood")
    assert flood["hinters"] == 2 and "hint" in flood


def test_human_steps_stop_at_the_first_step_past_the_bound(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import load_bench

    p99 = {2: 40.0, 4: 90.0, 8: 150.0, 16: 20.0}
    tried = []
    bench = load_bench.Bench.__new__(load_bench.Bench)
    bench.args = SimpleNamespace(human_steps="2,4,8,16", human_p99_ms=100.0)
    bench.games, bench.human, bench.results = ["flower"], None, []

    def go(title, *, game, players, think):
        tried.append(players)
        return {"players": players, "move": {"p99_ms": p99[players], "per_second": 1.0}}

    bench.go = go
    bench.human_steps()
    assert tried == [2, 4, 8]  # 16 is never tried once 8 passed the bound
    assert bench.results[-1] == {"scenario_name": "human pace held", "game": "flower", "players": 4}
