"""A game in progress: a position plus its history, undo and record counters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .moves import Move
from .position import Outcome, Position


@dataclass(frozen=True)
class Record:
    """The personal record the rules describe (docs/rules/)."""

    cards_home: int
    redeals: int
    undos: int
    moves: int


class LegalMoveView:
    """Lazy view of a board's legal moves: iterate, ``in``, ``count()``."""

    __slots__ = ("_board",)

    def __init__(self, board: "Board"):
        self._board = board

    def __iter__(self):
        return iter(self._board.position.legal_moves())

    def __contains__(self, move) -> bool:
        return isinstance(move, Move) and self._board.position.is_legal(move)

    def __len__(self) -> int:
        return len(self._board.position.legal_moves())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._board.position.legal_moves())

    def __repr__(self) -> str:
        return f"<LegalMoveView ({', '.join(m.token() for m in self)})>"


class Board:
    """Undo restores an exact snapshot (positions are immutable), so an undone
    redeal gives back the very layout it replaced.

    ``redeals`` counts the redeals in the line being played (an undone redeal
    no longer counts); ``undos`` counts every undo, as the record asks."""

    def __init__(self, position: Position, *, undos: int = 0):
        self.position = position
        self.move_stack: list[Move] = []
        self._snapshots: list[Position] = []
        self.undos = undos
        self._start = position
        self._unreplayed = 0  # leading moves whose earlier positions are not built yet

    @classmethod
    def resume(cls, start: Position, moves: Sequence[Move], position: Position, *,
               undos: int = 0) -> "Board":
        """The board a stored game left: ``moves`` played from ``start`` lead
        to ``position`` (trusted, as its store checked them; not replayed).
        The positions along the line are rebuilt from ``start`` only when an
        undo reaches back into it."""
        board = cls(start, undos=undos)
        board.move_stack = list(moves)
        board.position = position
        board._unreplayed = len(board.move_stack)
        return board

    @property
    def legal_moves(self) -> LegalMoveView:
        return LegalMoveView(self)

    def is_legal(self, move: Move) -> bool:
        return self.position.is_legal(move)

    def push(self, move: Move | str) -> None:
        """Make a move; raises IllegalMoveError (changing nothing) if illegal."""
        if isinstance(move, str):
            move = Move.parse(move)
        new = self.position.apply(move)
        self._snapshots.append(self.position)
        self.move_stack.append(move)
        self.position = new

    def pop(self) -> Move:
        """Take back the last move without counting it as an undo."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        if not self._snapshots:
            self._rebuild_snapshots()
        self.position = self._snapshots.pop()
        return self.move_stack.pop()

    def _rebuild_snapshots(self) -> None:
        """The positions before each move of a resumed line, from its start."""
        before, position = [], self._start
        for move in self.move_stack[: self._unreplayed]:
            before.append(position)
            position = position.apply(move)
        self._snapshots[:0] = before
        self._unreplayed = 0

    def undo(self) -> Move:
        """Take back the last move, counted in the record."""
        move = self.pop()
        self.undos += 1
        return move

    @property
    def redeals(self) -> int:
        return sum(1 for m in self.move_stack if m.is_redeal)

    def outcome(self) -> Outcome:
        return self.position.outcome()

    def record(self) -> Record:
        return Record(
            cards_home=self.position.cards_home(),
            redeals=self.redeals,
            undos=self.undos,
            moves=len(self.move_stack),
        )
