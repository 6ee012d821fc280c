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
    """A well-formed move that the rules do not allow in this position."""
