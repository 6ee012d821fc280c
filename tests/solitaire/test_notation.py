import pytest
from example_positions import CRUEL_EXAMPLE, FLOWER_EXAMPLE

from solitaire import (
    REDEAL,
    CruelPosition,
    FlowerPosition,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    card_name,
    card_text,
    parse_card,
    parse_position,
)
from solitaire.errors import InvalidCardError


def test_the_examples_round_trip_to_the_same_text():
    for text in (CRUEL_EXAMPLE, FLOWER_EXAMPLE):
        assert parse_position(text).notation() == text
        assert str(parse_position(text)) == text


def test_the_first_word_chooses_the_game():
    assert isinstance(parse_position(CRUEL_EXAMPLE), CruelPosition)
    assert isinstance(parse_position(FLOWER_EXAMPLE), FlowerPosition)


def test_lenient_input_reads_case_tens_and_spaces_and_prints_canonical():
    lenient = (
        "  CRUEL 5c 9h 2d 4d / kd3s8c5d/9c9s7d3h/10D3d4s5h/qc6dks2c/kh9dqs2h/6h5sqh8h/"
        "qd6sjcjh/js8d4c3c/7sjd2sts/7htc8s7c/6c10hkc4h  "
    )
    assert parse_position(lenient).notation() == CRUEL_EXAMPLE
    flower = FLOWER_EXAMPLE.replace("TS8C", "10s 8c").replace("/", " / ").lower()
    assert parse_position("  " + flower).notation() == FLOWER_EXAMPLE


def test_suit_symbols_are_read_too():
    assert parse_card("10♦") == parse_card("TD")
    assert parse_card("k♠") == parse_card("KS")


def test_a_card_is_named_as_people_read_it_and_read_back_from_its_name():
    assert [card_name(parse_card(t)) for t in ("TD", "AS", "KC", "2H")] == ["10♦", "A♠", "K♣", "2♥"]
    for card in range(52):
        assert parse_card(card_name(card)) == card == parse_card(card_text(card))


def test_foundations_are_implied_by_missing_cards():
    pos = parse_position("cruel KS/KH/KD/KC/-/-/-/-/-/-/-/-")
    assert pos.foundations == (12, 12, 12, 12)
    assert pos.cards_home() == 48
    flower = parse_position("flower -/-/-/-/-/- -")
    assert flower.is_won() and flower.cards_home() == 52


def test_a_fresh_cruel_deal_scores_four():
    assert parse_position(CRUEL_EXAMPLE).cards_home() == 4
    assert parse_position(FLOWER_EXAMPLE).cards_home() == 0


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "empty position"),
        ("chess rnbqkbnr", "unknown game"),
        ("cruel 5C9H2D4D/KD3S8C5D", "expected 12 piles"),
        (CRUEL_EXAMPLE + "/-", "expected 12 piles"),
        (CRUEL_EXAMPLE.replace("5C9H", "5C5C"), "appears twice"),
        (CRUEL_EXAMPLE.replace("5C9H", "5CXX"), "'XX"),
        (CRUEL_EXAMPLE.replace("5C9H", "5C9HAS"), "aces start on the foundations"),
        (CRUEL_EXAMPLE.replace("/KD3S8C5D/", "//"), "blank"),
        (CRUEL_EXAMPLE.replace("QC6DKS2C", "QC6DKS-"), "'-' in 'QC6DKS-' is not a card"),
        ("cruel KS/KH/KD/-/-/-/-/-/-/-/-/QC", "KC is missing"),
        ("flower 8D5C/AHQC/-/-/-", "expected the 6 columns"),
        ("flower -/-/-/-/- KS", "expected 6 columns"),
        ("flower -/-/-/-/-/-", "then the bouquet"),
        ("flower -/-/-/-/-/- KSKH2C", "3C is missing"),
        (FLOWER_EXAMPLE.replace("TS8C", "TSTS"), "appears twice"),
        ("flower -/-/-/-/-/- " + "KS" * 16, "appears twice"),
    ],
)
def test_invalid_positions_raise_a_precise_error_that_names_the_input(text, fragment):
    with pytest.raises(InvalidPositionError) as info:
        parse_position(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_bouquet_larger_than_sixteen_is_rejected():
    cards = "KSQSJSTS9S8S7S6S5S4S3S2SASKHQHJHTH"
    with pytest.raises(InvalidPositionError, match="never grows"):
        parse_position("flower -/-/-/-/-/- " + cards)


def test_a_position_must_be_text():
    with pytest.raises(InvalidPositionError, match="must be text"):
        parse_position(None)


@pytest.mark.parametrize("token", ["4D>2", "4D>F", "TS>12", "R", "AS>F"])
def test_move_tokens_round_trip(token):
    move = Move.parse(token)
    assert move.token() == token
    assert eval(repr(move)) == move  # repr evaluates back, python-chess style


@pytest.mark.parametrize("lenient, canonical", [("4d > 2", "4D>2"), ("10h>f", "TH>F"), (" r ", "R")])
def test_move_tokens_are_read_leniently(lenient, canonical):
    assert Move.parse(lenient).token() == canonical


@pytest.mark.parametrize("token", ["", "4D", "4D>", "4D>0", "4D>13", "XX>1", "4D-2", "RR", "1D>F"])
def test_malformed_moves_are_rejected_with_the_token_in_the_message(token):
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(token)
    assert repr(token) in str(info.value)


def test_the_redeal_is_one_value():
    assert Move.parse("R") is REDEAL or Move.parse("R") == REDEAL
    assert REDEAL.is_redeal and not Move.parse("4D>2").is_redeal


def test_bad_card_text_is_rejected():
    with pytest.raises(InvalidCardError):
        parse_card("1D")
