"""The JSON shapes of the answers (docs/API.md), from plain values: shaping
only, no queries."""

from __future__ import annotations

import datetime as dt

import solitaire
from api.deals.difficulty import difficulty_level
from api.play.domain import AttemptState
from api.play.models import Player
from api.play.names import shown_name


def player_out(player: Player) -> dict:
    return {
        "id": player.user_id,
        "username": player.user.get_username(),
        "display_name": shown_name(display_name=player.display_name, is_guest=player.is_guest,
                                   username=player.user.get_username()),
        "is_guest": player.is_guest,
    }


def _legal_by_card(position) -> list[dict]:
    grouped: dict[str, list[str]] = {}
    for move in position.legal_moves():
        if move.is_redeal:
            continue
        card, target = move.token().split(">")
        grouped.setdefault(card, []).append(target)
    return [{"card": card, "targets": targets} for card, targets in grouped.items()]


def deal_out(deal, *, today: dt.date, my_attempts: list[AttemptState], won_share: float | None,
             now: dt.datetime) -> dict:
    """A day's deal; once the day is over, its position, solution and the
    share of ranked players who won it too."""
    day_over = deal.date < today
    out = {
        "game": deal.game,
        "date": deal.date.isoformat(),
        "ready": deal.is_verified,
        "difficulty": deal.difficulty,
        "difficulty_level": difficulty_level(deal.game, deal.difficulty),
        "solution_length": deal.solution_length,
        "redeals": deal.redeals,
        "day_over": day_over,
    }
    if day_over and deal.is_verified:
        out["position"] = solitaire.parse_position(deal.position).to_dict()
        out["solution"] = deal.certificate
        out["won_share"] = won_share
    out["my_attempts"] = [attempt_summary_out(state, now) for state in my_attempts]
    return out


def attempt_summary_out(state: AttemptState, now: dt.datetime) -> dict:
    return {
        "id": state.id,
        "game": state.game,
        "date": state.date.isoformat(),
        "ranked": state.ranked,
        "status": state.status,
        "finished": state.finished,
        "version": state.version,
        "counters": {
            "cards_home": state.cards_home,
            "redeals": state.redeals,
            "undos": state.undos,
            "moves": state.moves,
        },
        "started_at": state.started_at.isoformat(),
        "ended_at": state.ended_at.isoformat() if state.ended_at else None,
        "elapsed_seconds": state.elapsed_seconds(now),
        "day_ends_at": state.day_ends_at.isoformat(),
        "frozen": state.frozen(now),
    }


def attempt_out(state: AttemptState, now: dt.datetime, *, replayed: bool = False) -> dict:
    position = state.parsed_position
    over = state.over(now)
    forced, safe = ((), ()) if over else solitaire.home_moves(position)
    return {
        **attempt_summary_out(state, now),
        "position": position.to_dict(),
        "legal": [] if over else _legal_by_card(position),
        "can_redeal": (not over) and state.game == "cruel" and position.can_redeal(),
        "can_undo": (not over) and bool(state.line),
        "forced": [m.token() for m in forced],
        "safe": [m.token() for m in safe],
        "last_action": state.last_action or None,
        "replayed": replayed,
    }


def _notation(positions) -> list[str]:
    """Positions as the replay gets them, in notation: a long practice line
    costs a fraction of structured layouts, in CPU and in bytes
    (benchmarks/replay_bench.py)."""
    return [position.notation() for position in positions]


def analysis_out(state: AttemptState, found: dict, *, steps: bool = False) -> dict:
    """An attempt's analysis: pending, or done with its verdict. "lost"
    names the move that lost the win and the move that kept it, and once
    the day is over (not ``sealed``) the line that kept it; "undecided"
    says the budget decided nothing for sure, and carries no verdict.
    With ``steps``, the positions of the attempt's line and of the keeping
    line when it is given, for the replay."""
    line = state.line.split()
    out = {
        "attempt_id": state.id,
        "game": state.game,
        "date": state.date.isoformat(),
        "status": found["status"],
        "verdict": found.get("verdict"),
        "lost_at": None,
        "moves": line,
        "mine": {"moves": state.moves, "redeals": state.redeals},
        "par": found["par"],
        "sealed": found["sealed"],
        "day_ends_at": state.day_ends_at.isoformat(),
    }
    if found.get("verdict") == "lost":
        out["lost_at"] = {"move_number": found["lost_at"], "move": found["lost_move"],
                          "keeping_move": found["keeping_move"]}
        if "keeping_line" in found:
            out["lost_at"]["keeping_line"] = found["keeping_line"]
    if found["status"] == "done" and "solver_calls" in found:
        out["solver_calls"] = found["solver_calls"]
    if steps:
        mine = solitaire.parse_position(state.start_position).along(line)
        out["positions"] = _notation(mine)
        if out["lost_at"] and "keeping_line" in out["lost_at"]:
            before = mine[out["lost_at"]["move_number"] - 1]
            out["lost_at"]["keeping_positions"] = _notation(before.along(out["lost_at"]["keeping_line"]))
    return out
