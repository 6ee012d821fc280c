"""The days' deals as players see them: which deal a game has on a date,
and a finished day's solution with every position along it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _

import solitaire
from api import clock
from api.deals import services as deals
from api.deals.models import DailyDeal, Game
from api.errors import DayNotOver, DealNotReady, FutureDate, UnknownGame


def _unknown_game(game: str) -> UnknownGame:
    return UnknownGame(
        _("Unknown game %(game)r: use one of %(games)s.")
        % {"game": game, "games": ", ".join(deals.GAMES)}
    )


def game_check(game: str) -> str:
    """A game named in a URL that reads no deal (the calendar): 404 unknown_game."""
    if game not in deals.GAMES:
        raise _unknown_game(game)
    return game


def deal_for(*, game: str, date: dt.date, now: dt.datetime) -> DailyDeal:
    """The verified deal of a game on a date that has begun. api.deals decides,
    and checks the game."""
    try:
        return deals.deal_get(game=game, date=date, now=now)
    except deals.UnknownGame:
        raise _unknown_game(game) from None
    except deals.DealNotYetAvailable:
        raise FutureDate() from None
    except deals.DealNotReady:
        # The game's name, not its code: players may read this message.
        raise DealNotReady(
            _("There is no verified deal of %(game)s for %(date)s.")
            % {"game": Game(game).label, "date": date.isoformat()}
        ) from None


@dataclass(frozen=True)
class Solution:
    deal: DailyDeal
    positions: list[solitaire.Position]  # [0] the start, [i] after move i of the certificate


def deal_solution(*, deal: DailyDeal, now: dt.datetime) -> Solution:
    """A finished day's verified solution with every position along it."""
    if not clock.day_over(deal.date, now):
        raise DayNotOver()
    return Solution(deal, solitaire.parse_position(deal.position).along(deal.certificate.split()))


def daily_deals(*, day: dt.date) -> list[DailyDeal]:
    """The deals of a day, in the games' order."""
    return list(DailyDeal.objects.filter(date=day).order_by("game"))
