"""The Flower Garden C core (``_flower_c``): the same verdicts as the Python
search and an unpruned brute force, replaying certificates, honoured budgets,
and bad input refused without a crash."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from reference_searches import PyFlowerSearch
from test_solver import brute_force_winnable, highest_cards, random_small_flower

import solitaire
from solitaire import FlowerPosition, SolveStatus, solve
from solitaire.moves import MOVES
from solitaire.solver import _flower_c
from solitaire.solver._budget import BudgetSpent, Meter
from solitaire.solver._flower import CFlowerSearch
from solitaire.solver.settings import BLOCKED, FLOWER, StepAside


def run(cls, pos, *, greedy=False, prune=True, **budget):
    search = cls(pos, Meter(**budget), prune=prune, greedy=greedy)
    won = search.run()
    if won:
        assert pos.play(search.path).is_won(), pos.notation()
    return won, search


def test_c_and_python_searches_agree_on_many_small_positions():
    for seed in range(400):
        rng = random.Random(5000 + seed)
        pos = random_small_flower(rng, rng.randint(4, 14))
        py, _ = run(PyFlowerSearch, pos)
        c, _ = run(CFlowerSearch, pos)
        assert c == py, pos.notation()
        # the incomplete phase may fail, but never claims a false win
        run(CFlowerSearch, pos, greedy=True)


@pytest.mark.parametrize("prune", [True, False])
def test_c_verdicts_match_the_unpruned_brute_force(prune):
    for seed in range(120):
        rng = random.Random(7000 + seed)
        pos = random_small_flower(rng, rng.randint(4, 9))
        c, _ = run(CFlowerSearch, pos, prune=prune)
        assert c == brute_force_winnable(pos), pos.notation()


def test_a_search_called_off_through_its_stop_byte_says_so():
    pos = solitaire.deal("flower", 1)
    for greedy in (False, True):
        search = CFlowerSearch(pos, Meter(max_seconds=30), greedy=greedy, stop=bytearray(b"\x01"))
        with pytest.raises(BudgetSpent) as e:
            search.run()
        assert e.value.which == "stopped"
        assert search.meter.nodes <= 1024  # it looks at the byte with the clock
    with pytest.raises(ValueError):
        _flower_c.search([()] * 6, (), (13, 13, 13, 13), run="complete", stop=bytearray())


@pytest.mark.parametrize("seed, status", [(144, SolveStatus.SOLVED), (0, SolveStatus.UNSOLVABLE)])
def test_with_a_time_budget_the_phases_run_side_by_side_and_the_first_answer_ends_both(seed, status):
    # Deal 144 is won by phase 1's first run in a few thousand nodes and deal 0
    # proven lost by phase 2 in a few thousand: the other phase, called off,
    # adds at most a few thousand nodes more instead of running its 30 s.
    pos = solitaire.deal("flower", seed)
    result = solve(pos, max_seconds=30)
    assert result.status is status
    assert result.nodes < 200_000
    if status is SolveStatus.SOLVED:
        assert pos.play(result.moves).is_won()


def test_side_by_side_the_node_budget_is_shared_between_the_phases():
    result = solve(solitaire.deal("flower", 1), max_nodes=100_000, max_seconds=60)
    assert result.status is SolveStatus.LIMIT_REACHED and result.limit == "nodes"
    assert 90_000 <= result.nodes <= 100_002  # half each, and one node over to notice


def test_a_won_line_comes_back_without_its_detours():
    # The complete (unordered) search wins deal 359 after 952,437 states on a
    # depth-first line of 658,359 moves; the C core's shortcut pass returns a
    # line of about a thousand that never comes back to a position.
    pos = solitaire.deal("flower", 359)
    search = CFlowerSearch(pos, Meter(max_nodes=3_000_000), replace(FLOWER, abstract_share=0))  # the real game's alone
    won = search.run()
    assert won and len(search.path) < 2_000
    keys = []
    for move in search.path:
        pos = pos.apply(move)
        keys.append(pos.key())
    assert len(set(keys)) == len(keys)


def test_budgets_are_honoured_and_named():
    pos = solitaire.deal("flower", 1)
    with pytest.raises(BudgetSpent) as e:
        run(CFlowerSearch, pos, max_nodes=50)
    assert e.value.which == "nodes"
    search = CFlowerSearch(pos, Meter(max_states=100))
    with pytest.raises(BudgetSpent) as e:
        search.run()
    assert e.value.which == "states" and search.states <= 101
    for greedy in (False, True):
        search = CFlowerSearch(pos, Meter(max_seconds=0.2), greedy=greedy)
        with pytest.raises(BudgetSpent) as e:
            search.run()
        assert e.value.which == "seconds"
        assert 0.2 <= search.meter.elapsed() < 0.2 + 1.0  # as the meter reports it


def test_a_states_budget_through_solve_is_never_a_verdict():
    result = solve(solitaire.deal("flower", 1), max_states=1000)
    assert result.status is SolveStatus.LIMIT_REACHED and result.limit == "states"


@pytest.mark.parametrize("args", [
    ([(0, 0)] + [()] * 5, (), (0, 0, 0, 0)),  # a card twice
    ([(60,)] + [()] * 5, (), (0, 0, 0, 0)),  # not a card
    ([()] * 5, (), (0, 0, 0, 0)),  # five columns
    ([()] * 6, (), (0, 0, 0)),  # three foundations
    ([()] * 6, (), (13, 13, 13, 12)),  # a card missing
    ([()] * 6, (), (13, 13, 13, 14)),  # a foundation too high
    ([("x",)] + [()] * 5, (), (0, 0, 0, 0)),  # not an int
    (None, (), (0, 0, 0, 0)),
])
def test_bad_input_is_refused_not_crashed(args):
    with pytest.raises((ValueError, TypeError)):
        _flower_c.search(*args, run="complete")


# -- rule 6: abstract games ---------------------------------------------------

def brute_force_reaches_goal(position, low) -> bool:
    """The abstract game's goal searched in the real game, with nothing
    merged: can some suit with high cards get its low cards all home (or
    every card, when no suit has high cards)?"""
    def goal(pos):
        return pos.is_won() or any(b < 13 and f >= b for f, b in zip(pos.foundations, low))

    return brute_force_winnable(position, goal=goal)


def abstract_verdict(pos, low):
    search = CFlowerSearch(pos, Meter())
    return search._search(search.meter, tuple(low))


def test_the_abstract_game_reaches_its_goal_exactly_when_the_real_game_does():
    # Merging positions that differ only by the suits of high cards of one
    # rank must not change whether G can be reached: checked against the
    # real game with every position kept apart.
    merged = 0
    for seed in range(200):
        rng = random.Random(9000 + seed)
        pos = random_small_flower(rng, rng.randint(4, 10))
        low = [13 if f == 13 else rng.randint(f + 1, 13) for f in pos.foundations]
        assert abstract_verdict(pos, low) == brute_force_reaches_goal(pos, low), (pos.notation(), low)
        cards = [c for col in pos.columns for c in col] + list(pos.bouquet)
        high_ranks = [c % 13 for c in cards if c % 13 >= low[c // 13]]
        merged += len(high_ranks) != len(set(high_ranks))
    assert merged >= 40  # positions with alike high cards, where keys merge


def crowded_small_flower(rng: random.Random, cards_left: int) -> FlowerPosition:
    """The highest cards_left cards of random suits in six occupied columns
    and no bouquet: lost now and then (random_small_flower's almost never)."""
    cards = highest_cards(rng, cards_left)
    columns = [[c] for c in cards[:6]]
    for c in cards[6:]:
        columns[rng.randrange(6)].append(c)
    return FlowerPosition(tuple(map(tuple, columns)), ())


def test_a_proof_in_an_abstract_game_is_a_proof():
    # Wherever abstract games prove a position lost, the brute force finds
    # no win either; a win they reach is real; and here they prove every
    # lost position (17 of 400, by the real game's search) lost.
    proofs = 0
    for seed in range(400):
        rng = random.Random(11000 + seed)
        pos = crowded_small_flower(rng, rng.randint(18, 24))
        search = CFlowerSearch(pos, Meter())
        verdict = search._abstract_proof()
        if verdict is True:
            assert pos.play(search.path).is_won()
        if verdict is False:
            proofs += 1
            assert not brute_force_winnable(pos), pos.notation()
        else:
            assert search._search(Meter(), None), pos.notation()
    assert proofs >= 15


def test_abstract_games_never_prove_a_solved_deal_lost():
    for seed in (1, 2, 3, 4, 7, 8, 10, 11, 13, 14, 15):
        pos = solitaire.deal("flower", seed)
        search = CFlowerSearch(pos, Meter(max_nodes=300_000))
        assert search._abstract_proof() is not False, seed


def crowded_case(seed: int):
    """A crowded small position with random bounds, as the C core takes
    it (columns, bouquet, foundations), and the random source for more."""
    rng = random.Random(seed)
    pos = crowded_small_flower(rng, rng.randint(14, 20))
    low = tuple(13 if f == 13 else rng.randint(f + 1, 13) for f in pos.foundations)
    return rng, pos, low, ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations))


