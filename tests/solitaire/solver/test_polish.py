"""Certificates players can watch: detours and loops are cut, and every
shortened line still replays through the engine to 52 cards home."""

from __future__ import annotations

import time

import solitaire
from solitaire import Move, parse_position, solve
from solitaire.solver._polish import polish, shortcut


def wins(position, moves) -> bool:
    return position.play(moves).is_won()


def test_a_loop_in_the_line_is_cut():
    start = parse_position("flower KS/-/-/-/-/- QHKH")
    # QH wanders KS -> empty column 3 -> empty column 2, then everything goes home.
    detour = [Move.parse(t) for t in ("QH>1", "QH>3", "QH>2", "QH>F", "KH>F", "KS>F")]
    assert wins(start, detour)
    cut = shortcut(start, detour, deadline=time.perf_counter() + 5)
    assert wins(start, cut) and len(cut) < len(detour)
    assert [m.token() for m in cut] == ["QH>F", "KH>F", "KS>F"]


def test_a_detour_through_permuted_columns_is_cut_and_relabelled():
    start = parse_position("flower QSKS/-/-/-/-/- -")
    # KS goes to column 2, QS home, KS home: but first a pointless trip of KS
    # through column 3 and back to the same shape in another column.
    line = [Move.parse(t) for t in ("KS>3", "KS>2", "QS>F", "KS>F")]
    assert wins(start, line)
    cut = polish(start, line)
    assert wins(start, cut) and len(cut) == 3


def test_polish_keeps_a_line_that_cannot_be_shortened():
    start = parse_position("cruel KS/-/-/-/-/-/-/-/-/-/-/-")
    assert polish(start, [Move.parse("KS>F")]) == (Move.parse("KS>F"),)


def test_solutions_found_by_the_solver_are_shortened_and_replay():
    # the deals of seeds 0..5 won within 200,000 nodes
    for game, seeds in (("cruel", (0, 1, 2, 3, 5)), ("flower", (2,))):
        for seed in seeds:
            position = solitaire.deal(game, seed)
            raw = solve(position, max_nodes=200_000, shorten=False)
            assert raw.status is solitaire.SolveStatus.SOLVED, (game, seed)
            cut = polish(position, raw.moves)
            assert wins(position, cut)
            assert len(cut) <= len(raw.moves)
