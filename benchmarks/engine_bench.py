"""Engine speed: random playouts from random deals.

One step = generate the legal moves of a position, then apply one of them
(the solver's inner loop). Prints steps per second for each game, on one core.

    python benchmarks/engine_bench.py [--seconds 5] [--deals 2000]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import solitaire  # noqa: E402


def playouts(game: str, seconds: float, deals: int) -> tuple[int, float, int]:
    rng = random.Random(1)  # chooses moves only; deals come from our own seeds
    starts = [solitaire.deal(game, seed) for seed in range(deals)]
    steps = games = 0
    begin = time.perf_counter()
    deadline = begin + seconds
    while time.perf_counter() < deadline:
        pos = starts[games % deals]
        games += 1
        for _ in range(200):  # Cruel can redeal forever; cap a playout
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.apply(moves[rng.randrange(len(moves))])
            steps += 1
    return steps, time.perf_counter() - begin, games


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.seconds:g} s per game")
    for game, floor in (("cruel", 100_000), ("flower", 60_000)):
        steps, elapsed, games = playouts(game, args.seconds, args.deals)
        rate = steps / elapsed
        verdict = "ok" if rate >= floor else "BELOW FLOOR"
        print(f"{game:7s} {rate:10,.0f} steps/s  ({steps:,} steps in {games:,} playouts; floor {floor:,}: {verdict})")


if __name__ == "__main__":
    main()