def test_a_guide_orders_moves_and_changes_no_verdict():
    # The guide (the refinement's last line) only decides which move comes
    # first: the verdict is the same with any guide, a fitting one or
    # nonsense, and a proof still expands every state.
    followed = 0
    for seed in range(150):
        rng, pos, low, layout = crowded_case(13000 + seed)
        plain = _flower_c.search(*layout, run="complete", low=low)
        won = _flower_c.search(*layout, run="complete")
        nonsense = [(rng.randrange(52), rng.randrange(-1, 6)) for _ in range(30)]
        for guide in (won[4], nonsense, [(99, 0)]):
            for bounds in (low, None):
                guided = _flower_c.search(*layout, run="complete", low=bounds, guide=guide)
                unguided = plain if bounds else won
                assert guided[0] == unguided[0], (pos.notation(), low, guide)
                if guided[0] == 0:
                    assert guided[3] == unguided[3]  # the same states exhausted
        if won[0] == 1:
            again = _flower_c.search(*layout, run="complete", guide=won[4])
            followed += again[2] <= len(won[4]) + 1  # straight down the guide
    assert followed >= 50
    for bad in ([7], [(1, 2, 3)], 5, [("a", 0)]):
        with pytest.raises(TypeError):
            _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), run="complete", guide=bad)


