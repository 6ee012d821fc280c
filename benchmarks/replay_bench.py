"""The replay's positions: what GET /attempts/{id}/analysis?steps=true costs
to build and send for a long practice line, in notation (as the API sends
them) against the engine's structured layouts (Position.to_dict, as an
attempt's own position is sent), in one run.

The line: Flower Garden moves between columns and from the bouquet, never to
a foundation, chosen at random until it is ``--moves`` long (the kind of
line a player can build in practice). CPU is process time; bytes are the
JSON text.

    python benchmarks/replay_bench.py [--moves 3000] [--repeat 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solitaire  # noqa: E402


def long_line(moves: int, seed: int) -> tuple[solitaire.Position, list[str]]:
    """A line of ``moves`` moves from some Flower Garden deal that allows one."""
    for deal_seed in range(seed, seed + 1000):
        rng = random.Random(deal_seed)
        start = position = solitaire.deal("flower", deal_seed)
        line: list[str] = []
        while len(line) < moves:
            choices = [m for m in position.legal_moves() if m.target != solitaire.FOUNDATION]
            if not choices:
                break
            move = rng.choice(choices)
            line.append(move.token())
            position = position.apply(move)
        if len(line) == moves:
            return start, line
    raise SystemExit(f"replay_bench: no deal gave a line of {moves} moves")


def measure(build, repeat: int) -> tuple[float, int]:
    """The median CPU milliseconds of building and encoding, and the bytes."""
    times, size = [], 0
    for _ in range(repeat):
        began = time.process_time()
        size = len(json.dumps({"positions": build()}))
        times.append((time.process_time() - began) * 1000)
    return statistics.median(times), size


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=3000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    start, line = long_line(args.moves, args.seed)
    notation_ms, notation_bytes = measure(
        lambda: [step.notation() for step in start.along(line)], args.repeat)
    layout_ms, layout_bytes = measure(
        lambda: [step.to_dict() for step in start.along(line)], args.repeat)
    print(f"replay_bench: Flower Garden, a line of {len(line):,} moves; median of {args.repeat}")
    print(f"{'notation (the API)':<24} {notation_ms:8.1f} ms CPU  {notation_bytes / 1e6:6.2f} MB")
    print(f"{'structured layouts':<24} {layout_ms:8.1f} ms CPU  {layout_bytes / 1e6:6.2f} MB")
    print(f"{'notation / layouts':<24} {notation_ms / layout_ms:8.2f} x CPU  "
          f"{notation_bytes / layout_bytes:6.2f} x bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
