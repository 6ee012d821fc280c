"""Deals from an integer seed, with a generator and shuffle defined here.

``random.shuffle`` is not promised to give the same order across Python
versions, so a seed would not reproduce its deal forever. SplitMix64 (Steele,
Lea & Flood 2014) is tiny, well studied and fully specified by this file;
bounded draws use rejection so every permutation is equally likely."""

from __future__ import annotations

from .cards import ACES, DECK
from .errors import SolitaireError
from .position import (
    BOUQUET_SIZE,
    CRUEL_PILES,
    FLOWER_COLUMNS,
    GAMES,
    CruelPosition,
    FlowerPosition,
    Position,
)

MASK64 = (1 << 64) - 1
SEED_LIMIT = 1 << 64


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in range(n), by rejecting the biased top of the range."""
        limit = SEED_LIMIT - SEED_LIMIT % n
        while True:
            z = self.next()
            if z < limit:
                return z % n


def shuffled(cards, seed: int) -> list[int]:
    """Fisher-Yates from the end, drawing with SplitMix64."""
    rng = SplitMix64(seed)
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SolitaireError(f"seed {seed!r} is not a whole number")
    if not 0 <= seed < SEED_LIMIT:
        raise SolitaireError(f"seed {seed} is out of range: use 0 to {SEED_LIMIT - 1}")
    return seed


def deal(game: str, seed: int) -> Position:
    """The deal of ``game`` ("cruel" or "flower") for ``seed``, forever."""
    check_seed(seed)
    if game == "cruel":
        # The aces start home; the other 48, in deck order, are shuffled.
        cards = shuffled([c for c in DECK if c not in ACES], seed)
        piles = tuple(tuple(cards[i : i + 4]) for i in range(0, 4 * CRUEL_PILES, 4))
        return CruelPosition(piles, (1, 1, 1, 1))
    if game == "flower":
        cards = shuffled(DECK, seed)
        n = 6 * FLOWER_COLUMNS
        columns = tuple(tuple(cards[i : i + 6]) for i in range(0, n, 6))
        bouquet = tuple(cards[n : n + BOUQUET_SIZE])
        return FlowerPosition(columns, bouquet, (0, 0, 0, 0))
    raise SolitaireError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