def test_a_step_aside_changes_no_verdict():
    # The complete search's step aside (a best-first run once it has stored
    # some states) can win, never prove: the verdict is the one without it,
    # a proof still exhausts the same states, and a win is a real line to
    # the goal (or to 52 home).
    stepped = 0
    for seed in range(300):
        rng = random.Random(16000 + seed)
        pos = crowded_small_flower(rng, rng.randint(18, 26))
        low = tuple(13 if f == 13 else rng.randint(f + 1, 13) for f in pos.foundations)
        args = ([tuple(c) for c in pos.columns], (), tuple(pos.foundations))
        for bounds in (low, None):
            plain = _flower_c.search(*args, run="complete", low=bounds)
            aside = _flower_c.search(*args, run="complete", low=bounds, aside=StepAside(3, 24, BLOCKED, 5))
            assert aside[0] == plain[0], (pos.notation(), bounds)
            if aside[0] == 0:
                assert aside[3] == plain[3]
                stepped += aside[2] > plain[2]  # the run's expansions on top
            elif aside[0] == 1:
                assert aside[1] in (None, "aside")  # which run won
                end = pos.play([MOVES[c][t + 1] for c, t in aside[4]])
                assert end.is_won() or any(b < 13 and f >= b for f, b in zip(end.foundations, bounds or ()))
    assert stepped >= 20
    layout = ([(51,)] + [()] * 5, (), (13, 13, 13, 12))
    for bad in (StepAside(0, 24, BLOCKED, 10), StepAside(10, 0, BLOCKED, 10), StepAside(10, 24, -1, 10)):
        with pytest.raises(ValueError):
            _flower_c.search(*layout, run="complete", aside=bad)
    with pytest.raises(AttributeError):  # not a StepAside
        _flower_c.search(*layout, run="complete", aside=(10, 24, 10))
    with pytest.raises(ValueError):  # the complete search only
        _flower_c.search(*layout, run="best-first", depth_weight=24, aside=StepAside(10, 24, BLOCKED, 10))


