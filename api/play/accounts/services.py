"""Players: the guest made on a first visit, registration, display names."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from api import clock
from api.errors import AlreadyRegistered, DisplayNameTaken, UsernameTaken
from api.play.models import Attempt, Player
from api.play.names import (
    display_name_from_username,
    display_name_key,
    guest_name_is_made_up,
    guest_name_new,
)
from api.play.records.leaderboard import leaderboard_counts_forget

User = get_user_model()



def player_get_or_create(*, user) -> Player:
    """The user's player; a user made without one (the admin's) gets one
    named after its username when that name cleans (else the username's
    made-up guest style is not used: a fixed "Player N")."""
    player = getattr(user, "player", None)
    if player is None:
        name = display_name_from_username(user.get_username())
        try:
            with transaction.atomic():
                player, _created = Player.objects.get_or_create(
                    user=user, defaults={"display_name": name or f"Player {user.pk}",
                                         "is_guest": False})
        except IntegrityError:  # the name looks like another's
            player, _created = Player.objects.get_or_create(
                user=user, defaults={"display_name": f"Player {user.pk}", "is_guest": False})
    return player


def guest_create() -> User:
    """A new guest: a user with no usable password and a made-up name, stored
    language-neutrally and shown in the reader's (api.play.names)."""
    tag = secrets.token_hex(4)
    user = User(username=f"guest-{tag}")
    user.set_unusable_password()
    user.save()
    Player.objects.create(user=user, display_name=guest_name_new(), is_guest=True)
    return user


def _name_taken(display_name: str) -> DisplayNameTaken:
    return DisplayNameTaken(
        _("%(name)r looks like another player's name: choose another.") % {"name": display_name})


def _name_free(*, player: Player, display_name: str) -> bool:
    """No other player's display name looks like this one (a quick answer
    before the write; the unique index on name_key decides a race)."""
    key = display_name_key(display_name)
    return not Player.objects.filter(name_key=key).exclude(pk=player.pk).exists()


def _name_check(*, player: Player, display_name: str) -> None:
    if not _name_free(player=player, display_name=display_name):
        raise _name_taken(display_name)


def player_register(*, user, username: str, password: str, display_name: str | None) -> Player:
    """The guest becomes a registered account: same user, so same records.

    Without ``display_name``, a guest still named with its made-up name is
    named after the username, through the same cleaning as a chosen name;
    a username that cleaning refuses, or that looks like another's name,
    leaves the made-up name."""
    player = player_get_or_create(user=user)
    if not player.is_guest:
        raise AlreadyRegistered()
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise UsernameTaken()
    if display_name:
        _name_check(player=player, display_name=display_name)
    made_up = guest_name_is_made_up(display_name=player.display_name, username=user.get_username())
    kept_name = player.display_name
    with transaction.atomic():
        user.username = username
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            raise UsernameTaken() from None
        player.is_guest = False
        from_username = display_name_from_username(username) if made_up else None
        if display_name:
            player.display_name = display_name
        elif from_username and _name_free(player=player, display_name=from_username):
            player.display_name = from_username
        try:
            with transaction.atomic():
                player.save()
        except IntegrityError:
            if display_name:
                raise _name_taken(display_name) from None
            # The username's name was claimed meanwhile: the made-up name stays.
            player.display_name = kept_name
            player.save()
    return player


def player_rename(*, user, display_name: str) -> Player:
    player = player_get_or_create(user=user)
    _name_check(player=player, display_name=display_name)
    player.display_name = display_name
    try:
        with transaction.atomic():
            player.save(update_fields=["display_name"])
    except IntegrityError:
        raise _name_taken(display_name) from None
    return player


def guest_attempts_carry(*, guest, account, now) -> dict:
    """A guest logs in to an account: its attempts on deals whose day is not
    over go to the account, deal by deal, when the account has none on that
    deal; where the account has one, the account's stands and the guest's
    ranked attempt becomes practice (it leaves the leaderboard). So one
    browser cannot hold two ranked results on one deal. Past days' attempts
    stay with the guest. Answers {"carried": n, "unranked": n}."""
    today = clock.day_of(now)
    carried = unranked = 0
    with transaction.atomic():
        # One carry into an account at a time: two guests logging in to it
        # at once must not both find it without an attempt.
        User.objects.select_for_update().filter(pk=account.pk).exists()
        deal_ids = set(Attempt.objects.filter(player=guest, deal__date__gte=today)
                       .values_list("deal_id", flat=True))
        for deal_id in deal_ids:
            if Attempt.objects.filter(player=account, deal_id=deal_id).exists():
                unranked += Attempt.objects.filter(
                    player=guest, deal_id=deal_id, ranked=True).update(ranked=False)
            else:
                carried += Attempt.objects.filter(
                    player=guest, deal_id=deal_id).update(player=account)
    leaderboard_counts_forget(deal_ids)
    return {"carried": carried, "unranked": unranked}
