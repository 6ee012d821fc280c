"""Players: the guest made on a first visit, registration, display names."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from api.play.accounts.names import display_name_key
from api.play.errors import Conflict
from api.play.models import Player

User = get_user_model()



def player_get_or_create(*, user) -> Player:
    player = getattr(user, "player", None)
    if player is None:
        player, _created = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()[:40], "is_guest": False}
        )
    return player


def guest_create() -> User:
    """A new guest: a user with no usable password and a made-up name."""
    tag = secrets.token_hex(4)
    user = User(username=f"guest-{tag}")
    user.set_unusable_password()
    user.save()
    Player.objects.create(user=user, display_name=_("Guest %(tag)s") % {"tag": tag}, is_guest=True)
    return user


def _name_free(*, player: Player, display_name: str) -> bool:
    """No other player's display name looks like this one."""
    key = display_name_key(display_name)
    return not Player.objects.filter(name_key=key).exclude(pk=player.pk).exists()


def _name_check(*, player: Player, display_name: str) -> None:
    if not _name_free(player=player, display_name=display_name):
        raise Conflict(
            _("%(name)r looks like another player's name: choose another.")
            % {"name": display_name},
            code="display_name_taken",
        )


def player_register(*, user, username: str, password: str, display_name: str | None) -> Player:
    """The guest becomes a registered account: same user, so same records."""
    player = player_get_or_create(user=user)
    if not player.is_guest:
        raise Conflict(_("You are already registered."), code="already_registered")
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise Conflict(_("That username is taken."), code="username_taken")
    if display_name:
        _name_check(player=player, display_name=display_name)
    name = user.get_username()
    guest_tag = name[len("guest-"):] if name.startswith("guest-") else ""
    with transaction.atomic():
        user.username = username
        user.set_password(password)
        try:
            user.save()
        except IntegrityError:
            raise Conflict(_("That username is taken."), code="username_taken") from None
        if display_name:
            player.display_name = display_name
        elif (guest_tag and player.display_name.endswith(guest_tag)
              and _name_free(player=player, display_name=username[:40])):
            # Still the made-up guest name (in whichever language it was
            # made): the username instead, unless it looks like another's.
            player.display_name = username[:40]
        player.is_guest = False
        player.save()
    return player


def player_rename(*, user, display_name: str) -> Player:
    player = player_get_or_create(user=user)
    _name_check(player=player, display_name=display_name)
    player.display_name = display_name
    player.save(update_fields=["display_name"])
    return player


