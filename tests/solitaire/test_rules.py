"""The rules, case by case, with the worked examples of docs/rules/ and
docs/notation.md."""

import pytest
from example_positions import CRUEL_EXAMPLE, FLOWER_EXAMPLE

from solitaire import REDEAL, IllegalMoveError, Move, Status, parse_position


def tokens(pos):
    return sorted(m.token() for m in pos.legal_moves())


# -- Cruel ---------------------------------------------------------------


def test_cruel_example_lists_exactly_the_documented_moves():
    assert tokens(parse_position(CRUEL_EXAMPLE)) == [
        "2C>9", "2C>F", "2H>3", "2H>F", "3H>12", "4D>2", "4H>4",
    ]


def test_cruel_worked_example_move_then_redeal():
    pos = parse_position(CRUEL_EXAMPLE)
    after = pos.apply(Move.parse("4D>2"))
    assert after.notation().startswith("cruel 5C9H2D/KD3S8C5D4D/9C9S7D3H/")
    assert after.piles[2:] == pos.piles[2:]
    redealt = after.apply(REDEAL)
    assert redealt.notation().startswith("cruel 5C9H2DKD/3S8C5D4D/9C9S7D3H/")
    assert redealt.piles[2:] == pos.piles[2:]


def test_cruel_builds_only_on_the_same_suit_one_rank_higher():
    pos = parse_position("cruel QC/JS/JC/KC/-/-/-/-/-/-/-/KSQS")
    assert Move.parse("JC>1") in pos.legal_moves()
    assert Move.parse("JS>1") not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="same suit one rank higher"):
        pos.apply(Move.parse("JS>1"))


def test_cruel_empty_pile_stays_empty():
    pos = parse_position("cruel KS/-/QS/-/-/-/-/-/-/-/-/-")
    assert Move.parse("QS>2") not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match="empty pile stays empty"):
        pos.apply(Move.parse("QS>2"))


def test_cruel_only_the_top_card_moves():
    pos = parse_position(CRUEL_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="not on top"):
        pos.apply(Move.parse("2D>F"))


def test_cruel_foundation_needs_the_next_rank():
    pos = parse_position(CRUEL_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="needs 2H next") as info:
        pos.apply(Move.parse("4H>F"))
    assert info.value.reason == "foundation_needs"
    assert info.value.params == {"card": "4H", "needs": "2H"}
    assert info.value.move == "4H>F"


def test_cruel_redeal_not_offered_when_it_changes_nothing():
    pos = parse_position(CRUEL_EXAMPLE)
    assert not pos.can_redeal()
    with pytest.raises(IllegalMoveError, match="same layout"):
        pos.apply(REDEAL)


def test_cruel_redeal_leaves_later_piles_empty_and_last_group_short():
    pos = parse_position("cruel 2C/3C4C/-/5C6C7C8C9C/-/-/KS/-/-/-/-/TCJCQCKC")
    redealt = pos.apply(REDEAL)
    assert redealt.notation() == "cruel 2C3C4C5C/6C7C8C9C/KSTCJCQC/KC/-/-/-/-/-/-/-/-"
    assert not redealt.can_redeal()


def test_cruel_blocked_when_no_card_moves_and_redeal_repeats():
    pos = parse_position("cruel -/QSKS/-/-/-/-/-/-/-/-/-/-")
    assert pos.legal_moves() == (REDEAL,)
    assert pos.outcome().status is Status.PLAYING
    after = pos.apply(REDEAL)
    assert after.notation() == "cruel QSKS/-/-/-/-/-/-/-/-/-/-/-"
    assert after.legal_moves() == ()
    assert after.outcome().status is Status.BLOCKED


def test_cruel_won_with_every_card_home():
    pos = parse_position("cruel KS/-/-/-/-/-/-/-/-/-/-/-")
    won = pos.apply(Move.parse("KS>F"))
    assert won.outcome().status is Status.WON and won.cards_home() == 52


def test_cruel_never_builds_across_suits_at_the_king():
    # As ints, KC + 1 is the ace of diamonds' slot: it must never count as "one higher".
    pos = parse_position("cruel KC/-/-/-/-/-/-/-/-/-/-/KDQD")
    assert tokens(pos) == ["KC>F", "QD>F", "R"]


