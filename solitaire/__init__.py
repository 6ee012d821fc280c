"""Cruel and Flower Garden: rules engine, notation and solver.

Pure Python; imports nothing from Django. See docs/ARCHITECTURE.md."""

from .board import Board, LegalMoveView, Record
from .cards import card_name, card_text, parse_card
from .deal import deal
from .errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidPositionError,
    SolitaireError,
)
from .moves import FOUNDATION, MOVE_TOKEN_PATTERN, REDEAL, Move, moves_text, parse_moves
from .position import (
    GAMES,
    CruelPosition,
    FlowerPosition,
    Outcome,
    Position,
    Status,
    parse_position,
)
from .solver import SolveResult, SolveStatus, hint, home_moves, is_stalled, solve

__all__ = [
    "Board", "LegalMoveView", "Record", "card_name", "card_text", "parse_card", "deal",
    "IllegalMoveError", "InvalidCardError", "InvalidMoveError", "InvalidPositionError",
    "SolitaireError", "FOUNDATION", "MOVE_TOKEN_PATTERN", "REDEAL", "Move", "moves_text", "parse_moves",
    "GAMES", "CruelPosition", "FlowerPosition", "Outcome", "Position", "Status",
    "parse_position", "SolveResult", "SolveStatus", "hint", "home_moves", "is_stalled", "solve",
]
