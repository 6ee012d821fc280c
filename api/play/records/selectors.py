"""Read-side queries: a player's attempts, a player's history and the
archive's calendar (the leaderboard has its own module, leaderboard.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import models
from django.db.models import ExpressionWrapper

from api import clock
from api.deals.difficulty import difficulty_level
from api.deals.models import DailyDeal, Game
from api.play.attempts import store
from api.play.domain import AttemptState
from api.play.models import ON_BOARD, Attempt
from api.play.records import streaks
from api.play.records.leaderboard import won_share

# -- a player's attempts ------------------------------------------------------------


def attempts_of(*, user, game: str | None = None, date: dt.date | None = None):
    """The player's attempts, newest first (a queryset, for paging)."""
    attempts = Attempt.objects.filter(player=user).select_related("deal").order_by(
        "-started_at", "-id")
    if game:
        attempts = attempts.filter(deal__game=game)
    if date:
        attempts = attempts.filter(deal__date=date)
    return attempts


def states(attempts) -> list[AttemptState]:
    return [store.state_of(attempt) for attempt in attempts]


def attempts_on(*, user, deal: DailyDeal) -> list[AttemptState]:
    """The player's attempts on one deal, newest first."""
    return states(attempts_of(user=user).filter(deal=deal))


@dataclass(frozen=True)
class DealRead:
    """A day's deal as a player reads it on ``today``: their attempts on it,
    and once its day is over, the share of ranked attempts that won it."""

    deal: DailyDeal
    day_over: bool
    my_attempts: list[AttemptState]
    won_share: float | None


def deal_read(*, deal: DailyDeal, user, today: dt.date) -> DealRead:
    day_over = deal.date < today
    return DealRead(
        deal=deal, day_over=day_over,
        my_attempts=attempts_on(user=user, deal=deal) if user.is_authenticated else [],
        won_share=won_share(deal) if day_over and deal.is_verified else None,
    )


# -- history ---------------------------------------------------------------------


def _better(a: Attempt, b: Attempt) -> bool:
    """Leaderboard order: is a's record better than b's?"""
    return (-a.cards_home, a.undos, a.redeals, a.elapsed_ms) < (
        -b.cards_home, b.undos, b.redeals, b.elapsed_ms
    )


def _day_record(current: Attempt | None, attempt: Attempt) -> Attempt:
    """A day's record is its ranked attempt, else its best practice attempt."""
    if current is None or (not current.ranked and (attempt.ranked or _better(attempt, current))):
        return attempt
    return current


def _whole_games(attempts):
    """Attempts played from the deal's start: a retry (POST
    /attempts/{id}/retry), even from move 1, is practice that makes no
    day's record."""
    return attempts.filter(is_retry=False)


@dataclass(frozen=True)
class DayRecords:
    date: dt.date
    records: dict[str, Attempt | None]  # by game asked for: the day's record, if any


@dataclass(frozen=True)
class History:
    days: list[DayRecords]  # newest first
    played: streaks.Streak  # forgiving
    won: streaks.Streak
    days_played: int
    days_won: int
    best: dict[str, Attempt | None]  # by game asked for
    first_day: dt.date | None  # the service's (first_day())


def history(*, user, game: str | None, now: dt.datetime) -> History:
    """A player's days. A day counts as played when the player played that
    day's deal on that day: its ranked attempt is on the leaderboard
    (api.play.models.ON_BOARD: a move made; dates are in the daily time
    zone); won when such an attempt was won. Practice on past days, and a
    ranked attempt finished before its first move, are listed but make no
    streak. The streaks' rule is api.play.records.streaks."""
    attempts = _whole_games(Attempt.objects.filter(player=user).select_related("deal")
                            .annotate(on_board=ExpressionWrapper(ON_BOARD,
                                                                 output_field=models.BooleanField())))
    if game:
        attempts = attempts.filter(deal__game=game)
    by_day: dict[dt.date, dict[str, Attempt]] = {}
    best: dict[str, Attempt] = {}
    played: set[dt.date] = set()
    won: set[dt.date] = set()
    for attempt in attempts.order_by("deal__date", "started_at"):
        day, g = attempt.deal.date, attempt.deal.game
        slot = by_day.setdefault(day, {})
        slot[g] = _day_record(slot.get(g), attempt)
        if attempt.on_board:
            played.add(day)
            if attempt.status == Attempt.Status.WON:
                won.add(day)
        # A best is something played: an attempt with no move would give
        # Cruel's four aces, home from the start, as a record.
        if (attempt.moves or attempt.undos) and (g not in best or _better(attempt, best[g])):
            best[g] = attempt
    today = clock.day_of(now)
    games = [game] if game else list(Game.values)
    return History(
        days=[DayRecords(day, {g: slot.get(g) for g in games})
              for day, slot in sorted(by_day.items(), reverse=True)],
        played=streaks.streak(played, today, forgiving=True),
        won=streaks.streak(won, today, forgiving=False),
        days_played=len(played),
        days_won=len(won),
        best={g: best.get(g) for g in games},
        first_day=first_day(),
    )


# -- calendar ----------------------------------------------------------------------


def first_day() -> dt.date | None:
    """The service's first day: the earliest date it has a deal row for (any game, any state)."""
    return DailyDeal.objects.order_by("date").values_list("date", flat=True).first()


def _month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _next_month(month: dt.date) -> dt.date:
    return (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def _previous_month(month: dt.date) -> dt.date:
    return (month - dt.timedelta(days=1)).replace(day=1)


@dataclass(frozen=True)
class CalendarDay:
    date: dt.date
    has_deal: bool  # a verified deal was served
    difficulty_level: dict | None  # api.deals.difficulty.difficulty_level
    today: bool
    record: Attempt | None


@dataclass(frozen=True)
class CalendarMonth:
    game: str
    month: dt.date  # its first day, as the months below
    today: dt.date
    first_month: dt.date
    previous: dt.date | None
    next: dt.date | None
    days: list[CalendarDay]


def calendar_month(*, user, game: str, month: dt.date, now: dt.datetime) -> CalendarMonth:
    """One month of a game's archive for a player: every day that has begun,
    from the service's first day on, whether it had a verified deal, and the
    player's record on it (its ranked attempt, else its best practice one,
    as in history). ``month`` is the month's first day; the caller checks
    that it lies between the first day's month and today's."""
    today = clock.day_of(now)
    start = max(month, first_day() or today)
    end = min(_next_month(month) - dt.timedelta(days=1), today)
    verified = dict(  # date -> the solver's difficulty figure
        DailyDeal.objects.filter(
            game=game, date__range=(start, end), state=DailyDeal.State.VERIFIED
        ).values_list("date", "difficulty")
    )
    records: dict[dt.date, Attempt] = {}
    attempts = _whole_games(Attempt.objects.filter(
        player=user, deal__game=game, deal__date__range=(start, end)
    ).select_related("deal"))
    for attempt in attempts.order_by("deal__date", "started_at"):
        records[attempt.deal.date] = _day_record(records.get(attempt.deal.date), attempt)
    days = []
    day = start
    while day <= end:
        days.append(CalendarDay(
            date=day, has_deal=day in verified,
            difficulty_level=difficulty_level(game, verified[day]) if day in verified else None,
            today=day == today, record=records.get(day),
        ))
        day += dt.timedelta(days=1)
    first_month = _month_start(first_day() or today)
    this_month = _month_start(today)
    return CalendarMonth(
        game=game, month=month, today=today, first_month=first_month,
        previous=_previous_month(month) if month > first_month else None,
        next=_next_month(month) if month < this_month else None,
        days=days,
    )
