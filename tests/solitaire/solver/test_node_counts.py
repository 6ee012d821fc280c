"""Same nodes for the same searches: every search mode of both C cores, run
under node budgets (which makes them deterministic), expands exactly the
nodes, stores exactly the states and finds exactly the line recorded in
``node_counts.json``. A change that is meant to keep the searches as they
are (a refactor, a new file layout, a settings object) must pass this as
it stands; a change that is meant to tune them records the figures again:

    python tests/solitaire/solver/test_node_counts.py --record
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import solitaire
from solitaire import solve
from solitaire.solver.settings import BLOCKED, FLOWER, StepAside

RECORD = Path(__file__).with_name("node_counts.json")


def _line_digest(moves) -> str:
    return hashlib.sha256(" ".join(str(m) for m in moves).encode()).hexdigest()[:16]


def _layout(pos):
    return [tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations)


def flower_core(pos, *, greedy=False, weight=None, blocked=BLOCKED, aside=None, **options):
    """One call of the Flower C core on deal ``pos``: the complete search,
    with ``greedy`` phase 1's portfolio, or with ``weight`` 0 the ordered
    depth-first run, more one best-first run. ``aside``: (states, depth
    weight, expansions)."""
    from solitaire.solver import _flower_c

    if weight is not None:
        options.update(run="best-first", depth_weight=weight, blocked_weight=blocked) if weight else options.update(
            run="ordered")
    elif greedy:
        options.update(run="portfolio", portfolio=FLOWER.portfolio)
    else:
        options.update(run="complete")
    if aside is not None:
        options["aside"] = StepAside(aside[0], aside[1], BLOCKED, aside[2])
    return _flower_c.search(*_layout(pos), **options)


def cruel_core(pos, **options):
    from solitaire.solver import _cruel_c

    return _cruel_c.search(pos.piles, pos.foundations, **options)


def _solve_case(game, seed, max_nodes):
    result = solve(solitaire.deal(game, seed), max_nodes=max_nodes, shorten=False)
    return [result.status.value, result.limit, result.nodes, result.states, len(result.moves),
            _line_digest(m.token() for m in result.moves)]


def _core_case(core, game, seed, options):
    pos = solitaire.deal(game, seed)
    status, limit, nodes, states, line = (
        core(pos, **options) if core is flower_core else (lambda r: (r[0], None, *r[1:]))(core(pos, **options))
    )
    return [status, limit, nodes, states, len(line), _line_digest(line)]


def _guided(seed):
    """The refinement's second step by hand: the abstract game at the first
    bounds, then the next bounds guided by its line, with a step aside."""
    pos = solitaire.deal("flower", seed)
    low = tuple(min(13, f + 4) for f in pos.foundations)
    first = flower_core(pos, low=low, max_nodes=300_000)
    guide = first[4] if first[0] == 1 else None
    higher = tuple(min(13, r + 2) for r in low)
    second = flower_core(pos, low=higher, guide=guide, aside=(2_000, 24, 20_000), max_nodes=300_000)
    return [[*first[:4], len(first[4])], [*second[:4], len(second[4]), _line_digest(second[4])]]


FLOWER_SOLVE = [(seed, 400_000) for seed in (0, 1, 2, 3, 5, 8, 12, 17)] + [(351, 3_000_000)]
CRUEL_SOLVE = [(seed, 200_000) for seed in (0, 1, 4, 5, 6, 123)]
FLOWER_CORE = {
    "complete": dict(max_nodes=300_000),
    "unpruned": dict(prune=False, max_nodes=100_000),
    "portfolio": dict(greedy=True, max_nodes=400_000),
    "depth-first ordered": dict(weight=0, max_nodes=200_000),
    "best-first 24 blocked": dict(weight=24, max_nodes=200_000),
    "best-first 12 plain": dict(weight=12, blocked=0, max_nodes=200_000),
    "best-first small store": dict(weight=24, store=20_000, max_nodes=200_000),
    "complete with aside": dict(aside=(5_000, 24, 30_000), max_nodes=300_000),
    "abstract": dict(low=(2, 2, 2, 2), max_nodes=300_000),
    "abstract best-first": dict(low=(3, 3, 3, 3), weight=24, max_nodes=200_000),
}
FLOWER_CORE_SEEDS = (1, 4, 6, 12, 17)
CRUEL_CORE = {
    "complete": dict(max_nodes=100_000),
    "greedy": dict(greedy=True, max_nodes=100_000),
    "unpruned": dict(prune=False, max_nodes=50_000),
}
CRUEL_CORE_SEEDS = (1, 5, 123)


def cases():
    for seed, n in FLOWER_SOLVE:
        yield f"solve flower {seed} {n}", lambda seed=seed, n=n: _solve_case("flower", seed, n)
    for seed, n in CRUEL_SOLVE:
        yield f"solve cruel {seed} {n}", lambda seed=seed, n=n: _solve_case("cruel", seed, n)
    for name, options in FLOWER_CORE.items():
        for seed in FLOWER_CORE_SEEDS:
            yield f"flower core {name} {seed}", lambda o=options, s=seed: _core_case(flower_core, "flower", s, o)
    for seed in (1, 12, 351):
        yield f"flower guided {seed}", lambda s=seed: _guided(s)
    for name, options in CRUEL_CORE.items():
        for seed in CRUEL_CORE_SEEDS:
            yield f"cruel core {name} {seed}", lambda o=options, s=seed: _core_case(cruel_core, "cruel", s, o)


CASES = dict(cases())


@pytest.mark.parametrize("name", list(CASES))
def test_the_searches_expand_the_recorded_nodes(name):
    recorded = json.loads(RECORD.read_text())
    assert name in recorded, f"{name} is not recorded: run this file with --record"
    assert json.loads(json.dumps(CASES[name]())) == recorded[name]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    figures = {}
    for name, case in CASES.items():
        figures[name] = case()
        print(name, figures[name], flush=True)
    RECORD.write_text(json.dumps(figures, indent=1) + "\n")
