"""The exact solver: three honest answers, budgets as data."""

from ._home import HomeMoves, home_moves
from ._stall import is_stalled
from .search import DEFAULT_MAX_STATES, SolveResult, SolveStatus, hint, solve

__all__ = [
    "DEFAULT_MAX_STATES", "HomeMoves", "SolveResult", "SolveStatus", "hint", "home_moves",
    "is_stalled", "solve",
]
