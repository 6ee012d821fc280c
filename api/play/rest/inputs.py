"""Input validation: what a request may send (docs/API.md), checked once."""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

import solitaire
from api import clock
from api.deals.models import Game
from api.play.names import display_name_clean, has_invisible
from api.play.rest.shapes import FieldsOnce


class StrictCharField(serializers.CharField):
    """Text only: DRF's CharField would turn 12 or true into "12"/"True"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictRegexField(serializers.RegexField):
    """Text matching a pattern: no 12345 read as "12345"."""

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


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false only: no "yes", no 1."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class DayField(serializers.DateField):
    """A date written YYYY-MM-DD (api.clock.parse_day)."""

    def __init__(self, **kwargs):
        super().__init__(input_formats=["%Y-%m-%d"], **kwargs)

    def to_internal_value(self, value):
        try:
            return clock.parse_day(value)
        except ValueError:
            self.fail("invalid", format="YYYY-MM-DD")


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


class QueryIntegerField(QueryMixin, serializers.IntegerField):
    """An integer written as one: digits, a minus sign at most (no " 7", no
    "7.0", no "+7", no "07"), as the schema's integer is written."""

    def to_internal_value(self, data):
        if not isinstance(data, str) or not re.fullmatch(r"-?(0|[1-9][0-9]*)", data):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryBooleanField(QueryMixin, serializers.BooleanField):
    """true or false, as the schema's boolean is written (no "1", "yes", "True")."""

    default_empty_html = empty  # left out: the default (DRF's reads an HTML checkbox)

    def to_internal_value(self, data):
        if data not in ("true", "false"):
            self.fail("invalid", input=data)
        return data == "true"


# -- input -------------------------------------------------------------------------


class Input(FieldsOnce, serializers.Serializer):
    # A request's input, its fields built once per class. No docstring: the
    # schema would give it as the description of every input without one.
    # DRF's own message names the Python type it got.
    default_error_messages = {"invalid": gettext_lazy("The body must be a JSON object.")}


class QueryIn(Input):
    # A request's query parameters (a QueryDict). Each given once: the schema
    # describes one value a parameter, and DRF would read only the last.

    def to_internal_value(self, data):
        repeated = [name for name in self.fields if len(data.getlist(name)) > 1]
        if repeated:
            raise serializers.ValidationError(
                {name: [_("Give this parameter once.")] for name in repeated})
        return super().to_internal_value(data)


class CredentialsIn(Input):
    username = StrictCharField(max_length=150, min_length=1)
    password = StrictCharField(max_length=128, min_length=1, trim_whitespace=False)


def _display_name(value: str) -> str:
    try:
        return display_name_clean(value)
    except ValueError as error:
        raise serializers.ValidationError(str(error)) from None


class RegisterIn(CredentialsIn):
    username = StrictRegexField(r"^[\w.@+-]{3,150}$", max_length=150, min_length=3)
    display_name = DisplayNameField(max_length=40, required=False, allow_blank=True)

    def validate_username(self, value):
        if has_invisible(value):
            raise serializers.ValidationError(
                _("A username cannot contain characters that draw nothing."))
        return value

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


class PlayerIn(Input):
    display_name = DisplayNameField(max_length=40, min_length=1)

    def validate_display_name(self, value):
        return _display_name(value)


class AccountDeleteIn(Input):
    """What deleting an account asks: a registered player's password, a guest's confirmation."""

    password = StrictCharField(max_length=128, min_length=1, trim_whitespace=False, required=False,
                               help_text="A registered player's password (required for them).")
    confirm = StrictBooleanField(
        required=False, default=False,
        help_text="A guest: true to confirm (a registered player gives the password instead).")


class GameField(serializers.ChoiceField):
    """A game's name, answered as its Game member: checked here, once."""

    def __init__(self, **kwargs):
        super().__init__(choices=Game.values, **kwargs)

    def to_internal_value(self, data):
        return Game(super().to_internal_value(data))


class AttemptStartIn(Input):
    game = GameField()
    date = DayField(required=False)


# A batch holds at most a whole deck's moves home (an auto-finish).
MOVES_PER_REQUEST = 52


MOVE_TOKEN_LENGTH = 16


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": MOVE_TOKEN_LENGTH,
                      "pattern": solitaire.MOVE_TOKEN_PATTERN,
                      "description": "A move token (docs/notation.md): 4D>2, KS>F, R."})
class MoveTokenField(StrictCharField):
    """A move token: its shape is the engine's (solitaire.MOVE_TOKEN_PATTERN,
    given in the schema), and the engine reads it, with its own message for
    a text that is not a move."""

    def __init__(self, **kwargs):
        super().__init__(max_length=MOVE_TOKEN_LENGTH, min_length=1, **kwargs)


class MoveIn(Input):
    """One move (``move``) or several applied in order (``moves``), from ``version``."""

    move = MoveTokenField(required=False)
    moves = serializers.ListField(
        child=MoveTokenField(), min_length=1, max_length=MOVES_PER_REQUEST, required=False,
    )
    version = StrictIntegerField(min_value=0)

    def validate(self, data):
        if ("move" in data) == ("moves" in data):
            raise serializers.ValidationError(
                _("Send one move (move) or a list of moves (moves): one of the two.")
            )
        return data


class VersionIn(Input):
    version = StrictIntegerField(min_value=0)


class RetryIn(Input):
    """Try again from the position before this move of the attempt's line (1 = the first)."""

    move_number = StrictIntegerField(min_value=1)


class AttemptListIn(QueryIn):
    game = QueryChoiceField(choices=Game.values, required=False)
    date = QueryDayField(required=False)
    page = QueryIntegerField(min_value=1, required=False,
                             help_text="A page of the list, from 1 (past the last: 404).")


class LeaderboardIn(QueryIn):
    limit = QueryIntegerField(min_value=1, max_value=100, default=20)
    registered = QueryBooleanField(
        default=False,
        help_text="true: registered players only (guests left out of entries, total and me).")


class HistoryIn(QueryIn):
    game = QueryChoiceField(choices=Game.values, required=False)


class AnalysisIn(QueryIn):
    steps = QueryBooleanField(
        default=False, help_text="true: the positions along both lines, for the replay.")
