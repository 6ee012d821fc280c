"""Difficulty as a player reads it: the solver's figure placed among the
committed sample's percentiles, as a level on a four-step scale."""

from __future__ import annotations

import pytest

from api.deals.difficulty import difficulty_level, percentiles_of, scale


def test_the_committed_scale_is_a_large_sample_of_each_game():
    for game in ("cruel", "flower"):
        table = scale()["games"][game]
        assert table["sample"] >= 500
        cuts = table["percentiles"]
        assert len(cuts) == 101 and cuts == sorted(cuts)


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_levels_follow_the_percentiles(game):
    cuts = scale()["games"][game]["percentiles"]
    assert difficulty_level(game, cuts[0] - 1) == {"level": "easy", "step": 1, "of": 4, "percentile": 0}
    assert difficulty_level(game, cuts[100] + 1)["level"] == "very_hard"
    assert difficulty_level(game, cuts[100] + 1)["percentile"] == 100
    levels = [difficulty_level(game, x / 10)["step"] for x in range(0, 101)]
    assert levels == sorted(levels), "a harder figure never reads easier"
    assert difficulty_level(game, None) is None


def test_percentiles_of_a_sample():
    cuts = percentiles_of([float(x) for x in range(1, 102)])
    assert cuts[0] == 1 and cuts[50] == 51 and cuts[100] == 101
