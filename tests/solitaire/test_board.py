import pytest
from example_positions import CRUEL_EXAMPLE, FLOWER_EXAMPLE

from solitaire import REDEAL, Board, IllegalMoveError, Move, Status, parse_position


def test_legal_moves_is_a_lazy_view_with_in_and_count():
    board = Board(parse_position(CRUEL_EXAMPLE))
    assert board.legal_moves.count() == 7 == len(board.legal_moves)
    assert Move.parse("4D>2") in board.legal_moves
    assert Move.parse("4D>3") not in board.legal_moves
    assert "4D>2" not in board.legal_moves  # only Move values are members
    assert sorted(m.token() for m in board.legal_moves)[0] == "2C>9"


def test_an_undone_redeal_restores_the_exact_layout_and_counts():
    start = parse_position(CRUEL_EXAMPLE)
    board = Board(start)
    board.push("4D>2")
    before = board.position
    board.push(REDEAL)
    assert board.redeals == 1
    assert board.undo() == REDEAL
    assert board.position == before and board.position.notation() == before.notation()
    assert board.record().redeals == 0 and board.record().undos == 1
    board.undo()
    assert board.position == start


def test_an_illegal_push_changes_nothing():
    board = Board(parse_position(FLOWER_EXAMPLE))
    with pytest.raises(IllegalMoveError, match="4D>6"):
        board.push("4D>6")
    assert board.move_stack == [] and board.position == parse_position(FLOWER_EXAMPLE)


def test_pop_on_an_empty_stack_says_so():
    with pytest.raises(IndexError):
        Board(parse_position(FLOWER_EXAMPLE)).undo()


def test_record_counts_cards_home_moves_redeals_undos():
    board = Board(parse_position(CRUEL_EXAMPLE))
    for token in ("2C>F", "2H>F", "R"):
        board.push(token)
    board.undo()
    board.push("R")
    rec = board.record()
    assert (rec.cards_home, rec.redeals, rec.undos, rec.moves) == (6, 1, 1, 3)
    assert board.outcome().status is Status.PLAYING
