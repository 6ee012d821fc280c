"""The one home of an attempt in the database.

Loading an attempt with its deal, creating one, storing a change with its
new actions on condition of the version it was computed from, reading its
log: every read and write of an attempt's row goes through here, and hands
back plain values (api.play.domain), never a model instance.

- ``load`` is one query, compiled once per connection (api.db), with the
  ORM's converters: aware datetimes on SQLite as on PostgreSQL.
- ``save`` is conditional: it writes only if the row is still at the
  version the change was computed from, so of two writers from one version
  exactly one wins, and a change from an older read never lands. On
  PostgreSQL it is one statement (an UPDATE in a CTE that the INSERT of the
  actions reads: 0.3 ms of CPU against 1.5 ms for the ORM's update and
  bulk_create in a transaction); elsewhere (SQLite, the laptop default) the
  ORM's conditional update() and bulk_create in one transaction.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from functools import cache
from typing import Callable

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q

from api import clock
from api.db import CompiledQuery
from api.deals.models import DailyDeal
from api.play.domain import ActionRecord, AttemptState, Change, MyAttempts
from api.play.models import Attempt, AttemptAction, HintLine

# The state's fields that are the row's columns; the rest come from the deal.
ROW_FIELDS = tuple(
    f.name for f in dataclasses.fields(AttemptState)
    if f.name in {field.attname for field in Attempt._meta.concrete_fields}
)
# What a change writes: every column a change may alter.
_WRITTEN = tuple(name for name in ROW_FIELDS if name not in AttemptState.FIXED)
_MAX_ID = 2**63 - 1

_LOAD = CompiledQuery(
    lambda attempt_id, player_id: Attempt.objects.filter(
        pk=attempt_id, player_id=player_id).values_list(*ROW_FIELDS, "deal__game", "deal__date"),
    params=2,
)
_ACTIONS_AFTER = CompiledQuery(
    lambda attempt_id, number: AttemptAction.objects.filter(
        attempt_id=attempt_id, number__gt=number).order_by("number").values_list(
        "number", "kind", "move", "at"),
    params=2,
)


def _state(row: tuple) -> AttemptState:
    values = dict(zip(ROW_FIELDS, row))
    game, date = row[len(ROW_FIELDS):]
    return AttemptState(**values, game=game, date=date, day_ends_at=clock.day_end(date))


def load(*, attempt_id: int, player_id: int) -> AttemptState | None:
    """The player's attempt with its deal (one query), or None."""
    if not 0 < attempt_id <= _MAX_ID:
        return None
    row = _LOAD.first(attempt_id, player_id)
    return None if row is None else _state(row)


def actions_after(*, attempt_id: int, number: int) -> list[ActionRecord]:
    """The attempt's log after action ``number``, in order."""
    return [ActionRecord(*row) for row in _ACTIONS_AFTER.rows(attempt_id, number)]


def save(change: Change) -> bool:
    """Store the change's state and log its actions, on condition that the
    row is still at ``change.from_version``. False: another change landed
    first, and nothing was written."""
    if connection.vendor == "postgresql":
        return _save_in_one_statement(change)
    with transaction.atomic():
        state = change.state
        updated = Attempt.objects.filter(pk=state.id, version=change.from_version).update(
            **{name: getattr(state, name) for name in _WRITTEN})
        if updated != 1:
            return False
        AttemptAction.objects.bulk_create(
            AttemptAction(attempt_id=state.id, number=a.number, kind=a.kind, move=a.move, at=a.at)
            for a in change.actions)
    return True


@cache
def _one_statement_sql(actions: int) -> tuple[str, tuple]:
    a, b = Attempt._meta, AttemptAction._meta
    by_attname = {field.attname: field for field in a.concrete_fields}
    fields = tuple(by_attname[name] for name in _WRITTEN)
    sets = ", ".join(f'"{field.column}" = %s' for field in fields)
    values = ", ".join(["(%s, %s, %s, %s, %s)"] * actions)
    action_columns = ", ".join(
        f'"{b.get_field(name).column}"' for name in ("attempt", "number", "kind", "move", "at"))
    sql = (
        f'WITH moved AS (UPDATE "{a.db_table}" SET {sets} '
        f'WHERE "{a.pk.column}" = %s AND "{a.get_field("version").column}" = %s RETURNING 1) '
        f'INSERT INTO "{b.db_table}" ({action_columns}) SELECT v.* FROM (VALUES {values}) AS v, moved'
    )
    return sql, fields


