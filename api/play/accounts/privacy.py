"""A player's data: all of it to take away, or all of it deleted.

``player_data`` is everything the service keeps about one player (the
account, every attempt with its log and analysis, the records, the
leagues, the calendar feed, the sessions and token as facts), and never a
secret: no password hash, session key, token key or feed address. ``account_delete`` removes the user and with it
everything that is theirs (the database cascades from auth_user), ends
every session and token, and drops the cached leaderboard counts of the
deals they were ranked on, so others' ranks are counted again without them.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from rest_framework.authtoken.models import Token

from api.play.accounts.lockout import _lockout_key
from api.play.leagues.models import LeagueMember
from api.play.models import Attempt, AttemptAction, AttemptAnalysis, LoginFailure, Session
from api.play.names import shown_name
from api.play.records import selectors
from api.play.reminders.models import CalendarFeed


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _analysis(analysis: AttemptAnalysis | None) -> dict | None:
    if analysis is None:
        return None
    return {
        "state": analysis.state,
        "verdict": analysis.verdict or None,
        "lost_at": analysis.lost_at,
        "lost_move": analysis.lost_move or None,
        "keeping_line": analysis.keeping_line.split(),
        "analysed_at": _iso(analysis.analysed_at),
    }


def _attempt(attempt: Attempt, actions: list[AttemptAction]) -> dict:
    analysis = getattr(attempt, "analysis", None) if hasattr(attempt, "analysis") else None
    return {
        "id": attempt.pk,
        "game": attempt.deal.game,
        "date": attempt.deal.date.isoformat(),
        "ranked": attempt.ranked,
        "status": attempt.status,
        "cards_home": attempt.cards_home,
        "moves": attempt.moves,
        "undos": attempt.undos,
        "redeals": attempt.redeals,
        "elapsed_seconds": round(attempt.elapsed_ms / 1000, 1),
        "machine_pace": attempt.machine_pace,
        "started_at": _iso(attempt.started_at),
        "last_action_at": _iso(attempt.last_action_at),
        "ended_at": _iso(attempt.ended_at),
        "start_position": attempt.start_position,
        "position": attempt.position,
        "line": attempt.line.split(),
        "log": [{"number": a.number, "kind": a.kind, "move": a.move or None, "at": _iso(a.at)}
                for a in actions],
        "analysis": _analysis(analysis),
    }


def player_data(*, user, player, now: dt.datetime) -> dict:
    """Everything kept about this player, as one JSON document."""
    attempts = list(Attempt.objects.filter(player=user).select_related("deal", "analysis")
                    .order_by("started_at", "id"))
    logs: dict[int, list[AttemptAction]] = {}
    for action in AttemptAction.objects.filter(attempt__player=user).order_by("attempt", "number"):
        logs.setdefault(action.attempt_id, []).append(action)
    sessions = Session.objects.filter(user=user, expire_date__gt=now).order_by("expire_date")
    token = Token.objects.filter(user=user).first()
    failure = LoginFailure.objects.filter(pk=_lockout_key(user.get_username())).first()
    username = user.get_username()
    memberships = (LeagueMember.objects.filter(user=user).select_related("league")
                   .order_by("joined_at", "pk"))
    feed = CalendarFeed.objects.filter(user=user).first()
    return {
        "exported_at": now.isoformat(),
        "account": {
            "id": user.pk,
            "username": username,
            "display_name": shown_name(display_name=player.display_name,
                                       is_guest=player.is_guest, username=username),
            "is_guest": player.is_guest,
            "has_password": user.has_usable_password(),
            "joined_at": _iso(user.date_joined),
            "last_seen_at": _iso(user.last_login),
        },
        "sessions": [{"expires_at": _iso(s.expire_date)} for s in sessions],
        "token": None if token is None else {
            "issued_at": _iso(token.created),
            "expires_at": _iso(token.created + dt.timedelta(seconds=settings.API_TOKEN_TTL_SECONDS)),
        },
        "login_failures": None if failure is None else {
            "failures": failure.failures,
            "last_failure_at": _iso(failure.last_failure_at),
            "locked_until": _iso(failure.locked_until),
        },
        "attempts": [_attempt(a, logs.get(a.pk, [])) for a in attempts],
        "records": selectors.history(user=user, game=None, now=now),
        "leagues": [{"name": m.league.name, "is_owner": m.league.owner_id == user.pk,
                     "joined_at": _iso(m.joined_at)} for m in memberships],
        "calendar_feed": None if feed is None else {
            "reminder": feed.reminder.strftime("%H:%M"), "language": feed.language,
            "turned_on_at": _iso(feed.created_at),
        },
    }


def account_delete(*, user) -> dict:
    """Delete the user and everything that is theirs; answers what went."""
    deal_ids = set(Attempt.objects.filter(player=user, ranked=True)
                   .values_list("deal_id", flat=True))
    with transaction.atomic():
        attempts = Attempt.objects.filter(player=user).count()
        sessions, _ = Session.objects.filter(user=user).delete()
        Token.objects.filter(user=user).delete()
        LoginFailure.objects.filter(pk=_lockout_key(user.get_username())).delete()
        user.delete()  # the player, attempts, their logs and analyses go with it
    selectors.leaderboard_counts_forget(deal_ids)
    return {"attempts": attempts, "sessions": sessions}
