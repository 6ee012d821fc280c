"""The Flower Garden C core (``_flower_c``): the same verdicts as the Python
search and an unpruned brute force, replaying certificates, honoured budgets,
and bad input refused without a crash."""

from __future__ import annotations

import random

import pytest
from test_solver import brute_force_winnable, highest_cards, random_small_flower

import solitaire
from solitaire import FlowerPosition, SolveStatus, solve
from solitaire.moves import MOVES
from solitaire.solver import _flower_c
from solitaire.solver._budget import Budget, BudgetSpent
from solitaire.solver._flower import CFlowerSearch, PyFlowerSearch


def run(cls, pos, *, greedy=False, prune=True, **budget):
    search = cls(pos, Budget(**budget), prune=prune)
    search.greedy = greedy
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


def test_solved_deals_replay_and_are_watchable():
    for seed in (2, 8, 10):
        pos = solitaire.deal("flower", seed)
        result = solve(pos, max_seconds=5)
        assert result.status is SolveStatus.SOLVED
        assert pos.play(result.moves).is_won()
        assert len(result.moves) < 400


@pytest.mark.parametrize("seed", [66, 141])
def test_the_greedy_portfolio_solves_deals_one_best_first_run_left_open(seed):
    # Both deals were undecided after 2 s (over a million nodes) when phase 1
    # was one best-first run (depth weight 6) and phase 2 an ordered
    # depth-first search; the portfolio's runs with other depth weights
    # solve them within 300,000 nodes, half of them phase 1's (a node budget
    # keeps this exact).
    pos = solitaire.deal("flower", seed)
    result = solve(pos, max_nodes=300_000)
    assert result.status is SolveStatus.SOLVED
    assert pos.play(result.moves).is_won()


def test_a_search_called_off_through_its_stop_byte_says_so():
    pos = solitaire.deal("flower", 1)
    for greedy in (False, True):
        search = CFlowerSearch(pos, Budget(max_seconds=30))
        search.greedy = greedy
        search.stop = bytearray(b"\x01")
        with pytest.raises(BudgetSpent) as e:
            search.run()
        assert e.value.which == "stopped"
        assert search.budget.nodes <= 1024  # it looks at the byte with the clock
    with pytest.raises(ValueError):
        _flower_c.search([()] * 6, (), (13, 13, 13, 13), False, True, None, None, None, bytearray())


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
    search = CFlowerSearch(pos, Budget(max_nodes=3_000_000))
    search.ABSTRACT_SHARE = 0  # the real game's search alone
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
    search = CFlowerSearch(pos, Budget(max_states=100))
    with pytest.raises(BudgetSpent) as e:
        search.run()
    assert e.value.which == "states" and len(search.seen) <= 101
    for greedy in (False, True):
        search = CFlowerSearch(pos, Budget(max_seconds=0.2))
        search.greedy = greedy
        with pytest.raises(BudgetSpent) as e:
            search.run()
        assert e.value.which == "seconds"
        assert search.budget.elapsed() < 1.0


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
        _flower_c.search(*args, False, True, None, None, None)


# -- rule 6: abstract games ---------------------------------------------------

def brute_force_reaches_goal(position, low) -> bool:
    """The abstract game's goal searched in the real game, with nothing
    merged: can some suit with high cards get its low cards all home (or
    every card, when no suit has high cards)?"""
    def goal(pos):
        return pos.is_won() or any(b < 13 and f >= b for f, b in zip(pos.foundations, low))

    return brute_force_winnable(position, goal=goal)


def abstract_verdict(pos, low):
    search = CFlowerSearch(pos, Budget())
    return search._search(search.budget, tuple(low))


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
        search = CFlowerSearch(pos, Budget())
        verdict = search._abstract_proof()
        if verdict is True:
            assert pos.play(search.path).is_won()
        if verdict is False:
            proofs += 1
            assert not brute_force_winnable(pos), pos.notation()
        else:
            assert search._search(Budget(), None), pos.notation()
    assert proofs >= 15


def test_an_abstract_game_proves_a_deal_lost_that_the_real_search_cannot_in_a_million_nodes():
    # Deal 12: the real game's complete search exhausts 9.2 million states;
    # with hearts' (say) bounds raised step by step, an abstract game proves
    # the goal out of reach after about 36 thousand states in all.
    pos = solitaire.deal("flower", 12)
    plain = CFlowerSearch(pos, Budget(max_nodes=1_000_000))
    plain.ABSTRACT_SHARE = 0
    with pytest.raises(BudgetSpent):
        plain.run()
    result = solve(pos, max_nodes=400_000)
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.nodes < 300_000


