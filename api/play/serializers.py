"""Input validation and the JSON shapes of docs/API.md."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers

import solitaire
from api import clock
from api.deals.models import Game
from api.play.models import Attempt, Player
from api.play.names import display_name_clean, shown_name


class StrictCharField(serializers.CharField):
    """Text only: DRF's CharField would turn 12 or true into "12"/"True"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: no "7", no 7.0, no true."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


# A day: strictly YYYY-MM-DD (not 20261201, not the ISO week date 2026-W49-2).
DAY_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DayField(serializers.DateField):
    """A date written YYYY-MM-DD; strptime alone would take 2026-1-5."""

    def __init__(self, **kwargs):
        super().__init__(input_formats=["%Y-%m-%d"], **kwargs)

    def to_internal_value(self, value):
        if not isinstance(value, str) or not DAY_PATTERN.fullmatch(value):
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


class DisplayNameField(StrictCharField):
    """A display name, NFC-normalized before its length is checked, so a name
    typed in decomposed form counts its letters, not its code points."""

    def to_internal_value(self, data):
        return unicodedata.normalize("NFC", super().to_internal_value(data))


class QueryMixin:
    """A query parameter given but empty (``?game=``) is an error, not left out
    (DRF skips blank form values of optional fields)."""

    def get_value(self, dictionary):
        if dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)


class QueryChoiceField(QueryMixin, serializers.ChoiceField):
    pass


class QueryDayField(QueryMixin, DayField):
    pass


# -- input -------------------------------------------------------------------------


class CredentialsIn(serializers.Serializer):
    username = StrictCharField(max_length=150, min_length=1)
    password = StrictCharField(max_length=128, min_length=1, trim_whitespace=False)


def _display_name(value: str) -> str:
    try:
        return display_name_clean(value)
    except ValueError as error:
        raise serializers.ValidationError(str(error)) from None


class RegisterIn(CredentialsIn):
    username = serializers.RegexField(r"^[\w.@+-]{3,150}$", max_length=150, min_length=3)
    display_name = DisplayNameField(max_length=40, required=False, allow_blank=True)

    def validate_display_name(self, value):
        return _display_name(value) if value else value

    def validate(self, data):
        # The validators see the new username (UserAttributeSimilarityValidator).
        candidate = get_user_model()(username=data["username"])
        try:
            validate_password(data["password"], user=candidate)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        return data


class PlayerIn(serializers.Serializer):
    display_name = DisplayNameField(max_length=40, min_length=1)

    def validate_display_name(self, value):
        return _display_name(value)


class GameField(serializers.ChoiceField):
    """A game's name, answered as its Game member: checked here, once."""

    def __init__(self, **kwargs):
        super().__init__(choices=Game.values, **kwargs)

    def to_internal_value(self, data):
        return Game(super().to_internal_value(data))


class AttemptStartIn(serializers.Serializer):
    game = GameField()
    date = DayField(required=False)


# A batch holds at most a whole deck's moves home (an auto-finish).
MOVES_PER_REQUEST = 52


class MoveIn(serializers.Serializer):
    """One move (``move``) or several applied in order (``moves``), from ``version``."""

    move = StrictCharField(max_length=16, min_length=1, required=False)
    moves = serializers.ListField(
        child=StrictCharField(max_length=16, min_length=1), min_length=1, max_length=MOVES_PER_REQUEST,
        required=False,
    )
    version = StrictIntegerField(min_value=0)

    def validate(self, data):
        if ("move" in data) == ("moves" in data):
            raise serializers.ValidationError(
                _("Send one move (move) or a list of moves (moves): one of the two.")
            )
        return data


def move_in(data) -> dict | None:
    """MoveIn's answer for the usual body, {"move": "<token>", "version": n},
    checked in plain Python (a DRF serializer costs more than the move);
    None for any other body, which MoveIn then checks and words errors for."""
    if type(data) is not dict or data.keys() != {"move", "version"}:
        return None
    move, version = data["move"], data["version"]
    if (type(move) is str and 0 < len(move) <= 16 and move.isascii() and move.isprintable()
            and move == move.strip() and type(version) is int and version >= 0):
        return {"move": move, "version": version}
    return None


class VersionIn(serializers.Serializer):
    version = StrictIntegerField(min_value=0)


class AttemptListIn(serializers.Serializer):
    game = QueryChoiceField(choices=Game.values, required=False)
    date = QueryDayField(required=False)


class LeaderboardIn(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)


class HistoryIn(serializers.Serializer):
    game = QueryChoiceField(choices=Game.values, required=False)


# -- output ------------------------------------------------------------------------


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


def elapsed_seconds(attempt: Attempt, now: dt.datetime, *, frozen: bool = False) -> float:
    if frozen:  # the record's time, as it stood when the day ended
        return round(attempt.elapsed_ms / 1000, 1)
    end = attempt.ended_at or now
    return round(max(0.0, (end - attempt.started_at).total_seconds()), 1)


def attempt_summary_out(attempt: Attempt, now: dt.datetime) -> dict:
    frozen = attempt.frozen(now)
    return {
        "id": attempt.pk,
        "game": attempt.deal.game,
        "date": attempt.deal.date.isoformat(),
        "ranked": attempt.ranked,
        "status": attempt.status,
        "finished": attempt.finished,
        "version": attempt.version,
        "counters": {
            "cards_home": attempt.cards_home,
            "redeals": attempt.redeals,
            "undos": attempt.undos,
            "moves": attempt.moves,
        },
        "started_at": attempt.started_at.isoformat(),
        "ended_at": attempt.ended_at.isoformat() if attempt.ended_at else None,
        "elapsed_seconds": elapsed_seconds(attempt, now, frozen=frozen),
        "day_ends_at": clock.day_end(attempt.deal.date).isoformat(),
        "frozen": frozen,
    }


def attempt_out(attempt: Attempt, now: dt.datetime, *, replayed: bool = False) -> dict:
    position = attempt.parsed_position()
    summary = attempt_summary_out(attempt, now)
    over = attempt.finished or summary["frozen"]
    legal = [] if over else _legal_by_card(position)
    forced, safe = ((), ()) if over else solitaire.home_moves(position)
    return {
        **summary,
        "position": position.to_dict(),
        "legal": legal,
        "can_redeal": (not over) and attempt.deal.game == "cruel" and position.can_redeal(),
        "can_undo": (not over) and bool(attempt.line),
        "forced": [m.token() for m in forced],
        "safe": [m.token() for m in safe],
        "last_action": attempt.last_action or None,
        "replayed": replayed,
    }

