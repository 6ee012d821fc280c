"""What a league's members read: a day's board (the leaderboard's own query
over the members' attempts: the same order, the same ties), the week's and
the month's standings, and who has not played yet.

Points: on each day's deal, a member ranked r among the n members on that
day's board earns n - r + 1 points (the first of 3 earns 3, the last 1;
tied members share a rank, so the same points); a member not on the board
earns none. The week runs Monday to Sunday, the month from its first day;
both count the days from their start to the day asked for."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from api import clock
from api.deals.models import DailyDeal
from api.play.leagues.models import League, LeagueMember
from api.play.names import shown_name
from api.play.records import leaderboard


@dataclass(frozen=True)
class Member:
    id: int  # the membership's
    user_id: int
    display_name: str
    is_owner: bool
    is_me: bool


@dataclass(frozen=True)
class Standing:
    rank: int
    display_name: str
    points: int
    days_played: int
    is_me: bool


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date
    standings: list[Standing]


@dataclass(frozen=True)
class Place:
    league: League
    game: str
    rank: int | None  # among the members on the board; None while the player is not on it
    players: int  # members on the board
    members: int  # members of the league


@dataclass(frozen=True)
class LeagueBoards:
    league: League
    deal: DailyDeal
    today: bool  # the deal is today's
    entries: list[leaderboard.Entry]
    not_played: list[str]  # the display names of members not on the day's board
    week: Period
    month: Period


def members_of(league: League, *, user_id: int) -> list[Member]:
    """The members as the league shows them, by name."""
    rows = (LeagueMember.objects.filter(league=league).select_related("user__player")
            .order_by("joined_at", "pk"))
    members = [Member(
        id=m.pk,
        user_id=m.user_id,
        display_name=shown_name(display_name=m.user.player.display_name,
                                is_guest=m.user.player.is_guest,
                                username=m.user.get_username()),
        is_owner=m.user_id == league.owner_id,
        is_me=m.user_id == user_id,
    ) for m in rows]
    return sorted(members, key=lambda m: (m.display_name.casefold(), m.id))


def _board(league: League, deal: DailyDeal, *, user_id: int,
           cursor) -> list[tuple[int, leaderboard.Entry]]:
    return leaderboard.top_entries(deal=deal, user_id=user_id, limit=settings.LEAGUE_MAX_MEMBERS,
                                 cursor=cursor, league_id=league.pk)


def _points(board: list[tuple[int, leaderboard.Entry]]) -> dict[int, int]:
    n = len(board)
    return {player: n - entry.rank + 1 for player, entry in board}


def _standings(league: League, *, game: str, first: dt.date, last: dt.date,
               members: list[Member], user_id: int, cursor) -> Period:
    points = {m.user_id: 0 for m in members}
    played = {m.user_id: 0 for m in members}
    deals = DailyDeal.objects.filter(game=game, date__range=(first, last),
                                     state=DailyDeal.State.VERIFIED)
    for deal in deals:
        for player, gained in _points(_board(league, deal, user_id=user_id,
                                             cursor=cursor)).items():
            if player in points:
                points[player] += gained
                played[player] += 1
    rows = sorted(members, key=lambda m: (-points[m.user_id], m.display_name.casefold()))
    standings, rank = [], 0
    for i, m in enumerate(rows):
        if i == 0 or points[m.user_id] != points[rows[i - 1].user_id]:
            rank = i + 1
        standings.append(Standing(rank=rank, display_name=m.display_name,
                                  points=points[m.user_id], days_played=played[m.user_id],
                                  is_me=m.is_me))
    return Period(start=first, end=last, standings=standings)


def places(*, leagues, deals: list[DailyDeal], user_id: int) -> list[Place]:
    """The player's place in each of ``leagues`` on each deal's board: the
    rank among the members on it (None while the player is not on it), how
    many members are on it, and how many the league has. ``leagues`` come
    from services.leagues_of (annotated with their member count)."""
    out = []
    with connection.cursor() as cursor:
        for league in leagues:
            for deal in deals:
                board = _board(league, deal, user_id=user_id, cursor=cursor)
                mine = next((entry for player, entry in board if player == user_id), None)
                out.append(Place(league=league, game=deal.game, rank=mine.rank if mine else None,
                                 players=len(board), members=league.member_count))
    return out


def league_boards(league: League, *, deal: DailyDeal, user_id: int,
                  now: dt.datetime) -> LeagueBoards:
    """The league's board of ``deal``'s day, its week and month to that day,
    and the members not on that day's board."""
    members = members_of(league, user_id=user_id)
    day = deal.date
    week_start = day - dt.timedelta(days=day.weekday())
    with connection.cursor() as cursor:
        board = _board(league, deal, user_id=user_id, cursor=cursor)
        week = _standings(league, game=deal.game, first=week_start, last=day,
                          members=members, user_id=user_id, cursor=cursor)
        month = _standings(league, game=deal.game, first=day.replace(day=1), last=day,
                           members=members, user_id=user_id, cursor=cursor)
    on_board = {player for player, _entry in board}
    return LeagueBoards(
        league=league, deal=deal, today=day == clock.day_of(now),
        entries=[entry for _player, entry in board],
        not_played=[m.display_name for m in members if m.user_id not in on_board],
        week=week, month=month,
    )