def test_abstract_games_never_prove_a_solved_deal_lost():
    for seed in (1, 2, 3, 4, 7, 8, 10, 11, 13, 14, 15):
        pos = solitaire.deal("flower", seed)
        search = CFlowerSearch(pos, Budget(max_nodes=300_000))
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
        args = (*layout, False, True, None, None, None)
        plain = _flower_c.search(*args, None, low)
        won = _flower_c.search(*args, None, None)
        nonsense = [(rng.randrange(52), rng.randrange(-1, 6)) for _ in range(30)]
        for guide in (won[4], nonsense, [(99, 0)]):
            for bounds in (low, None):
                guided = _flower_c.search(*args, None, bounds, -1, -1, 0, guide)
                unguided = plain if bounds else won
                assert guided[0] == unguided[0], (pos.notation(), low, guide)
                if guided[0] == 0:
                    assert guided[3] == unguided[3]  # the same states exhausted
        if won[0] == 1:
            again = _flower_c.search(*args, None, None, -1, -1, 0, won[4])
            followed += again[2] <= len(won[4]) + 1  # straight down the guide
    assert followed >= 50
    for bad in ([7], [(1, 2, 3)], 5, [("a", 0)]):
        with pytest.raises(TypeError):
            _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), False, True, None, None, None, None, None, -1, -1, 0, bad)


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
        args = ([tuple(c) for c in pos.columns], (), tuple(pos.foundations), False, True, None, None, None)
        for bounds in (low, None):
            plain = _flower_c.search(*args, None, bounds)
            aside = _flower_c.search(*args, None, bounds, -1, -1, 0, None, (3, 24, 5))
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
    for bad in ((0, 24, 10), (10, 0, 10), (10, 24), "x"):
        with pytest.raises(ValueError):
            _flower_c.search(*layout, False, True, None, None, None, None, None, -1, -1, 0, None, bad)
    with pytest.raises(ValueError):  # the complete search only
        _flower_c.search(*layout, True, True, None, None, None, None, None, 24, -1, 0, None, (10, 24, 10))


def test_a_step_aside_costs_a_proof_only_the_runs_expansions():
    # Deal 362's last step, (1, 5, 6, 9), is proven out of reach in about
    # 4.4 million states. Stepping aside at 1 million for a best-first run
    # of 2 million expansions, the complete search goes on where it was:
    # the same states, and no more nodes than both runs'.
    pos = solitaire.deal("flower", 362)
    layout = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations))
    args = (*layout, False, True, None, None, None, None, (1, 5, 6, 9))
    plain = _flower_c.search(*args)
    aside = _flower_c.search(*args, -1, -1, 0, None, (1_000_000, 24, 2_000_000))
    assert plain[0] == aside[0] == 0
    assert aside[3] == plain[3] > 4_000_000
    assert plain[2] < aside[2] <= plain[2] + 2_000_000


def test_a_refinement_step_that_wanders_gets_a_shorter_tail():
    # Deal 679: one step's complete search leaves its guide and reaches the
    # goal over 22 thousand moves later, and the refinement's line (every
    # later step follows it) wins in 23,464 moves. A best-first run from
    # where it left the guide finds a short way to the same goal.
    pos = solitaire.deal("flower", 679)
    lines = {}
    for tail in (CFlowerSearch.LONG_TAIL, 10**9):
        search = CFlowerSearch(pos, Budget(max_nodes=3_000_000))
        search.ABSTRACT_SHARE = 1.0
        search.LONG_TAIL = tail
        assert search._abstract_proof() is True
        assert pos.play(search.path).is_won()
        lines[tail] = search.path
    assert len(lines[10**9]) > 20_000
    assert len(lines[CFlowerSearch.LONG_TAIL]) < 400


def test_the_refinement_follows_its_last_line():
    # Deal 362, proven lost at bounds (1, 5, 6, 9). Unguided, each run
    # before went the same long way round: (1, 5, 6, 6), after (1, 5, 6, 5)
    # reached its goal in 1.1 million states, took 1.3 million again; the
    # proof took 13.6 million in all, 5.5 million with the guide.
    pos = solitaire.deal("flower", 362)
    search = CFlowerSearch(pos, Budget(max_nodes=7_000_000))
    search.ABSTRACT_SHARE = 1.0
    search.STEP_STATES = 12_000_000  # the complete search's steps alone
    assert search._abstract_proof() is False


