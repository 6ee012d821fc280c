"""home_moves: the forced finish and the proven-safe moves home, checked
against the engine's own legal moves and the solver."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire
from solitaire import FOUNDATION, home_moves
from solitaire.solver import SolveStatus, solve

games = st.sampled_from(["cruel", "flower"])
seeds = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def positions(draw):
    """A position along random play, leaning to foundation moves so that
    late positions (few cards left) come up too."""
    pos = solitaire.deal(draw(games), draw(seeds))
    for _ in range(draw(st.integers(0, 150))):
        moves = pos.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.to_foundation]
        pool = home if home and draw(st.booleans()) else moves
        pos = pos.apply(draw(st.sampled_from(pool)))
    return pos


def wins_home_alone(pos, rng) -> bool:
    """The engine's legal moves, foundation moves only, picked at random."""
    while True:
        home = [m for m in pos.legal_moves() if m.to_foundation]
        if not home:
            return pos.is_won()
        pos = pos.apply(rng.choice(home))


def next_card_home(found, suit):
    return suit * 13 + found[suit]


@settings(max_examples=300, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_forced_is_given_exactly_when_foundation_moves_alone_win(pos, rng):
    forced, safe = home_moves(pos)
    assert all(m.target == FOUNDATION for m in forced + safe)
    if forced:
        assert pos.play(forced).is_won()
        assert safe == forced
    assert bool(forced) == (wins_home_alone(pos, rng) and not pos.is_won())


@settings(max_examples=300, deadline=None)
@given(positions())
def test_safe_moves_are_legal_in_order_and_follow_the_solvers_rule(pos):
    forced, safe = home_moves(pos)
    after = pos.play(safe)  # each legal after the ones before it
    if forced:
        return
    if pos.game == "cruel":
        assert safe == ()
        return
    for move in safe:
        rank = move.card % 13
        assert rank <= min(pos.foundations)  # every card one rank lower is home
        pos = pos.apply(move)
    # ...and none is left: the next card of each suit is not safe or not free.
    for suit in range(4):
        rank = after.foundations[suit]
        card = next_card_home(after.foundations, suit)
        if rank < 13 and rank <= min(after.foundations):
            assert not after.is_legal(solitaire.Move(card, FOUNDATION))


def test_a_solution_ends_in_a_forced_finish_that_the_api_can_play():
    for game in ("cruel", "flower"):
        for seed in range(1, 200):
            pos = solitaire.deal(game, seed=seed)
            result = solve(pos, max_nodes=20_000, max_seconds=2)
            if result.status is SolveStatus.SOLVED:
                break
        line = result.moves
        tail = 0
        while tail < len(line) and line[len(line) - 1 - tail].to_foundation:
            tail += 1
        before_tail = pos.play(line[: len(line) - tail])
        assert tail > 0
        assert len(home_moves(before_tail).forced) == tail, game


def test_safe_moves_never_lose_a_solution_in_flower_garden():
    rng = random.Random(7)
    checked = 0
    for seed in range(1, 60):
        pos = solitaire.deal("flower", seed=seed)
        result = solve(pos, max_nodes=20_000, max_seconds=2)
        if result.status is not SolveStatus.SOLVED:
            continue
        # A position along the solution, then every safe move played.
        at = pos.play(result.moves[: rng.randrange(len(result.moves))])
        safe = home_moves(at).safe
        if not safe:
            continue
        again = solve(at.play(safe), max_nodes=200_000, max_seconds=5)
        assert again.status is SolveStatus.SOLVED, (seed, [m.token() for m in safe])
        checked += 1
        if checked == 5:
            break
    assert checked == 5
