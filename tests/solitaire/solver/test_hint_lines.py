"""Hints that lead to a win (solitaire.solver.hint): a hint is the next move
of one loop-free winning line, and asking again with the rest of that line
continues it, so hints followed win and never come back to a position."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from walks import walk

import solitaire
from solitaire.solver import SolveStatus, hint
from solitaire.solver.search import without_loops


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(game=st.sampled_from(["cruel", "flower"]), seed=st.integers(0, 2**40),
       picks=st.lists(st.integers(0, 50), max_size=12))
def test_following_hints_from_a_winnable_position_wins_and_never_comes_back(game, seed, picks):
    position = walk(game, seed, picks)
    first = hint(position, max_seconds=1)
    assume(first.status is SolveStatus.SOLVED)
    seen = {position.notation()}
    rest = first.moves
    for _ in range(len(first.moves)):
        # The rest of the line is the answer: no search (a search could not
        # run on one node), and the hint is its first move.
        answer = hint(position, line=rest, max_nodes=1)
        assert answer.status is SolveStatus.SOLVED and answer.moves == rest and answer.nodes == 0
        position = position.apply(answer.moves[0])
        assert position.notation() not in seen, "a hint went back to a position it left"
        seen.add(position.notation())
        rest = answer.moves[1:]
    assert position.is_won()


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["cruel", "flower"]), seed=st.integers(0, 2**40),
       picks=st.lists(st.integers(0, 50), max_size=40))
def test_a_line_without_loops_visits_each_position_once_and_ends_where_it_ended(game, seed, picks):
    start = solitaire.deal(game, seed=seed)
    moves, position = [], start
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        moves.append(legal[pick % len(legal)])
        position = position.apply(moves[-1])
    cut = without_loops(start, moves)
    along = [start]
    for move in cut:
        along.append(along[-1].apply(move))
    assert along[-1] == position
    assert len({p.notation() for p in along}) == len(along)


def _shuttle(start: solitaire.Position):
    """A move from ``start`` and the move that takes it back (a card to and
    fro between two columns: the shuttle hints once offered for ever,
    3S>3 then 3S>2), or None."""
    for there in start.legal_moves():
        after = start.apply(there)
        for back in after.legal_moves():
            if after.apply(back) == start:
                return there, back
    return None


def test_a_shuttle_is_cut_out_of_a_line_and_a_line_that_loops_is_not_followed():
    # The first position along a winning line of deal 4 where a shuttle is possible.
    start = solitaire.deal("flower", seed=4)
    line = hint(start, max_seconds=5).moves
    for move in line:
        if _shuttle(start):
            break
        start = start.apply(move)
    shuttle = _shuttle(start)
    assert shuttle is not None
    result = hint(start, max_seconds=5)
    assert result.status is SolveStatus.SOLVED
    looped = (*shuttle, *result.moves)
    assert without_loops(start, looped) == result.moves
    # A line that comes back is not followed as given: a search answers.
    again = hint(start, line=looped, max_seconds=5)
    assert again.status is SolveStatus.SOLVED and again.moves != looped and again.nodes > 0
    assert start.play(again.moves).is_won()


def test_a_line_that_does_not_win_from_here_is_not_followed():
    start = solitaire.parse_position("cruel TSJS/KSQS/-/-/-/-/-/-/-/-/-/-")
    assert hint(start, line=("JS>2", "TS>F", "JS>F", "QS>F", "KS>F")).nodes == 0
    for wrong in (("JS>2", "TS>F"), ("KS>F",), ("nonsense",)):
        answer = hint(start, line=wrong, max_nodes=10_000)
        assert answer.status is SolveStatus.SOLVED and answer.nodes > 0
        assert start.play(answer.moves).is_won()