def test_the_refinement_wins_deals_that_best_first_runs_take_millions_of_positions_over():
    # Deal 351: no best-first run of 6 million positions wins it; following
    # each line, the refinement climbs to the real game, whose guided search
    # wins, within 50 thousand positions. Deal 302, undecided in 10 s before
    # the guide was followed through transpositions: within 820 thousand.
    for seed in (351, 302):
        pos = solitaire.deal("flower", seed)
        search = CFlowerSearch(pos, Budget(max_nodes=1_500_000))
        search.ABSTRACT_SHARE = 1.0
        assert search._abstract_proof() is True
        assert pos.play(search.path).is_won()


def test_an_abstract_best_first_run_reaches_the_goal_or_proves_nothing():
    # A best-first run in an abstract game stops at G, on a real line: its
    # end has some suit with high cards all low cards home. Giving up (0)
    # is no verdict; where the brute force finds G out of reach it never
    # claims to reach it.
    reached = 0
    for seed in range(150):
        _, pos, low, layout = crowded_case(15000 + seed)
        status, _, _, _, line = _flower_c.search(*layout, True, True, None, None, None, None, low, 24, -1)
        if status == 1:
            reached += 1
            end = pos.play([MOVES[c][t + 1] for c, t in line])
            assert end.is_won() or any(b < 13 and f >= b for f, b in zip(end.foundations, low))
        else:
            assert status == 0
        if not brute_force_reaches_goal(pos, low):
            assert status != 1
    assert reached >= 50


def test_a_refinement_step_past_its_states_tries_a_best_first_run():
    # Deal 737: the complete search's steps alone stall (15 million nodes,
    # no win); with the best-first run when a step passes STEP_STATES, the
    # refinement wins the deal within 7.7 million nodes.
    pos = solitaire.deal("flower", 737)
    search = CFlowerSearch(pos, Budget(max_nodes=8_000_000, max_states=12_000_000))
    search.ABSTRACT_SHARE = 1.0
    assert search._abstract_proof() is True
    assert pos.play(search.path).is_won()
    alone = CFlowerSearch(pos, Budget(max_nodes=15_000_000, max_states=12_000_000))
    alone.ABSTRACT_SHARE = 1.0
    alone.STEP_STATES = 12_000_000  # the complete search's steps alone
    assert alone._abstract_proof() is None


def test_abstract_bounds_are_checked():
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), False, True, None, None, None, None, (13, 13, 13, 12))
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), False, True, None, None, None, None, (13, 13, 13, 14))
    with pytest.raises(ValueError):
        _flower_c.search([(51,)] + [()] * 5, (), (13, 13, 13, 12), True, True, None, None, None, None, (13, 13, 13, 13))


# -- long lines -----------------------------------------------------------------

def test_a_long_line_is_cut_where_a_best_first_run_wins():
    # The real game's complete search wins deal 17 on a line of over two
    # thousand moves (its stack, shortened); a best-first run from an early
    # position of that line wins in far fewer. Short lines, and a spent
    # budget, leave the line as it is.
    pos = solitaire.deal("flower", 17)
    layout = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations))
    status, _, _, _, line = _flower_c.search(*layout, False, True, None, None, None)
    assert status == 1
    moves = tuple(MOVES[c][t + 1] for c, t in line)
    assert len(moves) > 2000 and pos.play(moves).is_won()
    cut = CFlowerSearch.cut_long_line(pos, moves, max_seconds=10)
    assert pos.play(cut).is_won()
    assert len(cut) < 200
    short = moves[: CFlowerSearch.LONG_LINE]
    assert CFlowerSearch.cut_long_line(pos, short, max_seconds=10) == short
    assert CFlowerSearch.cut_long_line(pos, moves, max_seconds=0) == moves


def test_solve_gives_short_lines_where_the_search_wandered():
    # Seed 804: the portfolio's depth-first run wins first, in over 8,000
    # moves; what solve returns is under 300.
    pos = solitaire.deal("flower", 804)
    result = solve(pos, max_seconds=10)
    assert result.status is SolveStatus.SOLVED
    assert pos.play(result.moves).is_won()
    assert len(result.moves) < 300


# -- phase 2 under a time budget ----------------------------------------------

def test_phase_2_first_gives_the_real_game_a_short_slice():
    # Deal 8: the real game's complete search wins it in about 100 thousand
    # states (0.1 s), the best-first runs not in 6 s.
    pos = solitaire.deal("flower", 8)
    search = CFlowerSearch(pos, Budget(max_seconds=30))
    assert search.run()
    assert pos.play(search.path).is_won()
    assert search.budget.nodes < 1_000_000


