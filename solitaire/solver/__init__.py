"""The exact solver: three honest answers, budgets as data."""

from .search import SolveResult, SolveStatus, hint, is_stalled, solve

__all__ = ["SolveResult", "SolveStatus", "hint", "is_stalled", "solve"]
