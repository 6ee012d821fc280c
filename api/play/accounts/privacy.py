"""A player's data: all of it to take away, or all of it deleted.

``player_data`` gathers everything the service keeps about one player (the
account, every attempt with its log and analysis, the records, the
leagues, the calendar feed, the sessions and token as facts); its answer
(MyDataOut in api/play/rest/answers.py) gives all of it but the secrets: no
password hash, session key, token key or feed address. ``account_delete`` removes the user and with it
everything that is theirs (the database cascades from auth_user), ends
every session and token, and drops the cached leaderboard counts of the
deals they were ranked on, so others' ranks are counted again without them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Prefetch
from rest_framework.authtoken.models import Token

from api.play.accounts.lockout import _lockout_key
from api.play.leagues.models import League, LeagueMember
from api.play.models import Attempt, AttemptAction, LoginFailure, Player, Session
from api.play.records import leaderboard, selectors
from api.play.records.selectors import History
from api.play.reminders.models import CalendarFeed


@dataclass(frozen=True)
class PlayerData:
    """Everything kept about one player at ``exported_at``."""

    exported_at: dt.datetime
    player: Player  # with its user: the account
    sessions: list[Session]  # open ones
    token: Token | None
    login_failures: LoginFailure | None
    attempts: list[Attempt]  # each with its deal, its analysis and its actions as ``log``
    records: History
    leagues: list[LeagueMember]  # with their league
    calendar_feed: CalendarFeed | None


def player_data(*, user, player, now: dt.datetime) -> PlayerData:
    """Everything kept about this player."""
    log = Prefetch("actions", queryset=AttemptAction.objects.order_by("number"), to_attr="log")
    return PlayerData(
        exported_at=now,
        player=player,
        sessions=list(Session.objects.filter(user=user, expire_date__gt=now).order_by("expire_date")),
        token=Token.objects.filter(user=user).first(),
        login_failures=LoginFailure.objects.filter(pk=_lockout_key(user.get_username())).first(),
        attempts=list(Attempt.objects.filter(player=user).select_related("deal", "analysis")
                      .prefetch_related(log).order_by("started_at", "id")),
        records=selectors.history(user=user, game=None, now=now),
        leagues=list(LeagueMember.objects.filter(user=user).select_related("league")
                     .order_by("joined_at", "pk")),
        calendar_feed=CalendarFeed.objects.filter(user=user).first(),
    )


def account_delete(*, user) -> dict:
    """Delete the user and everything that is theirs; answers what went."""
    deal_ids = set(Attempt.objects.filter(player=user, ranked=True)
                   .values_list("deal_id", flat=True))
    with transaction.atomic():
        # The rows others may write beside are locked before the cascade is
        # gathered, in the order their writers take them: the user's row
        # (a start, a league made), the attempts (a move's conditional
        # UPDATE), the leagues owned (a join). A write under way lands
        # first and goes with the rest; a later one waits, then finds
        # nothing (not_found, unknown_invite), and no row of theirs can
        # appear after the gathering to fail its foreign key at commit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        attempts = len(Attempt.objects.select_for_update().filter(player=user).values_list("pk"))
        len(League.objects.select_for_update().filter(owner=user).values_list("pk"))
        sessions, _ = Session.objects.filter(user=user).delete()
        Token.objects.filter(user=user).delete()
        LoginFailure.objects.filter(pk=_lockout_key(user.get_username())).delete()
        user.delete()  # the player, attempts, their logs and analyses go with it
    leaderboard.leaderboard_counts_forget(deal_ids)
    return {"attempts": attempts, "sessions": sessions}
