"""Regenerate data/perft.txt with the independent reference rules.

    python tests/solitaire/make_perft.py > tests/solitaire/data/perft.txt

Kept as data so the engine is checked against fixed numbers; the positions
are fresh deals, mid-game positions (from a fixed playout), positions with
empty piles or columns, and near-won ones."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2]))

import reference as ref  # noqa: E402

import solitaire  # noqa: E402

HAND_MADE = [
    # near won: one card left per suit somewhere
    "cruel KS/KH/KD/KC/-/-/-/-/-/-/-/-",
    "cruel KSQS/-/KHQH/-/-/-/-/-/-/-/KC/KDQD",
    "cruel QSKS/-/-/-/-/-/-/-/-/-/-/KH",
    "flower KS/-/KH/-/-/- KCKD",
    "flower QSKH/KS/-/-/QH/- -",
    "flower -/-/-/-/-/- KSKHKDKCQS",
]


def playout(position, n, rng):
    for _ in range(n):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(rng.choice(sorted(moves)))
    return position


def positions():
    rng = random.Random(2026)  # only picks test positions; never used for deals
    out = []
    for game in ("cruel", "flower"):
        for seed in (1, 2, 3):
            out.append(solitaire.deal(game, seed))
        for seed in (4, 5, 6):
            out.append(playout(solitaire.deal(game, seed), 25, rng))
        # Deeper playouts find empty piles and columns.
        found = 0
        seed = 100
        while found < 2:
            p = playout(solitaire.deal(game, seed), 120, rng)
            layout = p.piles if game == "cruel" else p.columns
            if any(not x for x in layout) and p.legal_moves():
                out.append(p)
                found += 1
            seed += 1
    out.extend(solitaire.parse_position(t) for t in HAND_MADE)
    return out


def main():
    print("# position ; depth ; move paths (from tests/solitaire/reference.py)")
    for p in positions():
        state = ref.parse(p.notation())
        for depth in (1, 2, 3):
            n = ref.perft(state, depth)
            print(f"{p.notation()} ; {depth} ; {n}", flush=True)
            if n > 200_000:
                break


if __name__ == "__main__":
    main()
