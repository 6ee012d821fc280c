"""The solver: certificates replay, verdicts agree with an independent brute
force, budgets are honoured, and the CLI speaks docs/notation.md."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest

import solitaire
from solitaire import (
    CruelPosition,
    FlowerPosition,
    SolveResult,
    SolveStatus,
    hint,
    is_stalled,
    parse_position,
    solve,
)
from solitaire.solver.settings import FLOWER

CRUEL_EXAMPLE = (
    "cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/"
    "JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H"
)
FLOWER_EXAMPLE = (
    "flower 8D5C3H2DQS6C/AHQCTC4C8S5H/6DJSKDQH9C2S/TD2CTH7DAC4H/5S6H4S2HQD3D/7SKH3C7CJCJD "
    "TS8C6S9H9SKC4DAD3SJHKS5D8HAS7H9D"
)
CRUEL_WON_IN_ONE = "cruel KS/-/-/-/-/-/-/-/-/-/-/-"
FLOWER_WON_IN_ONE = "flower -/-/-/KS/-/- -"
# QS lies under KS: KS has nowhere to go, and a redeal would repeat the layout.
CRUEL_DEAD = "cruel QSKS/-/-/-/-/-/-/-/-/-/-/-"
# Every column is occupied, the tops are four kings and two jacks, and the
# foundations need tens, which are all buried: no legal move at all.
FLOWER_DEAD = "flower TSKS/THKH/TDKD/TCKC/QSQDJS/QHQCJDJCJH -"


def replays(position, result: SolveResult) -> bool:
    return position.play(result.moves).is_won()


# -- an independent brute force: the engine's rules, no pruning at all ------

def brute_force_winnable(position, limit: int = 300_000, goal=None) -> bool:
    """Every position reachable by legal moves, keyed by its exact notation:
    is one of them won (or meets ``goal``, a test on a position)?"""
    goal = goal or (lambda pos: pos.is_won())
    seen = {position.notation()}
    todo = [position]
    while todo:
        pos = todo.pop()
        if goal(pos):
            return True
        for move in pos.legal_moves():
            child = pos.apply(move)
            k = child.notation()
            if k not in seen:
                seen.add(k)
                todo.append(child)
        assert len(seen) < limit, "brute force space too large for a test"
    return False


def highest_cards(rng: random.Random, cards_left: int) -> list[int]:
    """The highest cards_left cards of random suits (the rest home), shuffled."""
    heights = [13] * 4
    while sum(13 - h for h in heights) < cards_left:
        s = rng.randrange(4)
        if heights[s] > 0:
            heights[s] -= 1
    cards = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(cards)
    return cards


def random_small_flower(rng: random.Random, cards_left: int) -> FlowerPosition:
    cards = highest_cards(rng, cards_left)
    columns = [[] for _ in range(6)]
    bouquet = []
    for c in cards:
        if rng.random() < 0.3:
            bouquet.append(c)
        else:
            columns[rng.randrange(6)].append(c)
    return FlowerPosition(tuple(map(tuple, columns)), tuple(bouquet))


def random_small_cruel(rng: random.Random, cards_left: int) -> CruelPosition:
    heights = [13] * 4
    while sum(13 - h for h in heights) < cards_left:
        s = rng.randrange(4)
        if heights[s] > 1:  # aces never leave the foundations
            heights[s] -= 1
    cards = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(cards)
    piles = [[] for _ in range(12)]
    npiles = rng.randint(1, 5)
    for c in cards:
        piles[rng.randrange(npiles) * rng.choice((1, 2))].append(c)
    return CruelPosition(tuple(map(tuple, piles)))


# -- certificates --------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_cruel_deals_are_decided_and_certificates_replay(seed):
    pos = solitaire.deal("cruel", seed)
    result = solve(pos, max_seconds=3)
    assert result.status is (SolveStatus.UNSOLVABLE if seed == 4 else SolveStatus.SOLVED)
    assert replays(pos, result) is (seed != 4)
    assert result.redeals == sum(1 for m in result.moves if m.is_redeal)


@pytest.mark.parametrize("seed", [0, 3, 5, 7, 8, 9, 10])
def test_flower_deals_are_decided_and_certificates_replay(seed):
    pos = solitaire.deal("flower", seed)
    result = solve(pos, max_seconds=5)
    assert result.status is not SolveStatus.LIMIT_REACHED
    assert replays(pos, result) is (result.status is SolveStatus.SOLVED)


def test_easy_cruel_deals_are_solved():
    solved = [s for s in (0, 2, 3, 7, 8) if solve(solitaire.deal("cruel", s), max_seconds=5).status
              is SolveStatus.SOLVED]
    assert solved == [0, 2, 3, 7, 8]


def test_certificates_have_no_move_that_can_simply_be_dropped():
    pos = solitaire.deal("cruel", 2)
    result = solve(pos, max_seconds=5)
    assert result.status is SolveStatus.SOLVED
    moves = result.moves
    for i, m in enumerate(moves):
        if m.to_foundation:
            continue
        shorter = moves[:i] + moves[i + 1:]
        try:
            won = pos.play(shorter).is_won()
        except solitaire.IllegalMoveError:
            won = False
        assert not won, f"move {i} ({m}) is pointless"


# -- verdicts against the brute force -------------------------------------

@pytest.mark.parametrize("seed", range(150))
def test_flower_verdicts_match_brute_force_on_small_positions(seed):
    rng = random.Random(seed)
    pos = random_small_flower(rng, rng.randint(4, 9))
    result = solve(pos, max_seconds=20)
    assert result.status is not SolveStatus.LIMIT_REACHED
    assert (result.status is SolveStatus.SOLVED) == brute_force_winnable(pos), pos.notation()
    if result.status is SolveStatus.SOLVED:
        assert replays(pos, result)


@pytest.mark.parametrize("seed", range(150))
def test_cruel_verdicts_match_brute_force_on_small_positions(seed):
    rng = random.Random(1000 + seed)
    pos = random_small_cruel(rng, rng.randint(5, 12))
    result = solve(pos, max_seconds=20)
    assert result.status is not SolveStatus.LIMIT_REACHED
    assert (result.status is SolveStatus.SOLVED) == brute_force_winnable(pos), pos.notation()
    if result.status is SolveStatus.SOLVED:
        assert replays(pos, result)


def test_the_small_positions_include_both_verdicts():
    verdicts = set()
    for seed in range(60):
        rng = random.Random(seed)
        verdicts.add(solve(random_small_flower(rng, rng.randint(4, 9))).status)
        rng = random.Random(1000 + seed)
        verdicts.add(solve(random_small_cruel(rng, rng.randint(5, 12))).status)
    assert verdicts == {SolveStatus.SOLVED, SolveStatus.UNSOLVABLE}


# -- known positions ------------------------------------------------------

@pytest.mark.parametrize("text", [CRUEL_WON_IN_ONE, FLOWER_WON_IN_ONE])
def test_it_solves_a_position_won_in_one(text):
    result = solve(parse_position(text))
    assert result.status is SolveStatus.SOLVED
    assert [m.token() for m in result.moves] == ["KS>F"]


@pytest.mark.parametrize("text", [CRUEL_DEAD, FLOWER_DEAD])
def test_it_proves_a_dead_position_unsolvable(text):
    pos = parse_position(text)
    result = solve(pos)
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.moves == ()
    assert is_stalled(pos)
    assert hint(pos).status is SolveStatus.UNSOLVABLE


def test_a_won_position_is_solved_with_no_moves():
    pos = solitaire.deal("cruel", 0)
    pos = pos.play(solve(pos).moves)
    result = solve(pos)
    assert result.status is SolveStatus.SOLVED and result.moves == ()
    assert not is_stalled(pos)


@pytest.mark.parametrize("text", [CRUEL_EXAMPLE, FLOWER_EXAMPLE])
def test_the_rule_pages_worked_examples(text):
    # both are won (within 2 s, well within 2 million nodes)
    pos = parse_position(text)
    result = solve(pos, max_nodes=2_000_000)
    assert result.status is SolveStatus.SOLVED and replays(pos, result)
    h = hint(pos, max_nodes=2_000_000)
    assert h.status is SolveStatus.SOLVED
    assert h.moves[0] in pos.legal_moves()
    assert not is_stalled(pos)


def test_the_cruel_worked_example_is_solved():
    pos = parse_position(CRUEL_EXAMPLE)
    result = solve(pos, max_seconds=10)
    assert result.status is SolveStatus.SOLVED
    assert replays(pos, result)


# -- budgets ---------------------------------------------------------------

def test_a_node_budget_gives_limit_reached_not_unsolvable():
    result = solve(solitaire.deal("flower", 1), max_nodes=50)
    assert result.status is SolveStatus.LIMIT_REACHED
    assert result.limit == "nodes"
    assert result.nodes <= 51
    assert result.moves == ()


def test_a_time_budget_is_honoured():
    result = solve(solitaire.deal("flower", 1), max_seconds=0.3)
    assert result.status is SolveStatus.LIMIT_REACHED
    assert result.limit == "seconds"
    # By the seconds the solver reports: the budget spent, and the search
    # stopped soon after (it looks at the clock between nodes).
    assert 0.3 <= result.seconds < 0.3 + 1.0, result.seconds


def test_a_states_budget_is_honoured():
    result = solve(solitaire.deal("cruel", 123), max_states=100)
    assert result.status is SolveStatus.LIMIT_REACHED
    assert result.limit == "states"
    assert result.states <= 101


def test_budgets_never_turn_an_unsolvable_verdict_into_a_wrong_one():
    pos = solitaire.deal("flower", 0)  # proven unsolvable with a few hundred states
    full = solve(pos)
    assert full.status is SolveStatus.UNSOLVABLE
    for n in (1, 5, 20, 100):
        assert solve(pos, max_nodes=n).status in (SolveStatus.UNSOLVABLE, SolveStatus.LIMIT_REACHED)


# -- settings ------------------------------------------------------------------

def test_settings_are_frozen_data_that_solve_takes_whole():
    with pytest.raises(dataclasses.FrozenInstanceError):
        FLOWER.abstract_share = 0  # type: ignore[misc]
    # Deal 12 is proven lost by the abstract games (rule 6) within 400,000
    # nodes; without them the real game's search needs millions.
    pos = solitaire.deal("flower", 12)
    assert solve(pos, max_nodes=400_000).status is SolveStatus.UNSOLVABLE
    plain = solve(pos, max_nodes=400_000, settings=dataclasses.replace(FLOWER, abstract_share=0))
    assert plain.status is SolveStatus.LIMIT_REACHED and plain.limit == "nodes"
    with pytest.raises(TypeError):
        solve("flower -/-/-/KS/-/- -")  # text, not a position


# -- hint and stalled ----------------------------------------------------------

def test_following_hints_wins_the_game():
    pos = solitaire.deal("cruel", 2)
    for _ in range(400):
        if pos.is_won():
            break
        h = hint(pos, max_seconds=5)
        assert h.status is SolveStatus.SOLVED
        pos = pos.apply(h.moves[0])
    assert pos.is_won()


def test_is_stalled_is_false_on_fresh_deals_and_won_positions():
    for seed in range(10):
        assert not is_stalled(solitaire.deal("cruel", seed))
        assert not is_stalled(solitaire.deal("flower", seed))
    assert not is_stalled(parse_position(CRUEL_WON_IN_ONE))


def test_is_stalled_answers_false_when_its_budget_runs_out():
    assert is_stalled(parse_position(FLOWER_DEAD))
    assert not is_stalled(parse_position(FLOWER_DEAD), max_nodes=0)


@pytest.mark.parametrize("text", [
    "cruel TSJS/KSQS/-/-/-/-/-/-/-/-/-/-",  # JS onto QS frees TS
    "flower TSJS/KS/-/-/-/- QS",  # QS onto KS, JS onto QS frees TS
])
def test_is_stalled_looks_past_the_current_moves(text):
    pos = parse_position(text)
    assert not any(m.to_foundation for m in pos.legal_moves())
    assert not is_stalled(pos)


def test_stalled_positions_from_random_small_positions_agree_with_a_search():
    """Every stalled position is lost, and no won one is stalled; the 40
    positions hold both kinds (seeds 1, 15 and 28 are stalled)."""
    verdicts = []
    for seed in range(40):
        rng = random.Random(seed)
        pos = random_small_cruel(rng, rng.randint(5, 10))
        verdicts.append((is_stalled(pos), solve(pos).status))
    stalled = [status for stuck, status in verdicts if stuck]
    won = [stuck for stuck, status in verdicts if status is SolveStatus.SOLVED]
    assert len(stalled) >= 3 and len(won) >= 20
    assert set(stalled) == {SolveStatus.UNSOLVABLE}
    assert not any(won)


# -- results -----------------------------------------------------------

def test_result_to_dict_and_difficulty():
    pos = solitaire.deal("cruel", 3)
    result = solve(pos)
    d = result.to_dict()
    assert d["status"] == "solved"
    assert d["moves"].split() == [m.token() for m in result.moves]
    assert d["length"] == len(result.moves) and d["redeals"] == result.redeals
    assert 0 <= result.difficulty <= 10
    assert SolveStatus.LIMIT_REACHED.value == "unknown"


def test_the_top_level_package_exports_the_solver():
    for name in ("solve", "hint", "is_stalled", "SolveStatus", "SolveResult"):
        assert name in solitaire.__all__ and hasattr(solitaire, name)


# -- command line ------------------------------------------------------------

def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args], input=stdin, capture_output=True,
        text=True, timeout=120,
    )


def test_cli_solve_prints_a_certificate():
    out = run_cli("solve", CRUEL_WON_IN_ONE)
    assert out.returncode == 0 and out.stdout.strip() == "solved: KS>F"
    assert run_cli("solve", CRUEL_DEAD).stdout.strip() == "unsolvable"
    assert run_cli("solve", solitaire.deal("flower", 1).notation(), "--max-nodes", "10").stdout.strip() == "unknown"


def test_cli_solve_json():
    out = run_cli("solve", solitaire.deal("cruel", 3).notation(), "--json")
    d = json.loads(out.stdout)
    assert d["status"] == "solved"
    assert parse_position(solitaire.deal("cruel", 3).notation()).play(d["moves"].split()).is_won()
    assert {"status", "moves", "nodes", "seconds"} <= d.keys()


def test_cli_batch_keeps_input_order_and_uses_workers():
    lines = [FLOWER_WON_IN_ONE, CRUEL_DEAD, solitaire.deal("cruel", 3).notation(), CRUEL_WON_IN_ONE]
    out = run_cli("solve", "-", "--json", "--jobs", "2", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    statuses = [json.loads(line)["status"] for line in out.stdout.splitlines()]
    assert statuses == ["solved", "unsolvable", "solved", "solved"]
    assert "4/4" in out.stderr


def test_cli_batch_rejects_a_bad_line():
    out = run_cli("solve", "-", stdin=CRUEL_WON_IN_ONE + "\ncruel nonsense\n")
    assert out.returncode == 2 and "line 2" in out.stderr