def _save_in_one_statement(change: Change) -> bool:
    """PostgreSQL: the UPDATE ... WHERE version = v locks the row while it
    runs, and the actions are inserted only if it happened (the unique
    (attempt, number) stands behind it too). One round trip."""
    state = change.state
    sql, fields = _one_statement_sql(len(change.actions))
    # psycopg adapts these values as the fields would (text, integers,
    # booleans, aware datetimes), at a fraction of get_db_prep_save's cost.
    params = [getattr(state, field.attname) for field in fields]
    params += [state.id, change.from_version]
    for action in change.actions:
        params += [state.id, action.number, action.kind, action.move, action.at]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount == len(change.actions)


def create(*, player_id: int, deal: DailyDeal, start: str, status: str, cards_home: int,
           now: dt.datetime, decide: Callable[[MyAttempts], bool],
           is_retry: bool = False) -> AttemptState | None:
    """A new attempt on ``deal``, ranked or practice as ``decide`` says from
    the player's attempts on the deal (it raises to refuse). A player's
    starts take turns on the player's user row, so each counts the ones
    before it, however many start at once; a second tab starting a ranked
    attempt at the same moment gets practice (the database allows one
    ranked attempt per player and deal). ``is_retry``: started by "try
    again from here". A player whose account was deleted meanwhile starts
    nothing: None."""
    with transaction.atomic():
        if not get_user_model().objects.select_for_update().filter(pk=player_id).exists():
            return None
        counts = Attempt.objects.filter(player_id=player_id, deal=deal).aggregate(
            total=Count("id"), ranked_count=Count("id", filter=Q(ranked=True)),
            open_count=Count("id", filter=Q(ranked=True, ended_at__isnull=True)))
        ranked = decide(MyAttempts(total=counts["total"], ranked=counts["ranked_count"],
                                   ranked_open=counts["open_count"]))
        fields = dict(player_id=player_id, deal=deal, is_retry=is_retry,
                      start_position=start, position=start,
                      cards_home=cards_home, status=status, started_at=now, last_action_at=now)
        attempt = None
        if ranked:
            try:
                with transaction.atomic():
                    attempt = Attempt.objects.create(ranked=True, **fields)
            except IntegrityError:
                pass
        if attempt is None:
            attempt = Attempt.objects.create(ranked=False, **fields)
    return state_of(attempt)


def state_of(attempt: Attempt) -> AttemptState:
    """The state of an attempt the ORM read (with its deal)."""
    return AttemptState(
        **{name: getattr(attempt, name) for name in ROW_FIELDS},
        game=attempt.deal.game, date=attempt.deal.date,
        day_ends_at=clock.day_end(attempt.deal.date))


def load_any(*, attempt_id: int) -> AttemptState | None:
    """Any player's attempt with its deal (for the workers), or None."""
    attempt = Attempt.objects.select_related("deal").filter(pk=attempt_id).first()
    return None if attempt is None else state_of(attempt)


def ranked_open(*, player_id: int, deal_id: int) -> bool:
    """Is the player's ranked attempt on this deal still being played?"""
    return Attempt.objects.filter(
        player_id=player_id, deal_id=deal_id, ranked=True, ended_at__isnull=True).exists()


def hint_line_get(*, attempt_id: int) -> tuple[str, list[str]] | None:
    """(start, moves) of the line the attempt's last hint came from, or None."""
    row = HintLine.objects.filter(pk=attempt_id).values_list("start", "line").first()
    return None if row is None else (row[0], row[1].split())


def hint_line_keep(*, attempt_id: int, start: str, line: list[str]) -> None:
    """The attempt's hints follow this line from now on."""
    values = {"start": start, "line": " ".join(line)}
    try:
        with transaction.atomic():
            HintLine.objects.update_or_create(pk=attempt_id, defaults=values)
    except IntegrityError:  # another request kept one at the same moment: this one replaces it
        HintLine.objects.filter(pk=attempt_id).update(**values)
