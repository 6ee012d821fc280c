"""Deals are pinned forever: these golden lines must never change."""

import pytest

import solitaire
from solitaire import SolitaireError
from solitaire.deal import SplitMix64


def test_splitmix64_matches_the_published_reference_sequence():
    # The widely published test vector of SplitMix64 for seed 1234567.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


@pytest.mark.parametrize(
    "game, seed, notation",
    [
        ("cruel", 0, "cruel 5CTC3H6C/6HJH7C4C/KH4STS7S/8S7DKD2C/6S3DQD8D/TH8CTD8H/QC4D2H5S/3S2D2SJD/6D9S3CJS/JC5D4H9D/KS7HKC9C/QHQS5H9H"),
        ("cruel", 1, "cruel JC5S6CKH/4HQCKS2D/9C8HJH7S/8C2H6H3D/4C6DTC6S/QH7CKD3S/3HQS8S9S/9D4D8D5C/THJS5HTS/3C5D9H2C/KCJD4S7H/TDQD2S7D"),
        ("cruel", 2, "cruel 7S4CTD6H/9H3H4S8C/8HQDKC2C/3C2H2S5D/9D5H3S7D/2DQCJHKS/5CJSQHJC/7H6STH8D/9S3D4H7C/6DKDKH5S/TC8S4DTS/JD9C6CQS"),
        ("cruel", 42, "cruel KD2C4HJS/6HTS6D9S/QS2H7H8D/8CKH5D3D/9D9C4S7S/QC3C7DTC/6CKCQD2S/QH8S2DJD/5STD3H4D/JH5CTH6S/7CKS5H4C/JC8H9H3S"),
        ("flower", 0, "flower 8SJH9C2S2DQD/6STC3DACJC7C/9H8CQSKH5H2C/3H5CAH6C4STD/5D8H8DADQHTS/QCJD3S4D2H9D 3CKDAS7S9S7DJS6HKS4C7H5S6D4HKCTH"),
        ("flower", 1, "flower 7D9C4D8H8D5S/JD6D9SJC5DKD/3C2DJH5H7H4H/2CAD6SKCKHTH/TSJSTD8SQC4S/6C7CAS5CAHKS 6HQSQHQD9D3D3SAC4C2H8CTC3H2S9H7S"),
        ("flower", 2, "flower QH3S4C5H7H2D/KHTDAC6C7S3C/QC7D6HJHTC9S/JD8C4D5S2S4H/ADQD6S8H3H9D/6DJSAS5CJCAH KC2H7C4S9CTH5DTSQSKS8SKD3D2C8D9H"),
        ("flower", 42, "flower 7C3HKCAS2SAC/AHKDTD5C8SJH/2H4S6H5D2D5S/6DAD7D2C8H8C/4D7HKSTS4H3D/THJS4C6S7S3S 8DQD9SKH5H6CQS9DJDQC3C9HQH9CJCTC"),
    ],
)
def test_the_first_deals_are_pinned(game, seed, notation):
    assert solitaire.deal(game, seed).notation() == notation


def test_the_shuffle_is_uniform_enough_over_positions():
    # Each card lands in each of the 48 Cruel slots about equally often.
    counts = [0] * 48
    for seed in range(2000):
        counts[[c for p in solitaire.deal("cruel", seed).piles for c in p].index(1)] += 1
    assert min(counts) > 15 and max(counts) < 75


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(SolitaireError, match="seed"):
        solitaire.deal("cruel", seed)


def test_unknown_game_is_refused():
    with pytest.raises(SolitaireError, match="unknown game"):
        solitaire.deal("klondike", 1)
