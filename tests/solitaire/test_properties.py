"""Invariants, checked by hypothesis over random deals and random play."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import solitaire
from solitaire import REDEAL, Board, Move, parse_position

games = st.sampled_from(["cruel", "flower"])
seeds = st.integers(min_value=0, max_value=2**64 - 1)


def all_cards(pos):
    layout = list(pos.piles) if pos.game == "cruel" else list(pos.columns) + [pos.bouquet]
    in_play = [c for part in layout for c in part]
    home = [s * 13 + r for s in range(4) for r in range(pos.foundations[s])]
    return in_play, home


@st.composite
def played(draw, game=games):
    """A deal of ``game`` and a random line of play from it (with every
    position on the way)."""
    pos = solitaire.deal(draw(game), draw(seeds))
    line = [pos]
    for _ in range(draw(st.integers(0, 80))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.apply(draw(st.sampled_from(moves)))
        line.append(pos)
    return line


@settings(max_examples=150, deadline=None)
@given(played())
def test_the_52_cards_are_always_all_present_exactly_once(line):
    for pos in line:
        in_play, home = all_cards(pos)
        assert sorted(in_play + home) == list(range(52))


@settings(max_examples=150, deadline=None)
@given(played())
def test_notation_round_trips_at_every_step(line):
    for pos in line:
        again = parse_position(pos.notation())
        assert again == pos and again.notation() == pos.notation()
        assert again.foundations == pos.foundations


@settings(max_examples=150, deadline=None)
@given(played())
def test_foundations_only_grow(line):
    for before, after in zip(line, line[1:]):
        assert all(a >= b for a, b in zip(after.foundations, before.foundations))
        assert after.cards_home() - before.cards_home() in (0, 1)


@settings(max_examples=100, deadline=None)
@given(played())
def test_every_listed_legal_move_applies_and_round_trips_as_text(line):
    pos = line[-1]
    for move in pos.legal_moves():
        assert pos.is_legal(move)
        assert Move.parse(move.token()) == move
        pos.apply(move)


@settings(max_examples=100, deadline=None)
@given(games, seeds, st.data())
def test_push_then_undo_restores_the_exact_position(game, seed, data):
    board = Board(solitaire.deal(game, seed))
    snapshots = []
    for _ in range(data.draw(st.integers(0, 60))):
        moves = list(board.legal_moves)
        if not moves:
            break
        snapshots.append(board.position)
        board.push(data.draw(st.sampled_from(moves)))
    for expected in reversed(snapshots):
        board.undo()
        assert board.position == expected
        assert board.position.notation() == expected.notation()
    assert board.undos == len(snapshots) and board.move_stack == []


@settings(max_examples=100, deadline=None)
@given(games, seeds)
def test_a_seed_always_gives_the_same_deal_and_a_full_deck(game, seed):
    a = solitaire.deal(game, seed)
    assert a == solitaire.deal(game, seed)
    in_play, home = all_cards(a)
    assert sorted(in_play + home) == list(range(52))
    assert a.cards_home() == (4 if game == "cruel" else 0)


@settings(max_examples=60, deadline=None)
@given(played(st.just("cruel")))
def test_a_redeal_keeps_the_order_of_the_cards(line):
    pos = line[-1]
    assume(pos.can_redeal())  # every line that ends on a move other than a redeal
    redealt = pos.apply(REDEAL)
    flat = [c for p in pos.piles for c in p]
    assert [c for p in redealt.piles for c in p] == flat
    assert [len(p) for p in redealt.piles if p] == [min(4, len(flat) - i) for i in range(0, len(flat), 4)]
    assert not redealt.can_redeal()


@settings(max_examples=100, deadline=None)
@given(games, seeds, st.data())
def test_a_resumed_board_plays_and_undoes_as_the_board_that_played_the_line(game, seed, data):
    """Board.resume (a stored game: start, line, position) against a board
    that played the same line: same record, then the same positions through
    further moves and undos back past the resumed line's start."""
    played = Board(solitaire.deal(game, seed), undos=3)
    for _ in range(data.draw(st.integers(0, 40))):
        moves = list(played.legal_moves)
        if not moves:
            break
        played.push(data.draw(st.sampled_from(moves)))
    resumed = Board.resume(solitaire.deal(game, seed), played.move_stack, played.position, undos=3)
    assert resumed.record() == played.record()
    for _ in range(data.draw(st.integers(0, 60))):
        moves = list(played.legal_moves)
        if moves and data.draw(st.booleans()):
            move = data.draw(st.sampled_from(moves))
            played.push(move)
            resumed.push(move)
        elif played.move_stack:
            assert resumed.undo() == played.undo()
        assert resumed.position == played.position
        assert resumed.record() == played.record() and resumed.move_stack == played.move_stack
    while played.move_stack:
        assert resumed.undo() == played.undo()
        assert resumed.position == played.position
    assert resumed.position == solitaire.deal(game, seed) and resumed.record() == played.record()


def _parses(text: str) -> bool:
    try:
        Move.parse(text)
    except solitaire.InvalidMoveError:
        return False
    return True


# Texts near move tokens: their pieces, Unicode look-alikes and digits, spaces.
_NEAR = st.lists(st.sampled_from(
    ["4", "10", "1", "0", "13", "K", "k", "\u212a", "s", "S", "\u017f", "\u2660", "D", "h", "R",
     "r", "F", "f", ">", " ", "\t", "\n", "\u00a0", "\u0661", "x", "T", "a"]), max_size=8).map("".join)


@given(st.one_of(_NEAR, st.text(max_size=10)))
@settings(max_examples=3000)
def test_the_move_pattern_accepts_exactly_what_the_parser_accepts(text):
    import re

    assert bool(re.match(solitaire.MOVE_TOKEN_PATTERN, text)) is _parses(text), repr(text)


@given(played())
def test_every_legal_move_token_matches_the_pattern(line):
    import re

    for pos in line:
        for move in pos.legal_moves():
            assert re.match(solitaire.MOVE_TOKEN_PATTERN, move.token())
