"""The stalled check in C agrees with the plain Python search over the same
space, decides the positions along real winning lines, and never answers
"stalled" on a budget that ran out."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_searches import py_stall_check
from test_solver import FLOWER_DEAD, random_small_cruel, random_small_flower

import solitaire
from solitaire import parse_position, solve
from solitaire.solver import _cruel_c, _flower_c
from solitaire.solver._stall import Stall, is_stalled, stall_check

SMALL = {"cruel": random_small_cruel, "flower": random_small_flower}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["cruel", "flower"]), st.integers(0, 2**32), st.integers(4, 22))
def test_the_c_search_gives_the_python_searchs_verdict(game, seed, cards_left):
    position = SMALL[game](random.Random(seed), cards_left)
    expected = py_stall_check(position, max_nodes=200_000)
    verdict, states = stall_check(position)
    assert verdict is expected
    assert is_stalled(position) is (expected is Stall.STALLED)


def test_random_positions_give_both_verdicts():
    """The comparison above is not vacuous: both answers occur."""
    seen = set()
    for seed in range(200):
        rng = random.Random(seed)
        for game in SMALL:
            seen.add(stall_check(SMALL[game](rng, rng.randint(6, 20)))[0])
    assert seen == {Stall.STALLED, Stall.NOT_STALLED}


@pytest.mark.parametrize("game,seed", [("flower", 3), ("flower", 4), ("cruel", 1)])
def test_positions_along_a_winning_line_are_never_stalled_and_mostly_decided(game, seed):
    """Never "stalled" (a truth: the line goes on to win); decided within the
    service's budget for nearly all of them. The line depends on which of the
    solver's searches wins first, so a few positions may cost more."""
    position = solitaire.deal(game, seed)
    result = solve(position, max_seconds=10)
    assert result.moves
    verdicts = []
    for move in result.moves:
        position = position.apply(move)
        verdict, states = stall_check(position, max_nodes=20_000)
        assert verdict is not Stall.STALLED, (position.notation(), states)
        verdicts.append(verdict)
    assert verdicts.count(Stall.NOT_STALLED) >= 0.9 * len(verdicts)


def test_a_budget_that_runs_out_is_unknown_never_stalled():
    dead = parse_position(FLOWER_DEAD)
    assert stall_check(dead) == (Stall.STALLED, 1)
    assert stall_check(dead, max_nodes=0)[0] is Stall.UNKNOWN
    assert not is_stalled(dead, max_nodes=0)
    # A stalled space of more than one layout: the cut gives unknown.
    rng = random.Random(0)
    for _ in range(2000):
        pos = SMALL[rng.choice(sorted(SMALL))](rng, rng.randint(8, 22))
        verdict, states = stall_check(pos)
        if verdict is Stall.STALLED and states > 1:
            assert stall_check(pos, max_nodes=states - 1)[0] is Stall.UNKNOWN
            break
    else:
        pytest.fail("no stalled position with a space of several layouts")


def test_a_won_position_is_not_stalled():
    assert stall_check(parse_position("flower -/-/-/-/-/- -"))[0] is Stall.NOT_STALLED
    assert stall_check(parse_position("cruel -/-/-/-/-/-/-/-/-/-/-/-"))[0] is Stall.NOT_STALLED


@pytest.mark.parametrize("stalled, args", [
    (_flower_c.stalled, ([()] * 5, (), (0, 0, 0, 0))),
    (_flower_c.stalled, ([(1,), (1,), (), (), (), ()], (), (0, 0, 0, 0))),
    (_flower_c.stalled, ([(60,), (), (), (), (), ()], (), (0, 0, 0, 0))),
    (_cruel_c.stalled, ([()] * 11, (1, 1, 1, 1))),
    (_cruel_c.stalled, ([()] * 12, (13, 13, 14, 13))),
])
def test_bad_input_is_a_value_error(stalled, args):
    with pytest.raises(ValueError):
        stalled(*args)
