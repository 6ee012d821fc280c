"""benchmarks/solver_bench.py: per-deal results and the baseline check."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "solver_bench.py"
spec = importlib.util.spec_from_file_location("solver_bench", SCRIPT)
solver_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(solver_bench)


def bench(*args):
    """The benchmark as a command: three Cruel deals (seeds 0..2, decided in
    milliseconds), one job."""
    return subprocess.run([sys.executable, str(SCRIPT), "--game", "cruel", "--deals", "3",
                           "--max-seconds", "5", "--jobs", "1", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "cruel.jsonl"
    done = bench("--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"per-deal results: {out}" in done.stdout
    return [json.loads(line) for line in out.read_text().splitlines()]


def write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def test_one_line_per_deal(run):
    assert sorted(r["seed"] for r in run) == [0, 1, 2]
    assert all(r["status"] in ("solved", "unsolvable") for r in run)


def test_the_same_verdicts_pass(run, tmp_path):
    base = write(tmp_path / "base.jsonl", run)
    done = bench("--out", str(tmp_path / "again.jsonl"), "--baseline", base)
    assert done.returncode == 0, done.stderr
    assert "0 contradicted, 0 decided only now, 0 decided only there" in done.stdout


def test_a_contradicted_baseline_fails_the_command(run, tmp_path):
    flip = {"solved": "unsolvable", "unsolvable": "solved"}
    base = write(tmp_path / "base.jsonl", [dict(r, status=flip[r["status"]]) for r in run])
    done = bench("--out", str(tmp_path / "again.jsonl"), "--baseline", base)
    assert done.returncode == 1
    assert "CONTRADICTED: 0, 1, 2" in done.stdout


def test_a_contradicted_verdict_fails(run, tmp_path, capsys):
    flip = {"solved": "unsolvable", "unsolvable": "solved"}
    rows = [dict(r, status=flip[r["status"]]) if r["seed"] == 1 else r for r in run]
    rows[0] = dict(rows[0], status="unknown")
    assert solver_bench.compare(run, write(tmp_path / "base.jsonl", rows)) == 1
    out = capsys.readouterr().out
    assert "CONTRADICTED: 1" in out
    assert "decided only now: 0" in out


def test_results_go_to_the_ignored_folder_by_default():
    path = Path(solver_bench.default_out("flower", 1000, 10.0))
    assert path.parent == ROOT / "benchmarks" / "results"
    assert path.name.startswith("flower-1000-10s-")
    assert "benchmarks/results/" in (ROOT / ".gitignore").read_text().splitlines()
