"""Immutable positions of both games, with their notation.

A position is a value: ``apply`` returns a new one, so undo is exact by
keeping the old one (python-chess's snapshot idea, for free). Foundations are
never stored separately from the layout: every card not in the layout is on
its foundation, exactly as the notation says."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .cards import (
    KING,
    RANKS,
    SUIT_NAMES,
    SUITS,
    card_text,
    cards_text,
    parse_cards,
    rank,
)
from .errors import IllegalMoveError, InvalidCardError, InvalidPositionError
from .moves import FOUNDATION, MOVES, REDEAL, Move

CRUEL_PILES = 12
FLOWER_COLUMNS = 6
BOUQUET_SIZE = 16


class Status(str, enum.Enum):
    PLAYING = "playing"
    WON = "won"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class Outcome:
    status: Status
    cards_home: int

    @property
    def is_over(self) -> bool:
        return self.status is not Status.PLAYING


def _foundations_from_layout(cards: list[int], *, text: str, game: str) -> tuple[int, ...]:
    """Foundation heights implied by the cards in play; checks each card is
    there once and that the missing ones form A, A-2, A-2-3... in each suit."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise InvalidPositionError(f"{game} position {text!r}: {card_text(c)} appears twice")
        seen.add(c)
    heights = []
    for s in range(4):
        in_play = [r for r in range(13) if s * 13 + r in seen]
        height = 13 - len(in_play)
        if in_play and in_play[0] < height:
            low = in_play[0]
            missing = next(r for r in range(low, 13) if s * 13 + r not in seen)
            raise InvalidPositionError(
                f"{game} position {text!r}: {RANKS[missing]}{SUITS[s]} is missing from the layout, "
                f"so it would be on the {SUIT_NAMES[s]} foundation, but {RANKS[low]}{SUITS[s]} "
                f"is still in play (a foundation holds A, A-2, A-2-3, ... in order)"
            )
        heights.append(height)
    return tuple(heights)


def _split_game(text: str) -> tuple[str, str]:
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position must be text, not {type(text).__name__}")
    parts = text.strip().split(None, 1)
    if not parts:
        raise InvalidPositionError("empty position: expected 'cruel ...' or 'flower ...'")
    game = parts[0].lower()
    if game not in GAMES:
        raise InvalidPositionError(
            f"{text!r}: unknown game {parts[0]!r}, expected 'cruel' or 'flower'"
        )
    return game, parts[1] if len(parts) > 1 else ""


def parse_position(text: str) -> "Position":
    """Parse any position; the first word names the game."""
    game, _ = _split_game(text)
    return GAMES[game].from_notation(text)