def test_phase_2_best_first_run_wins_what_the_real_game_search_is_slow_on():
    # Deal 30: one best-first run of depth weight 24 wins it in under 100
    # thousand nodes; the real game's complete search has not in 0.6 s.
    pos = solitaire.deal("flower", 30)
    search = CFlowerSearch(pos, Budget(max_seconds=30))
    assert search._search(search.budget, None, weight=24)
    assert pos.play(search.path).is_won()
    search = CFlowerSearch(pos, Budget(max_seconds=10))
    assert search.run() and pos.play(search.path).is_won()


def test_phase_2_best_first_run_keeps_the_plain_evaluation_and_wins_other_deals():
    # Deal 594 stayed undecided in 10 s: phase 1's long run, which weighs
    # the cards on a lower card of their suit, has not won it in 2 million
    # nodes; phase 2's, with the plain evaluation, wins it in 56 thousand.
    pos = solitaire.deal("flower", 594)
    assert CFlowerSearch.HELPERS[-1][:2] == (24, False)
    search = CFlowerSearch(pos, Budget(max_nodes=100_000))
    assert search._search(search.budget, None, 24, blocked=False)
    assert pos.play(search.path).is_won()
    search = CFlowerSearch(pos, Budget(max_nodes=2_000_000))
    with pytest.raises(BudgetSpent):
        search._search(search.budget, None, 24, blocked=True)


def test_a_best_first_run_stores_millions_of_positions_and_its_line_is_found_again():
    # Deal 297 is won by one run of depth weight 12 after storing just over
    # 4 million positions (the cap was once 4 million, and the deal stayed
    # undecided in 10 s); the run keeps no moves, so the winning line is
    # found again between each stored position and its parent.
    pos = solitaire.deal("flower", 297)
    search = CFlowerSearch(pos, Budget(max_nodes=2_500_000))
    assert search._search(search.budget, None, weight=12)
    assert len(search.seen) > 4_000_000
    assert pos.play(search.path).is_won()


def test_a_best_first_run_with_a_full_store_drops_its_worst_positions_and_goes_on():
    # Deal 141: one run of depth weight 12 wins it after storing about 155
    # thousand positions. Holding at most 40 thousand at once, it keeps its
    # best open positions and their lines each time the store fills, and
    # still wins, having stored three times what it can hold.
    pos = solitaire.deal("flower", 141)
    args = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations), True, True,
            300_000, None, None, None, None, 12, -1)
    status, _, _, states, moves = _flower_c.search(*args, 40_000)
    assert status == 1 and states > 100_000
    line = [solitaire.Move(card, solitaire.FOUNDATION if t < 0 else t) for card, t in moves]
    assert pos.play(line).is_won()
    status, _, _, states, _ = _flower_c.search(*args)  # the default store holds them all
    assert status == 1 and 150_000 < states < 160_000
    for bad in ((*args, -1), (*args[:-1], -2), (*args[:-1], 5000), (*args, 10**9)):
        with pytest.raises(ValueError):
            _flower_c.search(*bad)


@pytest.mark.parametrize("seed", [77, 839])
def test_the_long_runs_weigh_cards_lying_on_a_lower_card_of_their_suit(seed):
    # Both deals stayed undecided in 10 s while the best-first runs weighed
    # only the cards on the next card each suit needs; weighing every card
    # that lies on a lower card of its suit, one run of depth weight 12 wins
    # each within 100 thousand nodes.
    pos = solitaire.deal("flower", seed)
    search = CFlowerSearch(pos, Budget(max_nodes=100_000))
    assert search._search(search.budget, None, weight=12)
    assert pos.play(search.path).is_won()


@pytest.mark.parametrize("seed", [35, 803])
def test_phase_2_first_helper_wins_quickly_what_the_weight_24_runs_leave(seed):
    # Both deals were undecided in 10 s with phase 2's weight-24 run alone:
    # neither weight-24 run wins them in 2 million nodes, the short run of
    # weight 12 (weighing the cards on a lower card of their suit) in under
    # 40 thousand, and phase 2 within three million (its helpers get a
    # tenth of them, with the abstract games on 0.8).
    pos = solitaire.deal("flower", seed)
    assert CFlowerSearch.HELPERS[0][:2] == (12, True)
    for blocked in (False, True):
        search = CFlowerSearch(pos, Budget(max_nodes=2_000_000))
        with pytest.raises(BudgetSpent):
            search._search(search.budget, None, 24, blocked)
    search = CFlowerSearch(pos, Budget(max_nodes=40_000))
    assert search._search(search.budget, None, 12, True)
    search = CFlowerSearch(pos, Budget(max_nodes=3_000_000))
    assert search.run() and pos.play(search.path).is_won()


