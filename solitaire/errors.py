"""Errors the engine raises. All are ``ValueError`` subclasses whose message is
safe to show to a person: it names the input and, for moves, the position."""


class SolitaireError(ValueError):
    """Base of every error the engine raises about its input."""


class InvalidCardError(SolitaireError):
    """Text that is not a card."""


class InvalidPositionError(SolitaireError):
    """Position notation that cannot describe a position of the game."""


class InvalidMoveError(SolitaireError):
    """A move token that is not well formed."""


class IllegalMoveError(SolitaireError):
    """A well-formed move that the rules do not allow in this position.

    Besides the English message, ``reason`` is a stable code and ``params``
    its values (card and pile text), so a caller can say why in any language:

    ``redeal_changes_nothing``, ``no_redeal``, ``not_available`` (card),
    ``foundation_needs`` (card, needs), ``no_such_place`` (target, count),
    ``empty_pile_stays_empty`` (target), ``not_same_suit_one_higher``
    (card, target, top), ``already_there`` (card, target),
    ``not_one_rank_lower`` (card, target, top)."""

    def __init__(self, message: str, *, move: str = "", reason: str = "", params=None):
        super().__init__(message)
        self.move = move
        self.reason = reason
        self.params = dict(params or {})
