"""Cards as small ints: ``suit * 13 + rank``, rank 0 = ace .. 12 = king,
suits in the order clubs, diamonds, hearts, spades (C D H S).

Ints keep positions compact and move generation fast: the card one rank
higher in the same suit is simply ``card + 1`` (when ``rank < 12``)."""

from __future__ import annotations

import re

from .errors import InvalidCardError

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

DECK = tuple(range(52))
ACES = tuple(s * 13 for s in range(4))
KING = 12

_TEXT = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
_BY_TEXT = {t: c for c, t in enumerate(_TEXT)}

# One card in lenient input: "10" for T, suit letters or symbols, any case.
CARD_PATTERN = r"(?:10|[2-9TJQKA])[CDHS♣♦♥♠]"
_CARD_RE = re.compile(CARD_PATTERN, re.IGNORECASE)
_SYMBOL_TO_LETTER = dict(zip(SUIT_SYMBOLS, SUITS))


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    """0 for an ace up to 12 for a king."""
    return card % 13


def card_text(card: int) -> str:
    """Canonical two-character text: ``TD`` for 10 of diamonds."""
    return _TEXT[card]


def card_name(card: int) -> str:
    """How people read a card: ``10♦``, ``A♠`` (for messages; not notation)."""
    return RANK_NAMES[rank(card)] + SUIT_SYMBOLS[suit(card)]


def _normalise(text: str) -> str:
    text = text.upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    return "".join(_SYMBOL_TO_LETTER.get(ch, ch) for ch in text)


def parse_card(text: str) -> int:
    """Parse one card leniently (``td``, ``10D``, ``10♦``)."""
    card = _BY_TEXT.get(_normalise(text.strip()))
    if card is None:
        raise InvalidCardError(
            f"{text!r} is not a card: expected a rank (A 2-9 T/10 J Q K) then a suit (C D H S)"
        )
    return card


def parse_cards(text: str, *, where: str) -> list[int]:
    """Parse a run of cards written without separators (``5C9H2D4D``).

    ``-`` is the empty run. ``where`` names the field for error messages."""
    text = text.strip()
    if text == "-":
        return []
    if not text:
        raise InvalidCardError(f"{where} is blank: write '-' for an empty one")
    if len(text) % 2 == 0:  # canonical text, as stored positions hold it: one lookup a card
        try:
            return [_BY_TEXT[text[i : i + 2]] for i in range(0, len(text), 2)]
        except KeyError:
            pass  # lenient text: read below
    cards = []
    pos = 0
    for m in _CARD_RE.finditer(text):
        if m.start() != pos:
            break
        cards.append(parse_card(m.group()))
        pos = m.end()
    if pos != len(text):
        raise InvalidCardError(f"{where}: {text[pos:]!r} in {text!r} is not a card")
    return cards


def cards_text(cards) -> str:
    """Cards joined with no separator, ``-`` for none."""
    return "".join(_TEXT[c] for c in cards) or "-"