def test_a_step_aside_costs_a_proof_only_the_runs_expansions():
    # Deal 362's last step, (1, 5, 6, 9), is proven out of reach in about
    # 4.4 million states. Stepping aside at 1 million for a best-first run
    # of 2 million expansions, the complete search goes on where it was:
    # the same states, and no more nodes than both runs'.
    pos = solitaire.deal("flower", 362)
    layout = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations))
    plain = _flower_c.search(*layout, run="complete", low=(1, 5, 6, 9))
    aside = _flower_c.search(*layout, run="complete", low=(1, 5, 6, 9), aside=StepAside(1_000_000, 24, BLOCKED, 2_000_000))
    assert plain[0] == aside[0] == 0
    assert aside[3] == plain[3] > 4_000_000
    assert plain[2] < aside[2] <= plain[2] + 2_000_000


def test_an_abstract_best_first_run_reaches_the_goal_or_proves_nothing():
    # A best-first run in an abstract game stops at G, on a real line: its
    # end has some suit with high cards all low cards home. Giving up (0)
    # is no verdict; where the brute force finds G out of reach it never
    # claims to reach it.
    reached = 0
    for seed in range(150):
        _, pos, low, layout = crowded_case(15000 + seed)
        status, _, _, _, line = _flower_c.search(*layout, run="best-first", depth_weight=24, blocked_weight=BLOCKED, low=low)
        if status == 1:
            reached += 1
            end = pos.play([MOVES[c][t + 1] for c, t in line])
            assert end.is_won() or any(b < 13 and f >= b for f, b in zip(end.foundations, low))
        else:
            assert status == 0
        if not brute_force_reaches_goal(pos, low):
            assert status != 1
    assert reached >= 50


def test_abstract_bounds_are_checked():
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), run="complete", low=(13, 13, 13, 12))
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), run="complete", low=(13, 13, 13, 14))
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), run="portfolio", portfolio=FLOWER.portfolio, low=(13, 13, 13, 13))


# -- long lines -----------------------------------------------------------------

# -- phase 2 under a time budget ----------------------------------------------

def test_a_best_first_run_with_a_full_store_drops_its_worst_positions_and_goes_on():
    # Deal 141: one run of depth weight 12 wins it after storing about 155
    # thousand positions. Holding at most 40 thousand at once, it keeps its
    # best open positions and their lines each time the store fills, and
    # still wins, having stored three times what it can hold.
    pos = solitaire.deal("flower", 141)
    layout = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations))
    run12 = dict(run="best-first", depth_weight=12, blocked_weight=BLOCKED, max_nodes=300_000)
    status, _, _, states, moves = _flower_c.search(*layout, **run12, store=40_000)
    assert status == 1 and states > 100_000
    line = [solitaire.Move(card, solitaire.FOUNDATION if t < 0 else t) for card, t in moves]
    assert pos.play(line).is_won()
    status, _, _, states, _ = _flower_c.search(*layout, **run12)  # the default store holds them all
    assert status == 1 and 150_000 < states < 160_000
    for bad in (dict(store=-1), dict(blocked_weight=-2), dict(blocked_weight=5000), dict(store=10**9),
                dict(depth_weight=0), dict(run="nonsense")):
        with pytest.raises(ValueError):
            _flower_c.search(*layout, **{**run12, **bad})


def test_a_best_first_run_that_gives_up_is_never_a_verdict():
    # With no time for the first slice or the abstract games, phase 2's
    # best-first run exhausts small lost positions (it gives up); the
    # verdict is still the real game's complete search's.
    no_proofs = replace(FLOWER, first_slice=0.0, abstract_share=1e-9)

    for seed in range(400):
        rng = random.Random(11000 + seed)
        pos = crowded_small_flower(rng, rng.randint(18, 24))
        search = CFlowerSearch(pos, Meter(max_seconds=30), no_proofs)
        won = search.run()
        if won:
            assert pos.play(search.path).is_won()
        else:
            assert not search._search(Meter(), None)