def test_with_nodes_alone_phase_2_runs_its_best_first_run_on_a_share():
    # Deal 594: the best-first run wins it in 56 thousand nodes; with the
    # abstract games on ABSTRACT_SHARE (0.8) of a million, the best-first
    # runs on half the rest, it is won within the budget, by that run.
    pos = solitaire.deal("flower", 594)
    search = CFlowerSearch(pos, Budget(max_nodes=1_000_000))
    assert search.run() and pos.play(search.path).is_won()
    search = CFlowerSearch(pos, Budget(max_nodes=1_000_000))
    search.HELPERS = ()
    with pytest.raises(BudgetSpent):
        search.run()


def test_a_best_first_run_that_gives_up_is_never_a_verdict():
    # With no time for the first slice or the abstract games, phase 2's
    # best-first run exhausts small lost positions (it gives up); the
    # verdict is still the real game's complete search's.
    class NoProofs(CFlowerSearch):
        FIRST_SLICE = 0.0
        ABSTRACT_SHARE = 1e-9

    for seed in range(400):
        rng = random.Random(11000 + seed)
        pos = crowded_small_flower(rng, rng.randint(18, 24))
        search = NoProofs(pos, Budget(max_seconds=30))
        won = search.run()
        if won:
            assert pos.play(search.path).is_won()
        else:
            assert not search._search(Budget(), None)


@pytest.mark.parametrize("seed, weight, within", [(18, 48, 400_000), (161, 64, 300_000), (6, 64, 900_000)])
def test_phase_1_short_runs_of_high_depth_weight_win_what_the_long_run_leaves(seed, weight, within):
    # All three deals stayed undecided in 10 s: the long run of weight 24
    # has not won them in 2.7 million nodes. A run of weight 48 or 64 (cards
    # on a lower card of their suit weighed) wins each within its capped
    # slice of phase 1, which runs before the long run: phase 1 alone on 4.5
    # million nodes, of which the long run would get under 2.7 million
    # (the short slices take an eighth, these two 1.35 million), wins it.
    pos = solitaire.deal("flower", seed)
    search = CFlowerSearch(pos, Budget(max_nodes=2_700_000))
    with pytest.raises(BudgetSpent):
        search._search(search.budget, None, 24, True)
    search = CFlowerSearch(pos, Budget(max_nodes=within))
    assert search._search(search.budget, None, weight, True)
    assert pos.play(search.path).is_won()
    search = CFlowerSearch(pos, Budget(max_nodes=4_500_000))
    search.greedy = True
    assert search.run() and pos.play(search.path).is_won()


def test_phase_1_pauses_its_long_run_for_the_short_ones_and_goes_on_where_it_stopped():
    # Deal 256: the long run (weight 24, blocked cards weighed) wins it after
    # about 1.9 million expansions; the runs of weight 48 and 64 do not
    # within their caps. On 8 million nodes, phase 1 gives its short slices
    # an eighth (1 million), the long run 1.5 million, the two capped runs
    # 450 and 900 thousand, and the long run the rest: it wins having spent
    # just what the long run alone needs on top of the others, not the 1.5
    # million again that starting it afresh would cost.
    pos = solitaire.deal("flower", 256)
    args = ([tuple(c) for c in pos.columns], tuple(pos.bouquet), tuple(pos.foundations), True, True)
    status, _, alone, _, _ = _flower_c.search(*args, 2_500_000, None, None, None, None, 24, -1)
    assert status == 1 and 1_500_000 < alone < 2_500_000
    for weight, cap in ((48, 450_000), (64, 900_000)):
        status, *_ = _flower_c.search(*args, cap, None, None, None, None, weight, -1)
        assert status == -1
    status, _, nodes, _, moves = _flower_c.search(*args, 8_000_000, None, None)
    assert status == 1
    assert abs(nodes - (1_000_000 + 450_000 + 900_000 + alone)) < 100
    line = [solitaire.Move(card, solitaire.FOUNDATION if t < 0 else t) for card, t in moves]
    assert pos.play(line).is_won()
