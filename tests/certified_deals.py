"""Deals with certificates for the API and page tests: found by the solver
here, not written down, and stored as the verified deal of a day."""

from __future__ import annotations

import datetime as dt
import fcntl
import functools
import hashlib
import json
import os
from pathlib import Path

import solitaire
from api.deals.models import DailyDeal
from solitaire.solver import SolveStatus, solve


@functools.cache
def certified(game: str, *, with_redeal: bool = False) -> tuple[str, str]:
    """(position, certificate) of the first seeded deal of the game the solver
    solves quickly. with_redeal: for Cruel, the first whose solution redeals
    (so that a win through the page uses the Redeal button too), if any of
    the first seeds has one."""
    fallback = None
    for seed in range(1, 400):
        position = solitaire.deal(game, seed=seed)
        result = solve(position, max_nodes=20_000, max_seconds=2)
        if result.status is SolveStatus.SOLVED:
            found = position.notation(), " ".join(m.token() for m in result.moves)
            if not with_redeal or game != "cruel" or "R" in found[1].split():
                return found
            fallback = fallback or found
    if fallback:
        return fallback
    raise AssertionError(f"no quickly solvable {game} deal among the first seeds")


def deal_create(game: str, date: dt.date, *, position: str | None = None,
                certificate: str | None = None) -> DailyDeal:
    """The day's deal: verified with the given certificate (by default the
    game's certified deal), pending without one."""
    if position is None:
        position, certificate = certified(game)
    return DailyDeal.objects.create(
        game=game, date=date, seed=0, position=position, certificate=certificate or "",
        state=DailyDeal.State.VERIFIED if certificate else DailyDeal.State.PENDING,
        solution_length=len((certificate or "").split()) or None,
        redeals=(certificate or "").split().count("R"),
        difficulty=1.0,
    )


def shared_by_the_run(name: str, compute):
    """compute() (a JSON value) once for all the pytest processes of one
    scripts/test run, which names a directory for them in TEST_SHARED_DIR:
    the first to ask computes it while the others wait, then they read it.
    Without TEST_SHARED_DIR, computed here."""
    directory = os.environ.get("TEST_SHARED_DIR")
    if not directory:
        return compute()
    path = Path(directory) / f"{name}.json"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_text(json.dumps(compute()))
        return json.loads(path.read_text())


@functools.cache
def known_loss(position: str, certificate: str) -> tuple[list[str], int]:
    """(line, k): the solution followed for k - 1 moves, then a move the
    solver proves loses the win (move k), then up to three legal moves more.
    Seconds of solving: found once a run (shared_by_the_run)."""
    key = hashlib.sha256(f"{position}|{certificate}".encode()).hexdigest()[:16]
    line, k = shared_by_the_run(f"known-loss-{key}", lambda: _known_loss(position, certificate))
    return line, k


def _known_loss(position: str, certificate: str) -> tuple[list[str], int]:
    solution = certificate.split()
    before = solitaire.parse_position(position)
    for k, token in enumerate(solution, start=1):
        for move in before.legal_moves():
            if move.token() == token:
                continue
            after = before.apply(move)
            if solve(after, max_seconds=30).status is SolveStatus.UNSOLVABLE:
                line = [*solution[:k - 1], move.token()]
                for _ in range(3):
                    legal = after.legal_moves()
                    if not legal:
                        break
                    after = after.apply(legal[0])
                    line.append(legal[0].token())
                return line, k
        before = before.apply(solitaire.Move.parse(token))
    raise AssertionError("no losing move found along the solution")
