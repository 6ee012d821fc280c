"""Perft: count the move paths from fixed positions. The numbers in
data/perft.txt come from reference.py, an independent naive statement of the
rules (see make_perft.py); a move-generation bug changes them."""

import random
from pathlib import Path

import pytest
import reference as ref

import solitaire

DATA = Path(__file__).parent / "data" / "perft.txt"


def perft(position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.apply(m), depth - 1) for m in moves)


def cases():
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            text, depth, count = (x.strip() for x in line.split(";"))
            yield pytest.param(text, int(depth), int(count), id=f"{text[:24]}-d{depth}")


@pytest.mark.parametrize("text, depth, count", list(cases()))
def test_perft_counts_match_the_data_file(text, depth, count):
    assert perft(solitaire.parse_position(text), depth) == count


def test_the_data_file_covers_both_games_empty_places_and_near_won_positions():
    texts = {c.values[0] for c in cases()}
    assert sum(t.startswith("cruel") for t in texts) >= 8
    assert sum(t.startswith("flower") for t in texts) >= 8
    assert any("/-/" in t and t.startswith("cruel") for t in texts)
    assert any("/-/" in t and t.startswith("flower") for t in texts)


def test_engine_and_reference_agree_move_for_move_along_random_playouts():
    rng = random.Random(7)  # picks moves only
    for game in ("cruel", "flower"):
        for seed in range(40):
            pos = solitaire.deal(game, seed)
            for _ in range(60):
                mine = sorted(m.token() for m in pos.legal_moves())
                theirs = sorted(ref.token(m) for m in ref.moves(ref.parse(pos.notation())))
                assert mine == theirs, pos.notation()
                if not mine:
                    break
                token = rng.choice(mine)
                nxt = pos.apply(solitaire.Move.parse(token))
                card, _, target = token.partition(">")
                expected = ref.play(ref.parse(pos.notation()), (card, target) if token != "R" else ("", "R"))
                assert ref.parse(nxt.notation()) == expected
                pos = nxt
