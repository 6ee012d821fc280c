"""The exact solver: three honest answers, budgets as data."""

from ._stall import is_stalled
from .search import DEFAULT_MAX_STATES, SolveResult, SolveStatus, hint, solve

__all__ = ["DEFAULT_MAX_STATES", "SolveResult", "SolveStatus", "hint", "is_stalled", "solve"]
