"""Turning a player's calendar feed on, changing its hour, revoking it."""

from __future__ import annotations

import datetime as dt
import re
import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from api.errors import RegistrationRequired
from api.play.reminders.models import CalendarFeed

TOKEN_BYTES = 32
# What secrets.token_urlsafe writes: anything else (a NUL byte, which
# PostgreSQL refuses in text) names no feed without asking the database.
_TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _registered(user) -> None:
    player = getattr(user, "player", None)
    if player is None or player.is_guest:
        raise RegistrationRequired(
            _("The calendar feed is for registered players: create an account first."))


def feed_of(user) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(user_id=user.pk).first()


def feed_set(*, user, reminder: dt.time, language: str, now: dt.datetime) -> CalendarFeed:
    """Turn the feed on with its reminder at ``reminder``, or change the
    hour of the one that is on (its address stays)."""
    _registered(user)
    try:
        with transaction.atomic():
            feed, _created = CalendarFeed.objects.update_or_create(
                user=user, defaults={"reminder": reminder, "language": language},
                create_defaults={"reminder": reminder, "language": language, "created_at": now,
                                 "token": secrets.token_urlsafe(TOKEN_BYTES)})
    except IntegrityError:  # the same player's other request turned it on first
        feed = CalendarFeed.objects.get(user=user)
        feed.reminder, feed.language = reminder, language
        feed.save(update_fields=["reminder", "language"])
    return feed


def feed_revoke(*, user) -> None:
    """Off: the address stops working at once; turning it on again gives a new one."""
    CalendarFeed.objects.filter(user_id=user.pk).delete()


def feed_by_token(token: str) -> CalendarFeed | None:
    if not _TOKEN_TEXT.fullmatch(token):
        return None
    return CalendarFeed.objects.filter(token=token).first()
