"""benchmarks/load_bench.py --smoke: a few players against a real gunicorn,
PostgreSQL and Redis for a few seconds; asserts integrity, not speed."""

import json
import os
import subprocess
import sys
from pathlib import Path
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
    assert held["players"] in (0, 2, 4)
    for r in (r for r in results if "move" in r):
        assert r["move"]["count"] > 0
        assert r["integrity"] == {**r["integrity"], "lost": 0, "doubled": 0, "bad_replay": 0}
        assert r["integrity"]["attempts"] >= r["players"]
        assert not r["errors"].get("move 500")
    flood = next(r for r in results if r["scenario_name"] == "hint flood")
    assert flood["hinters"] == 2 and "hint" in flood
