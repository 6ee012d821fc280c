"""Difficulty as a player reads it: a word on a four-step scale, from where a
deal's solver figure (``SolveResult.difficulty``, 0-10) falls among a large
sample of solvable deals of its game.

The sample's percentiles are computed once by ``manage.py difficulty_scale``
and committed as ``difficulty_scale.json`` next to this file; they change
only when the solver's figure does (a new solver version)."""

from __future__ import annotations

import bisect
import json
from functools import lru_cache
from pathlib import Path

SCALE_FILE = Path(__file__).with_name("difficulty_scale.json")

# The levels, easiest first, and the percentile each starts at.
LEVELS = (("easy", 0), ("medium", 30), ("hard", 70), ("very_hard", 90))


@lru_cache(maxsize=1)
def scale() -> dict:
    """{"games": {game: {"sample": n, "percentiles": [p0, p1, ..., p100]}}, ...}."""
    return json.loads(SCALE_FILE.read_text(encoding="utf-8"))


def percentile(game: str, figure: float) -> int | None:
    """The share (0-100) of the sample's deals of ``game`` easier than ``figure``."""
    table = scale()["games"].get(game)
    if table is None or figure is None:
        return None
    cuts = table["percentiles"]
    # cuts[i] is the i-th percentile: above cuts[k] and up to cuts[k + 1] is k.
    return min(100, max(0, bisect.bisect_left(cuts, float(figure)) - 1))


def difficulty_level(game: str, figure: float | None) -> dict | None:
    """{"level": "easy"|"medium"|"hard"|"very_hard", "step": 1-4, "of": 4,
    "percentile": 0-100} for a deal's solver figure, or None without one."""
    share = percentile(game, figure) if figure is not None else None
    if share is None:
        return None
    step = max(i for i, (_, start) in enumerate(LEVELS) if share >= start)
    return {"level": LEVELS[step][0], "step": step + 1, "of": len(LEVELS), "percentile": share}


def percentiles_of(figures: list[float]) -> list[float]:
    """The 0th to 100th percentiles of a sample (nearest rank), 101 values."""
    ordered = sorted(figures)
    if not ordered:
        raise ValueError("an empty sample has no percentiles")
    last = len(ordered) - 1
    return [ordered[round(p * last / 100)] for p in range(101)]
