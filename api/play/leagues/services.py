"""A league's life: made by a registered player, joined by its invite code,
left by a member, a member removed or the whole league closed by its owner.

Every read goes through ``league_of_member``: to anyone not in the league,
it does not exist (NotFound, as for an unknown id)."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from api import errors
from api.play.leagues.models import League, LeagueMember

# 24 random bytes: 32 URL-safe characters, no one guesses them.
INVITE_BYTES = 24


def _invite_code() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def registered_check(user) -> None:
    """Forbidden registration_required for a guest (leagues, the calendar feed)."""
    player = getattr(user, "player", None)
    if player is None or player.is_guest:
        raise errors.RegistrationRequired(
            _("Leagues are for registered players: create an account first."))


def _league_not_found() -> errors.NotFound:
    return errors.NotFound(_("No such league among yours."))


def league_of_member(*, user, league_id: int) -> League:
    """The league, when ``user`` is one of its members; else NotFound."""
    league = League.objects.filter(pk=league_id, members__user=user).first()
    if league is None:
        raise _league_not_found()
    return league


def _owned(*, user, league_id: int) -> League:
    league = league_of_member(user=user, league_id=league_id)
    if league.owner_id != user.pk:
        raise errors.NotLeagueOwner()
    return league


@dataclass(frozen=True)
class Invite:
    """What an invite link names, for anyone who holds it (a guest too)."""

    league: League
    invited_by: str  # the owner's display name
    member_count: int
    is_member: bool  # the reader is in the league already


def invite_read(*, user, code: str) -> Invite:
    """The league an invite code names: the code is the whole secret, so its
    holder may read the league's name and owner before joining (or
    registering to join); an unknown or renewed code is NotFound."""
    league = League.objects.select_related("owner__player").filter(invite_code=code).first()
    if league is None:
        raise errors.UnknownInvite()
    members = LeagueMember.objects.filter(league=league)
    return Invite(league=league, invited_by=league.owner.player.display_name,
                  member_count=members.count(),
                  is_member=user.is_authenticated and members.filter(user=user).exists())


def leagues_of(*, user):
    """The user's leagues, by name, each with its ``member_count``."""
    return (League.objects.filter(pk__in=LeagueMember.objects.filter(user=user)
                                  .values("league_id"))
            .annotate(member_count=Count("members")).order_by("name", "pk"))


def league_create(*, user, name: str, now: dt.datetime) -> League:
    """A new league named ``name`` (already cleaned), its owner its first member."""
    registered_check(user)
    with transaction.atomic():
        # An owner's creates take turns on the owner's user row, so each
        # counts the ones before it, however many arrive at once.
        if not get_user_model().objects.select_for_update().filter(pk=user.pk).exists():
            raise errors.NotFound(_("This account no longer exists."))
        if League.objects.filter(owner=user).count() >= settings.LEAGUES_PER_OWNER:
            raise errors.LeagueLimit(
                _("You own %(n)s leagues already, the most one player may: close one first.")
                % {"n": settings.LEAGUES_PER_OWNER})
        league = League.objects.create(name=name, owner=user, invite_code=_invite_code(),
                                       created_at=now)
        LeagueMember.objects.create(league=league, user=user, joined_at=now)
    return league


def league_join(*, user, code: str, now: dt.datetime) -> League:
    """Join the league whose invite code is ``code`` (joining twice changes
    nothing). A full league answers Conflict league_full."""
    registered_check(user)
    with transaction.atomic():
        # Locked: two joins at once cannot both take the last place.
        league = League.objects.select_for_update().filter(invite_code=code).first()
        if league is None:
            raise errors.UnknownInvite()
        if LeagueMember.objects.filter(league=league, user=user).exists():
            return league
        if LeagueMember.objects.filter(league=league).count() >= settings.LEAGUE_MAX_MEMBERS:
            raise errors.LeagueFull(_("This league is full (%(n)s members).")
                                    % {"n": settings.LEAGUE_MAX_MEMBERS})
        try:
            with transaction.atomic():
                LeagueMember.objects.create(league=league, user=user, joined_at=now)
        except IntegrityError:
            pass  # the same player's other request joined first
    return league


def league_leave(*, user, league_id: int) -> None:
    league = league_of_member(user=user, league_id=league_id)
    if league.owner_id == user.pk:
        raise errors.OwnerStays()
    LeagueMember.objects.filter(league=league, user=user).delete()


def member_remove(*, user, league_id: int, member_id: int) -> None:
    """The owner removes a member (``member_id``: the membership's id)."""
    league = _owned(user=user, league_id=league_id)
    member = LeagueMember.objects.filter(league=league, pk=member_id).first()
    if member is None:
        raise errors.NotFound(_("No such member in this league."))
    if member.user_id == league.owner_id:
        raise errors.OwnerStays()
    member.delete()


def invite_renew(*, user, league_id: int) -> League:
    """A new invite code; the old link stops working at once."""
    league = _owned(user=user, league_id=league_id)
    league.invite_code = _invite_code()
    league.save(update_fields=["invite_code"])
    return league


def league_close(*, user, league_id: int) -> None:
    """Close the league: it and its memberships are deleted (records stay).
    The league's row is locked before its members are gathered: a join
    under way lands first and goes with it, a later one finds no league
    (unknown_invite)."""
    with transaction.atomic():
        league = _owned(user=user, league_id=league_id)
        if not League.objects.select_for_update().filter(pk=league.pk).exists():
            return  # closed meanwhile by the owner's other request
        league.delete()
