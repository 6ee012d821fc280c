"""Solver benchmark: decide random deals under a per-deal time budget.

    python benchmarks/solver_bench.py --game cruel  --deals 1000 --max-seconds 10 --jobs 2
    python benchmarks/solver_bench.py --game flower --deals 1000 --max-seconds 10 --jobs 1

A Flower Garden solve with a time budget runs its two phases side by side on
two threads (``solitaire/solver/search.py``), so one job already keeps both
cores busy; a Cruel solve is one thread, so two jobs do. Nodes per second are
over the deals' wall time, so for Flower Garden they are both threads'.

Deals are ``solitaire.deal(game, seed)`` for seeds ``--first`` ..
``--first + --deals - 1``. Prints the share decided (SOLVED or UNSOLVABLE),
median / p90 / p99 / max time per deal, nodes per second, peak memory (max
resident set of any worker), and winnability with a 95% Wilson interval;
progress goes to stderr.

Per-deal results, one JSON line a deal, go to ``--out`` (by default a new
file in ``benchmarks/results/``, which git ignores). ``--baseline FILE``
compares the verdicts with such a file: a deal won in one and proven lost in
the other is an error (exit status 1); deals decided in only one are listed.
The committed baselines, cited by BENCHMARKS.md, are in
``benchmarks/baselines/``:

    python benchmarks/solver_bench.py --game flower --baseline benchmarks/baselines/flower-1000-10s.jsonl"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import resource
import sys
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import solitaire  # noqa: E402


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def percentile(sorted_values, q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def default_out(game: str, deals: int, max_seconds: float) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H%M%S")
    return os.path.join(HERE, "results", f"{game}-{deals}-{max_seconds:g}s-{stamp}.jsonl")


def compare(rows, baseline_path: str) -> int:
    """Print how the verdicts of ``rows`` differ from those in ``baseline_path``;
    return the number of contradictions (won in one, proven lost in the other)."""
    with open(baseline_path) as f:
        before = {r["seed"]: r["status"] for r in map(json.loads, f)}
    now = {r["seed"]: r["status"] for r in rows}
    common = sorted(set(now) & set(before))
    contra = [s for s in common if {now[s], before[s]} == {"solved", "unsolvable"}]
    gained = [s for s in common if before[s] == "unknown" and now[s] != "unknown"]
    lost = [s for s in common if before[s] != "unknown" and now[s] == "unknown"]
    print(f"against {baseline_path} ({len(common)} deals in both): "
          f"{len(contra)} contradicted, {len(gained)} decided only now, "
          f"{len(lost)} decided only there")
    for name, seeds in (("CONTRADICTED", contra), ("decided only now", gained),
                        ("decided only there", lost)):
        if seeds:
            print(f"  {name}: {', '.join(map(str, seeds))}")
    return len(contra)


def _one(task):
    game, seed, max_seconds = task
    pos = solitaire.deal(game, seed)
    r = solitaire.solve(pos, max_seconds=max_seconds)
    if r.status is solitaire.SolveStatus.SOLVED:
        assert pos.play(r.moves).is_won(), seed
    return {
        "seed": seed, "status": r.status.value, "seconds": r.seconds, "nodes": r.nodes,
        "states": r.states, "length": len(r.moves), "redeals": r.redeals,
        "difficulty": r.difficulty, "limit": r.limit,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["cruel", "flower"], required=True)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="write one JSON line per deal here "
                    "(default: a new file in benchmarks/results/)")
    ap.add_argument("--baseline", help="compare the verdicts with this file of per-deal results")
    return ap.parse_args(argv)


def run_deals(args, out_path: str) -> list[dict]:
    """Solve every deal on ``args.jobs`` processes, each result written to
    ``out_path`` as it comes; progress on stderr. The results, by seed."""
    tasks = [(args.game, s, args.max_seconds) for s in range(args.first, args.first + args.deals)]
    rows = []
    start = time.perf_counter()
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w") as out, multiprocessing.Pool(args.jobs, maxtasksperchild=50) as pool:
        for row in pool.imap_unordered(_one, tasks):
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            n = len(rows)
            if n % 10 == 0 or n == len(tasks):
                dec = sum(r["status"] != "unknown" for r in rows)
                print(f"\r{n}/{len(tasks)} deals, {dec} decided, "
                      f"{time.perf_counter() - start:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rows.sort(key=lambda r: r["seed"])
    return rows


def report(args, rows: list[dict], wall: float) -> None:
    """The figures: share decided, time per deal, speed, memory, winnability."""
    n = len(rows)
    solved = sum(r["status"] == "solved" for r in rows)
    unsolvable = sum(r["status"] == "unsolvable" for r in rows)
    unknown = n - solved - unsolvable
    decided = solved + unsolvable
    times = sorted(r["seconds"] for r in rows)
    nodes = sum(r["nodes"] for r in rows)
    cpu = sum(r["seconds"] for r in rows)
    peak_kb = max(r["maxrss_kb"] for r in rows)
    lo, hi = wilson(solved, decided)
    lo_all, hi_all = wilson(solved, n)[0], wilson(solved + unknown, n)[1]
    sol = [r for r in rows if r["status"] == "solved"]
    print(f"game {args.game}, deals {args.first}..{args.first + n - 1}, "
          f"max {args.max_seconds:g} s each, {args.jobs} jobs, wall {wall:.0f} s")
    print(f"decided {decided}/{n} = {100 * decided / n:.1f}%  "
          f"(solved {solved}, unsolvable {unsolvable}, unknown {unknown})")
    print(f"time per deal: median {percentile(times, .5):.3f} s, p90 {percentile(times, .9):.3f} s, "
          f"p99 {percentile(times, .99):.3f} s, max {times[-1]:.3f} s")
    print(f"nodes/s {nodes / cpu:,.0f} (all deals), peak memory {peak_kb / 1024:.0f} MB (max RSS of a worker)")
    print(f"winnability among decided {100 * solved / max(decided, 1):.1f}% "
          f"(95% Wilson CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    if unknown:
        print(f"winnability bounds over all {n} (unknown counted lost / won): "
              f"{100 * lo_all:.1f}-{100 * hi_all:.1f}% (95% CI)")
    if sol:
        lens = sorted(r["length"] for r in sol)
        reds = sorted(r["redeals"] for r in sol)
        print(f"solutions: median length {percentile(lens, .5)}, max {lens[-1]}; "
              f"median redeals {percentile(reds, .5)}, max {reds[-1]}")


def main(argv=None) -> int:
    args = parse_args(argv)
    out_path = args.out or default_out(args.game, args.deals, args.max_seconds)
    start = time.perf_counter()
    rows = run_deals(args, out_path)
    report(args, rows, time.perf_counter() - start)
    print(f"per-deal results: {out_path}")
    if args.baseline:
        return 1 if compare(rows, args.baseline) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
