"""Time the analysis of a day's attempts: where the win slipped away.

For one day's deal of a game (by default the first seeded deal the solver
solves quickly, as the tests' certified deals), N attempts with real-looking
lines: the solver's winning line cut at a random point and continued with
random legal moves until nothing moves or a cap is reached. Each attempt is
analysed by the service's own bisection (api.play.attempts.analysis.analyse)
with the solver under the workers' per-call budget, twice in the same run:
with no cache (every probe runs the solver), and with the decided positions
kept and shared across the day's attempts (what the PositionVerdict table
does; here a dict, so the table's primary-key look-ups, about 0.2 ms each on
PostgreSQL, are not in the figure). One process, one core.

    python benchmarks/analysis_bench.py --game cruel --attempts 1000 [--max-seconds 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solitaire  # noqa: E402
from solitaire.solver import SolveStatus, solve  # noqa: E402


def analysis_module():
    # api.play.attempts.analysis is plain Python over the engine; its package
    # imports Django settings, so point them at the laptop defaults first.
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from api.play.attempts import analysis

    return analysis


def day_deal(game: str) -> tuple[str, list[str]]:
    for seed in range(1, 400):
        position = solitaire.deal(game, seed=seed)
        result = solve(position, max_nodes=20_000, max_seconds=2)
        if result.status is SolveStatus.SOLVED:
            return position.notation(), [m.token() for m in result.moves]
    raise SystemExit(f"no quickly solvable {game} deal")


def lines(start: str, solution: list[str], n: int, rng: random.Random, cap: int) -> list[list[str]]:
    out = []
    for _ in range(n):
        cut = rng.randint(0, len(solution) - 1)
        line = solution[:cut]
        position = solitaire.parse_position(start)
        for token in line:
            position = position.apply(solitaire.Move.parse(token))
        for _step in range(cap):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            position = position.apply(move)
            line.append(move.token())
            if position.cards_home() == 52:
                break
        out.append(line)
    return out


def run(analysis, start, attempts, *, cached: bool, max_seconds: float) -> dict:
    table: dict[str, object] = {}
    calls = Counter()
    times = []

    def decide(position):
        key = position.notation()
        if cached and key in table:
            calls["table"] += 1
            return table[key]
        calls["solver"] += 1
        result = solve(position, max_seconds=max_seconds, max_nodes=2_000_000)
        decision = analysis.Decision(result.status.value, tuple(m.token() for m in result.moves))
        if cached and decision.status != "unknown":
            table[key] = decision
        return decision

    verdicts = Counter()
    began = time.perf_counter()
    for line in attempts:
        t = time.perf_counter()
        verdict = analysis.analyse(start=start, line=line, won=False, decide=decide)
        times.append(time.perf_counter() - t)
        verdicts[verdict.verdict] += 1
    wall = time.perf_counter() - began
    times.sort()
    return {
        "wall": wall, "median": statistics.median(times), "p90": times[int(len(times) * 0.9)],
        "max": times[-1], "solver": calls["solver"], "table": calls["table"], "verdicts": verdicts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["cruel", "flower"], default="cruel")
    parser.add_argument("--attempts", type=int, default=1000)
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--cap", type=int, default=80, help="random moves after the cut, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["cached", "uncached"], default=None)
    args = parser.parse_args()
    analysis = analysis_module()
    start, solution = day_deal(args.game)
    rng = random.Random(args.seed)
    attempts = lines(start, solution, args.attempts, rng, args.cap)
    print(f"{args.game}: {args.attempts} attempts, solution {len(solution)} moves, "
          f"lines median {statistics.median(len(a) for a in attempts)} moves, "
          f"budget {args.max_seconds} s a probe")
    for cached in (False, True):
        if args.only and (args.only == "cached") != cached:
            continue
        r = run(analysis, start, attempts, cached=cached, max_seconds=args.max_seconds)
        name = "with the cache" if cached else "no cache"
        print(f"| {name} | {r['wall']:.1f} s | {r['median'] * 1000:.1f} ms | {r['p90'] * 1000:.1f} ms "
              f"| {r['max'] * 1000:.0f} ms | {r['solver']:,} | {r['table']:,} | "
              + ", ".join(f"{k} {v}" for k, v in sorted(r["verdicts"].items())) + " |", flush=True)


if __name__ == "__main__":
    main()
