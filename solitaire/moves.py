"""Moves as small hashable values with a text round trip.

``Move(card, target)``: ``target`` is ``FOUNDATION``, or a 0-based pile or
column index (printed 1-based, as the notation numbers them). The redeal is
the single value ``REDEAL``."""

from __future__ import annotations

import re
from typing import NamedTuple

from .cards import card_text, parse_card
from .errors import InvalidCardError, InvalidMoveError

FOUNDATION = -1
_REDEAL_TARGET = -2

# The text of a move, in pieces shared by the parser and MOVE_TOKEN_PATTERN:
# ASCII spaces, digits and letters in either case (no flag, no Unicode
# look-alikes), the four suit symbols.
_SPACE = r"[ \t\r\n]*"
_CARD_TEXT = r"(?:10|[2-9TJQKAtjqka])[CDHScdhs\u2663\u2666\u2665\u2660]"
_MOVE_RE = re.compile(rf"^{_SPACE}({_CARD_TEXT}){_SPACE}>{_SPACE}([Ff]|[0-9]+){_SPACE}$")
_REDEAL_RE = re.compile(rf"^{_SPACE}[Rr]{_SPACE}$")

# Exactly the texts Move.parse accepts, as one regular expression in the
# dialect JSON Schema shares with Python: a card, ">" and F or a pile or
# column 1-12, spaces around; or R. The API's schema gives it for a move.
MOVE_TOKEN_PATTERN = (
    rf"^{_SPACE}(?:{_CARD_TEXT}{_SPACE}>{_SPACE}(?:[Ff]|0*(?:[1-9]|1[0-2]))|[Rr]){_SPACE}$"
)


class Move(NamedTuple):
    card: int
    target: int

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Parse a move token leniently (``4d > 2``, ``10H>f``, ``r``)."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        move = _BY_TOKEN.get(text)  # a canonical token, as stored lines hold them
        if move is not None:
            return move
        if _REDEAL_RE.match(text):
            return REDEAL
        m = _MOVE_RE.match(text)
        if not m:
            raise InvalidMoveError(
                f"{text!r} is not a move: expected CARD>F, CARD>N (a pile or column number) or R"
            )
        try:
            card = parse_card(m.group(1))
        except InvalidCardError as exc:  # pragma: no cover - the pattern admits only cards
            raise InvalidMoveError(f"{text!r}: {exc}") from None
        dest = m.group(2).upper()
        if dest == "F":
            return cls(card, FOUNDATION)
        number = int(dest)
        if not 1 <= number <= 12:
            raise InvalidMoveError(f"{text!r}: there is no pile or column {number}")
        return cls(card, number - 1)

    @property
    def is_redeal(self) -> bool:
        return self.target == _REDEAL_TARGET

    @property
    def to_foundation(self) -> bool:
        return self.target == FOUNDATION

    def token(self) -> str:
        text = _TOKENS.get(self)  # every legal move's, made once: answers list dozens
        if text is not None:
            return text
        if self.target == _REDEAL_TARGET:
            return "R"
        dest = "F" if self.target == FOUNDATION else str(self.target + 1)
        return f"{card_text(self.card)}>{dest}"

    def __str__(self) -> str:
        return self.token()

    def __repr__(self) -> str:
        return f"Move.parse({self.token()!r})"


REDEAL = Move(-1, _REDEAL_TARGET)

# Every card-move value made once: move generation looks them up instead of
# building NamedTuples in the solver's inner loop. MOVES[card][target + 1].
MOVES = tuple(tuple(Move(c, t) for t in range(FOUNDATION, 12)) for c in range(52))
_TOKENS: dict[Move, str] = {}
# Every canonical token's move: Move.parse reads stored lines by lookup.
_BY_TOKEN = {m.token(): m for row in MOVES for m in row} | {"R": REDEAL}
_TOKENS.update((m, t) for t, m in _BY_TOKEN.items())


def parse_moves(text: str) -> list[Move]:
    """A solution or game record: tokens separated by white space."""
    return [Move.parse(tok) for tok in text.split()]


def moves_text(moves) -> str:
    return " ".join(m.token() for m in moves)
