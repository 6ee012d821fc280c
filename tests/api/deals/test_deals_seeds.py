import datetime as dt
import hashlib
import hmac

import pytest

import solitaire
from api.deals.services import UnknownGame, deal_position, deal_seed


def test_a_seed_is_the_first_eight_bytes_of_an_hmac_of_game_date_and_candidate(settings, a_date):
    digest = hmac.new(
        settings.DEAL_SEED_SECRET.encode(), b"cruel:2031-05-01:3", hashlib.sha256
    ).digest()
    expected = int.from_bytes(digest[:8], "big") & (2**63 - 1)
    assert deal_seed(game="cruel", date=a_date, candidate=3) == expected


def test_the_same_inputs_give_the_same_seed_every_time(a_date):
    seeds = {deal_seed(game="flower", date=a_date, candidate=0) for _ in range(5)}
    assert len(seeds) == 1


def test_the_seed_depends_on_the_secret(settings, a_date):
    first = deal_seed(game="cruel", date=a_date)
    settings.DEAL_SEED_SECRET = "another secret"
    assert deal_seed(game="cruel", date=a_date) != first
    assert deal_seed(game="cruel", date=a_date, secret="tests-deal-seed-secret") == first


def test_the_seed_depends_on_the_game_the_date_and_the_candidate(a_date):
    seeds = {
        deal_seed(game="cruel", date=a_date, candidate=0),
        deal_seed(game="flower", date=a_date, candidate=0),
        deal_seed(game="cruel", date=a_date + dt.timedelta(days=1), candidate=0),
        deal_seed(game="cruel", date=a_date, candidate=1),
    }
    assert len(seeds) == 4


def test_seeds_fit_a_signed_64_bit_column(a_date):
    for candidate in range(200):
        assert 0 <= deal_seed(game="cruel", date=a_date, candidate=candidate) < 2**63


def test_the_position_is_the_engines_deal_of_the_seed(a_date):
    seed = deal_seed(game="flower", date=a_date)
    position = deal_position(game="flower", seed=seed)
    assert position == solitaire.deal("flower", seed=seed).notation()
    assert solitaire.parse_position(position).game == "flower"


def test_an_unknown_game_is_refused_with_its_name(a_date):
    with pytest.raises(UnknownGame, match="'spider'"):
        deal_seed(game="spider", date=a_date)


def test_a_negative_candidate_is_refused(a_date):
    with pytest.raises(ValueError, match="candidate"):
        deal_seed(game="cruel", date=a_date, candidate=-1)