# -- Flower Garden ---------------------------------------------------------


def test_flower_example_lists_exactly_the_documented_moves():
    assert tokens(parse_position(FLOWER_EXAMPLE)) == [
        "2S>5", "3D>4", "3S>4", "4D>2", "4H>2", "5D>1", "5H>1",
        "AD>3", "AD>F", "AS>3", "AS>F", "TS>6",
    ]


def test_flower_worked_example_bouquet_middle_then_onto_it():
    pos = parse_position(FLOWER_EXAMPLE)
    after = pos.apply(Move.parse("5D>1"))
    assert after.notation().split()[1].split("/")[0] == "8D5C3H2DQS6C5D"
    assert "5D" not in after.notation().split()[2]
    # 4D and 9D stay available despite the gap.
    assert Move.parse("4D>1") in after.legal_moves()
    assert any(m.token().startswith("9D") for m in after.legal_moves()) or "9D" in after.notation()
    again = after.apply(Move.parse("4D>1"))
    assert again.notation().split()[1].split("/")[0] == "8D5C3H2DQS6C5D4D"


def test_flower_any_card_goes_into_an_empty_column_not_only_a_king():
    pos = parse_position("flower QH/-/KS/-/-/- KH")
    assert {"KH>2", "QH>2", "QH>4", "KS>2"} <= set(tokens(pos))


def test_flower_builds_down_in_any_suit():
    pos = parse_position("flower KC/KD/KS/-/-/- QDQS")
    assert {"QD>1", "QS>1", "QD>3", "QS>2"} <= set(tokens(pos))


def test_flower_rejects_a_wrong_rank_onto_a_column():
    pos = parse_position("flower KC/-/-/-/-/- JDQDKD")
    with pytest.raises(IllegalMoveError, match="one rank lower"):
        pos.apply(Move.parse("JD>1"))


def test_flower_nothing_goes_back_into_the_bouquet_and_no_redeal():
    pos = parse_position(FLOWER_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="no redeal"):
        pos.apply(REDEAL)
    assert all(m.target >= -1 for m in pos.legal_moves())


def test_flower_interior_cards_do_not_move():
    pos = parse_position(FLOWER_EXAMPLE)
    with pytest.raises(IllegalMoveError, match="neither"):
        pos.apply(Move.parse("QS>F"))


def test_flower_lone_card_into_empty_column_is_legal_but_not_useful():
    pos = parse_position("flower KS/-/-/-/-/- -")
    moves = [m for m in pos.legal_moves() if m.token() != "KS>F"]
    assert moves and not any(pos.is_useful(m) for m in moves)


def test_flower_blocked_when_no_useful_move_is_left():
    dead = parse_position("flower TSJS/THJH/QSKS/QHKH/TDJDQDKD/TCJCQCKC -")
    assert dead.legal_moves() == ()
    assert dead.outcome().status is Status.BLOCKED
    alive = parse_position("flower TSJS/THJH/QSKS/QHKH/TDJDQDKD/- TCJCQCKC")
    assert alive.outcome().status is Status.PLAYING


def test_flower_emptying_the_bouquet_alone_does_not_win():
    pos = parse_position("flower KS/-/-/-/-/- -")
    assert pos.outcome().status is Status.PLAYING
    assert pos.apply(Move.parse("KS>F")).outcome().status is Status.WON


@pytest.mark.parametrize("text", [CRUEL_EXAMPLE, FLOWER_EXAMPLE])
def test_every_illegal_move_carries_a_reason_code_for_translation(text):
    pos = parse_position(text)
    reasons = set()
    for card in range(52):
        for target in range(-1, 13):  # 12 is one past Cruel's last pile
            move = Move(card, target)
            try:
                pos.apply(move)
            except IllegalMoveError as error:
                assert error.reason and error.move == move.token()
                reasons.add(error.reason)
    with pytest.raises(IllegalMoveError) as info:
        pos.apply(REDEAL)
    reasons.add(info.value.reason)
    assert {"not_available", "foundation_needs", "no_such_place"} <= reasons