class Position:
    """What both games share. Subclasses hold the layout and the rules."""

    __slots__ = ("foundations",)
    game = ""

    foundations: tuple[int, ...]  # cards home per suit, C D H S

    # -- what every position answers -------------------------------------
    def cards_home(self) -> int:
        f = self.foundations
        return f[0] + f[1] + f[2] + f[3]

    def is_won(self) -> bool:
        return self.cards_home() == 52

    def is_legal(self, move: Move) -> bool:
        try:
            self.apply(move)
        except IllegalMoveError:
            return False
        return True

    def is_useful(self, move: Move) -> bool:
        return True

    def outcome(self, legal: tuple[Move, ...] | None = None) -> Outcome:
        """Won, blocked or playing. ``legal``: this position's legal moves,
        when the caller has them already."""
        home = self.cards_home()
        if home == 52:
            return Outcome(Status.WON, home)
        if any(self.is_useful(m) for m in (self.legal_moves() if legal is None else legal)):
            return Outcome(Status.PLAYING, home)
        return Outcome(Status.BLOCKED, home)

    def play(self, moves) -> "Position":
        """Apply moves (tokens or Move values) in order, each checked."""
        pos = self
        for move in moves:
            if isinstance(move, str):
                move = Move.parse(move)
            pos = pos.apply(move)
        return pos

    def _illegal(self, move: Move, why: str, reason: str, **params) -> IllegalMoveError:
        return IllegalMoveError(
            f"{move.token()} is illegal in {self.notation()}: {why}",
            move=move.token(), reason=reason, params=params,
        )

    def _foundation_needs(self, move: Move) -> IllegalMoveError:
        s = move.card // 13
        needs = RANKS[self.foundations[s]] + SUITS[s]
        return self._illegal(
            move, f"the {SUIT_NAMES[s]} foundation needs {needs} next", "foundation_needs",
            card=card_text(move.card), needs=needs,
        )

    def _foundation_dict(self) -> list[dict]:
        return [
            {
                "suit": SUITS[s],
                "count": h,
                "top": card_text(s * 13 + h - 1) if h else None,
            }
            for s, h in enumerate(self.foundations)
        ]

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"parse_position({self.notation()!r})"

    # Subclasses define: notation, legal_moves, apply, key, to_dict, from_notation.
    def notation(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def legal_moves(self) -> tuple[Move, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply(self, move: Move) -> "Position":  # pragma: no cover - abstract
        raise NotImplementedError

    def along(self, line) -> list["Position"]:
        """The positions of ``line`` (move tokens or Moves) played from here:
        [self, after move 1, ..., after move n]. Raises IllegalMoveError at
        the first move that is not legal where it is played."""
        positions = [self]
        position = self
        for move in line:
            position = position.apply(move if isinstance(move, Move) else Move.parse(move))
            positions.append(position)
        return positions


class CruelPosition(Position):
    """Cruel, Semicolon profile: 12 piles, top cards move to the foundation or
    onto the same suit one rank higher, empty piles stay empty, redeal in
    groups of 4 at any time when it changes the layout."""

    __slots__ = ("piles",)
    game = "cruel"

    def __init__(self, piles, foundations=None):
        """Unchecked constructor: ``piles`` is 12 tuples of card ints, base to
        top. Use ``from_notation`` for text from outside."""
        self.piles: tuple[tuple[int, ...], ...] = piles
        if foundations is None:
            foundations = _foundations_from_layout(
                [c for p in piles for c in p], text="", game="cruel"
            )
        self.foundations = foundations

    @classmethod
    def from_notation(cls, text: str) -> "CruelPosition":
        game, rest = _split_game(text)
        if game != "cruel":
            raise InvalidPositionError(f"{text!r} is a {game} position, not a cruel one")
        fields = re.sub(r"\s+", "", rest).split("/")
        if len(fields) != CRUEL_PILES:
            raise InvalidPositionError(
                f"cruel position {text!r}: expected {CRUEL_PILES} piles separated by '/', "
                f"found {len(fields)}"
            )
        piles = []
        for i, field in enumerate(fields, 1):
            try:
                pile = parse_cards(field, where=f"pile {i}")
            except InvalidCardError as exc:
                raise InvalidPositionError(f"cruel position {text!r}: {exc}") from None
            for c in pile:
                if rank(c) == 0:
                    raise InvalidPositionError(
                        f"cruel position {text!r}: pile {i} holds {card_text(c)}, "
                        f"but in Cruel the aces start on the foundations"
                    )
            piles.append(tuple(pile))
        foundations = _foundations_from_layout(
            [c for p in piles for c in p], text=text, game="cruel"
        )
        return cls(tuple(piles), foundations)

    def notation(self) -> str:
        return "cruel " + "/".join(cards_text(p) for p in self.piles)

    def __eq__(self, other):
        return isinstance(other, CruelPosition) and self.piles == other.piles

    def __hash__(self):
        return hash(self.piles)

    def key(self) -> bytes:
        """Canonical state key: pile order matters (it decides the redeal)."""
        return b"\xff".join(bytes(p) for p in self.piles)

    # -- rules ------------------------------------------------------------
    def redeal_layout(self) -> tuple[tuple[int, ...], ...]:
        seq = [c for p in self.piles for c in p]
        return tuple(tuple(seq[i : i + 4]) for i in range(0, 4 * CRUEL_PILES, 4))

    def can_redeal(self) -> bool:
        """A redeal is offered only when it changes the layout; since it keeps
        the order, it changes nothing exactly when the pile sizes already are
        4, 4, ..., the rest, 0, ..."""
        f = self.foundations
        left = 52 - f[0] - f[1] - f[2] - f[3]
        for p in self.piles:
            if left >= 4:
                if len(p) != 4:
                    return True
                left -= 4
            elif len(p) != left:
                return True
            else:
                left = 0
        return False

    def legal_moves(self) -> tuple[Move, ...]:
        piles = self.piles
        f = self.foundations
        tops = {}
        i = 0
        for p in piles:
            if p:
                tops[p[-1]] = i
            i += 1
        moves = []
        for c in tops:
            r = c % 13
            if f[c // 13] == r:
                moves.append(MOVES[c][0])
            if r != KING:
                j = tops.get(c + 1)
                if j is not None:
                    moves.append(MOVES[c][j + 1])
        if self.can_redeal():
            moves.append(REDEAL)
        return tuple(moves)

    def apply(self, move: Move) -> "CruelPosition":
        piles = self.piles
        if move.is_redeal:
            if not self.can_redeal():
                raise self._illegal(move, "a redeal now would give the same layout", "redeal_changes_nothing")
            return CruelPosition(self.redeal_layout(), self.foundations)
        card, target = move
        for src, p in enumerate(piles):
            if p and p[-1] == card:
                break
        else:
            raise self._illegal(
                move, f"{card_text(card)} is not on top of a pile", "not_available", card=card_text(card)
            )
        r = card % 13
        if target == FOUNDATION:
            s = card // 13
            if self.foundations[s] != r:
                raise self._foundation_needs(move)
            new = list(piles)
            new[src] = p[:-1]
            f = list(self.foundations)
            f[s] += 1
            return CruelPosition(tuple(new), tuple(f))
        if not 0 <= target < CRUEL_PILES:
            raise self._illegal(
                move, f"there are only {CRUEL_PILES} piles", "no_such_place",
                target=target + 1, count=CRUEL_PILES,
            )
        dest = piles[target]
        if not dest:
            raise self._illegal(
                move, f"pile {target + 1} is empty, and an empty pile stays empty",
                "empty_pile_stays_empty", target=target + 1,
            )
        if r == KING or dest[-1] != card + 1:
            raise self._illegal(
                move,
                f"pile {target + 1} shows {card_text(dest[-1])}; "
                f"{card_text(card)} goes only onto the same suit one rank higher",
                "not_same_suit_one_higher",
                card=card_text(card), target=target + 1, top=card_text(dest[-1]),
            )
        new = list(piles)
        new[src] = p[:-1]
        new[target] = dest + (card,)
        return CruelPosition(tuple(new), self.foundations)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "notation": self.notation(),
            "piles": [[card_text(c) for c in p] for p in self.piles],
            "foundations": self._foundation_dict(),
            "cards_home": self.cards_home(),
        }


class FlowerPosition(Position):
    """Flower Garden: 6 columns building down in any suit, any card into an
    empty column, a 16-card bouquet whose every card is available."""

    __slots__ = ("columns", "bouquet")
    game = "flower"

    def __init__(self, columns, bouquet, foundations=None):
        """Unchecked constructor; ``from_notation`` checks text from outside."""
        self.columns: tuple[tuple[int, ...], ...] = columns
        self.bouquet: tuple[int, ...] = bouquet
        if foundations is None:
            foundations = _foundations_from_layout(
                [c for col in columns for c in col] + list(bouquet), text="", game="flower"
            )
        self.foundations = foundations

    @classmethod
    def from_notation(cls, text: str) -> "FlowerPosition":
        game, rest = _split_game(text)
        if game != "flower":
            raise InvalidPositionError(f"{text!r} is a {game} position, not a flower one")
        fields = re.sub(r"\s*/\s*", "/", rest).split()
        if len(fields) < 2:
            raise InvalidPositionError(
                f"flower position {text!r}: expected the {FLOWER_COLUMNS} columns, a space, "
                f"then the bouquet ('-' when empty)"
            )
        col_fields = fields[0].split("/")
        if len(col_fields) != FLOWER_COLUMNS:
            raise InvalidPositionError(
                f"flower position {text!r}: expected {FLOWER_COLUMNS} columns separated by '/', "
                f"found {len(col_fields)}"
            )
        try:
            columns = tuple(
                tuple(parse_cards(f, where=f"column {i}")) for i, f in enumerate(col_fields, 1)
            )
            bouquet = tuple(parse_cards("".join(fields[1:]), where="the bouquet"))
        except InvalidCardError as exc:
            raise InvalidPositionError(f"flower position {text!r}: {exc}") from None
        if len(bouquet) > BOUQUET_SIZE:
            raise InvalidPositionError(
                f"flower position {text!r}: the bouquet holds {len(bouquet)} cards, "
                f"but it starts with {BOUQUET_SIZE} and never grows"
            )
        foundations = _foundations_from_layout(
            [c for col in columns for c in col] + list(bouquet), text=text, game="flower"
        )
        return cls(columns, bouquet, foundations)

    def notation(self) -> str:
        return (
            "flower "
            + "/".join(cards_text(c) for c in self.columns)
            + " "
            + cards_text(self.bouquet)
        )

    def __eq__(self, other):
        return (
            isinstance(other, FlowerPosition)
            and self.columns == other.columns
            and self.bouquet == other.bouquet
        )

    def __hash__(self):
        return hash((self.columns, self.bouquet))

    def key(self) -> bytes:
        """Canonical state key: columns are interchangeable and the bouquet
        is a set (every card of it is available), so both are sorted."""
        return (
            b"\xff".join(sorted(bytes(c) for c in self.columns))
            + b"\xfe"
            + bytes(sorted(self.bouquet))
        )

    # -- rules ------------------------------------------------------------
    def is_useful(self, move: Move) -> bool:
        """A column's only card moved into an empty column changes nothing
        that matters (docs/rules/flower.md): legal, but not useful."""
        if move.target < 0:
            return True
        cols = self.columns
        if cols[move.target]:
            return True
        for col in cols:
            if len(col) == 1 and col[0] == move.card:
                return False
        return True

    def legal_moves(self) -> tuple[Move, ...]:
        cols = self.columns
        f = self.foundations
        by_top_rank: dict[int, list[int]] = {}
        empties = []
        for j, col in enumerate(cols):
            if col:
                by_top_rank.setdefault(col[-1] % 13, []).append(j)
            else:
                empties.append(j)
        moves = []
        available = [col[-1] for col in cols if col]
        available.extend(self.bouquet)
        for c in available:
            r = c % 13
            card_moves = MOVES[c]
            if f[c // 13] == r:
                moves.append(card_moves[0])
            for j in by_top_rank.get(r + 1, ()):
                moves.append(card_moves[j + 1])
            for j in empties:
                moves.append(card_moves[j + 1])
        return tuple(moves)

    def apply(self, move: Move) -> "FlowerPosition":
        if move.is_redeal:
            raise self._illegal(move, "Flower Garden has no redeal", "no_redeal")
        card, target = move
        cols = self.columns
        bouquet = self.bouquet
        src = -1
        if card not in bouquet:
            for src, col in enumerate(cols):
                if col and col[-1] == card:
                    break
            else:
                raise self._illegal(
                    move, f"{card_text(card)} is neither a column's top card nor in the bouquet",
                    "not_available", card=card_text(card),
                )
        r = card % 13
        if target == FOUNDATION:
            s = card // 13
            if self.foundations[s] != r:
                raise self._foundation_needs(move)
            f = list(self.foundations)
            f[s] += 1
            foundations = tuple(f)
            new = list(cols)
        else:
            if not 0 <= target < FLOWER_COLUMNS:
                raise self._illegal(
                    move, f"there are only {FLOWER_COLUMNS} columns", "no_such_place",
                    target=target + 1, count=FLOWER_COLUMNS,
                )
            dest = cols[target]
            if target == src:
                raise self._illegal(
                    move, f"{card_text(card)} is already on column {target + 1}", "already_there",
                    card=card_text(card), target=target + 1,
                )
            if dest and dest[-1] % 13 != r + 1:
                raise self._illegal(
                    move,
                    f"column {target + 1} shows {card_text(dest[-1])}; "
                    f"only a card one rank lower goes there",
                    "not_one_rank_lower",
                    card=card_text(card), target=target + 1, top=card_text(dest[-1]),
                )
            foundations = self.foundations
            new = list(cols)
            new[target] = dest + (card,)
        if src >= 0:
            new[src] = cols[src][:-1]
        else:
            i = bouquet.index(card)
            bouquet = bouquet[:i] + bouquet[i + 1 :]
        return FlowerPosition(tuple(new), bouquet, foundations)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "notation": self.notation(),
            "columns": [[card_text(c) for c in col] for col in self.columns],
            "bouquet": [card_text(c) for c in self.bouquet],
            "foundations": self._foundation_dict(),
            "cards_home": self.cards_home(),
        }


GAMES: dict[str, type[Position]] = {"cruel": CruelPosition, "flower": FlowerPosition}
