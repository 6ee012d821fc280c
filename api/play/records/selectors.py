"""Read-side queries: a player's attempts, the leaderboard (ranks in SQL),
a player's history and the archive's calendar."""

from __future__ import annotations

import bisect
import datetime as dt
from array import array
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models

from api import clock
from api.deals.difficulty import difficulty_level
from api.deals.models import DailyDeal
from api.outages import CACHE_ERRORS, cache_failed
from api.play.accounts.names import shown_name
from api.play.attempts import store
from api.play.attempts.domain import AttemptState
from api.play.models import Attempt

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


# -- leaderboard ------------------------------------------------------------------------

# The board holds a deal's ranked attempts from their first move on
# (``version > 0``): an attempt started and never touched is not on it, so
# doing nothing never ranks above playing. Every query below says so, and the
# play_leaderboard index carries the same condition.
#
# Ranked attempts of one deal, in leaderboard order; RANK() gives ties one
# rank. The ORDER BY matches the play_leaderboard index, so PostgreSQL reads
# the first rows of the index and stops (no sort of the whole deal). Ranks
# compare time in whole tenths of a second (TIME_STEP_MS), as the answer
# gives it: records that read the same share a rank. The first rows by
# milliseconds are the first rows by tenths too, so ranking them alone is exact.
_TOP_SQL = """
SELECT top.id, top.player_id, p.display_name, p.is_guest, u.username,
       top.cards_home, top.undos, top.redeals, top.elapsed_ms, top.machine_pace,
       RANK() OVER (ORDER BY top.machine_pace, top.cards_home DESC, top.undos, top.redeals,
                    top.elapsed_ms / 100) AS rank
FROM (
  SELECT a.id, a.player_id, a.cards_home, a.undos, a.redeals, a.elapsed_ms, a.machine_pace
  FROM play_attempt a
  WHERE a.deal_id = %s AND a.ranked AND a.version > 0
  ORDER BY a.machine_pace, a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms, a.id
  LIMIT %s
) top
JOIN play_player p ON p.user_id = top.player_id
JOIN auth_user u ON u.id = top.player_id
ORDER BY rank, top.id
"""

# Time on the leaderboard: whole tenths of a second, cut (never rounded up).
TIME_STEP_MS = 100

# A player's rank is 1 + the number of strictly better records; each part is
# an index-only range scan of play_leaderboard (a row comparison on the
# ascending columns under an equality on the leading ones). A machine-paced
# record (machine_pace true) comes after every other. Their cost grows
# with the rows counted (about 100 ms a million), so this exact path serves
# boards below settings.LEADERBOARD_CACHED_COUNTS_FROM.
_COUNTS_SQL = """
SELECT
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked AND version > 0) AS total,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked AND version > 0
      AND machine_pace < %(m)s) +
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked AND version > 0
      AND machine_pace = %(m)s AND cards_home > %(c)s) +
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked AND version > 0
      AND machine_pace = %(m)s AND cards_home = %(c)s
      AND (undos, redeals, elapsed_ms) < (%(u)s, %(r)s, %(e)s)) AS better,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked AND version > 0
      AND machine_pace = %(m)s AND cards_home = %(c)s
      AND (undos, redeals, elapsed_ms) >= (%(u)s, %(r)s, %(e)s)
      AND (undos, redeals, elapsed_ms) < (%(u)s, %(r)s, %(e_end)s)) AS equal
"""

# Large boards: ranked attempts counted per bucket (machine_pace, cards_home,
# undos, redeals) in leaderboard order, with the running count of the buckets ahead;
# one pass over play_attempt's index (GroupAggregate over an index-only scan),
# cached for LEADERBOARD_COUNTS_TTL seconds.
#
# Why a cached snapshot and not counters kept in the same transaction as each
# move: every move changes cards_home (and undos/redeals) of a ranked attempt,
# so transactional counters would take a row lock on two bucket rows per move,
# and the popular buckets (every Cruel game starts at 4 cards home, 0 undos,
# 0 redeals) would serialise the moves of all players of the day. A snapshot
# costs one scan per deal per TTL and nothing on the write path; the price is
# that counts are up to TTL seconds old, which the response says
# (counts_as_of). Order within one bucket is counted live (below).
_BUCKETS_SQL = """
SELECT machine_pace, cards_home, undos, redeals,
       sum(count(*)) OVER (ORDER BY machine_pace, cards_home DESC, undos, redeals
                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS ahead,
       count(*) AS n
FROM play_attempt
WHERE deal_id = %s AND ranked AND version > 0
GROUP BY machine_pace, cards_home, undos, redeals
ORDER BY machine_pace, cards_home DESC, undos, redeals
"""

# Live, exact order inside one bucket: a range scan of play_leaderboard over
# the rows with the same (cards_home, undos, redeals) and no more time.
_IN_BUCKET_SQL = """
SELECT count(*) FILTER (WHERE elapsed_ms < %(e)s), count(*) FILTER (WHERE elapsed_ms >= %(e)s)
FROM play_attempt
WHERE deal_id = %(deal)s AND ranked AND version > 0 AND machine_pace = %(m)s
  AND cards_home = %(c)s AND undos = %(u)s AND redeals = %(r)s AND elapsed_ms < %(e_end)s
"""


# A bucket as one sortable int64, so the counts unpickle as two flat arrays
# (a tuple of tuples per bucket took over a millisecond at 3,000 buckets):
# machine_pace (bit 62), 52 - cards_home (bits 56-61), then undos and
# redeals, 28 bits each. An attempt gets at
# most one action per request, so undos and redeals stay far below 2**28 (the
# per-player throttle alone keeps a day under 2 million actions); min() only
# keeps a corrupt row from overflowing.
_FIELD = 1 << 28


def _bucket_key(machine_pace: bool, cards_home: int, undos: int, redeals: int) -> int:
    return ((int(machine_pace) << 62) | ((52 - cards_home) << 56)
            | (min(undos, _FIELD - 1) << 28) | min(redeals, _FIELD - 1))


@dataclass(frozen=True)
class BucketCounts:
    """A deal's ranked attempts counted per (machine_pace, cards_home, undos, redeals) at ``as_of``.

    ``keys`` are the buckets in leaderboard order (``_bucket_key``);
    ``ahead[i]`` is the number of attempts in the buckets before ``keys[i]``,
    and ``ahead[len(keys)]`` the total."""

    as_of: dt.datetime
    total: int
    keys: array
    ahead: array

    def ahead_of(self, *, machine_pace: bool, cards_home: int, undos: int, redeals: int) -> int:
        """Attempts in buckets strictly better than this one (bucket absent: where it would go)."""
        key = _bucket_key(machine_pace, cards_home, undos, redeals)
        return self.ahead[bisect.bisect_left(self.keys, key)]

    def cards_home_counts(self) -> dict[int, int]:
        """Attempts per number of cards home (the buckets' cards home, summed)."""
        counts: dict[int, int] = {}
        for i, key in enumerate(self.keys):
            cards_home = 52 - ((key >> 56) & 0x3F)
            counts[cards_home] = counts.get(cards_home, 0) + self.ahead[i + 1] - self.ahead[i]
        return counts


def _cache_key(deal: DailyDeal) -> str:
    return f"play:leaderboard:buckets:v3:{deal.pk}"


def bucket_counts(*, deal: DailyDeal, now: dt.datetime, cursor) -> BucketCounts:
    """The deal's bucket counts, from the cache while younger than
    LEADERBOARD_COUNTS_TTL, else counted now (and cached).

    Counting a million attempts takes a few hundred ms, so the counts are not
    left to expire under load (every request in flight would count them at
    once): past half the TTL, the one request that wins a cache lock counts
    them again while the others keep using the ones still in date."""
    ttl = settings.LEADERBOARD_COUNTS_TTL
    key = _cache_key(deal)
    try:
        cached = cache.get(key)
    except CACHE_ERRORS as error:
        cache_failed("the leaderboard counts live", error)
        return _bucket_counts_count(deal=deal, now=now, cursor=cursor, keep=False)
    # The cache's own expiry runs on its clock; as_of keeps the bound on ours.
    if isinstance(cached, BucketCounts):
        age = now - cached.as_of
        if dt.timedelta(0) <= age <= dt.timedelta(seconds=ttl):
            if age <= dt.timedelta(seconds=ttl / 2) or not _cache_add(f"{key}:lock", ttl):
                return cached
            try:
                return _bucket_counts_count(deal=deal, now=now, cursor=cursor)
            finally:
                _cache_delete(f"{key}:lock")
    return _bucket_counts_count(deal=deal, now=now, cursor=cursor)


def _cache_add(key: str, ttl: int) -> bool:
    try:
        return cache.add(key, 1, ttl)
    except CACHE_ERRORS as error:
        cache_failed("the cached leaderboard counts are used as they are", error)
        return False


def _cache_delete(key: str) -> None:
    try:
        cache.delete(key)
    except CACHE_ERRORS as error:
        cache_failed("a leaderboard lock is left to expire", error)


def _bucket_counts_count(*, deal: DailyDeal, now: dt.datetime, cursor,
                         keep: bool = True) -> BucketCounts:
    cursor.execute(_BUCKETS_SQL, [deal.pk])
    rows = cursor.fetchall()
    total = sum(n for *_, n in rows)
    counts = BucketCounts(
        as_of=now,
        total=total,
        keys=array("q", (_bucket_key(m, c, u, r) for (m, c, u, r, _ahead, _n) in rows)),
        ahead=array("q", [*(int(ahead or 0) for (*_k, ahead, _n) in rows), total]),
    )
    if keep:
        try:
            cache.set(_cache_key(deal), counts, timeout=settings.LEADERBOARD_COUNTS_TTL)
        except CACHE_ERRORS as error:
            cache_failed("the leaderboard counts are not kept", error)
    return counts


def _entry(rank, display_name, cards_home, undos, redeals, elapsed_ms, machine_pace,
           is_me) -> dict:
    return {
        "rank": rank,
        "display_name": display_name,
        "cards_home": cards_home,
        "undos": undos,
        "redeals": redeals,
        "elapsed_seconds": (elapsed_ms // TIME_STEP_MS) * TIME_STEP_MS / 1000,
        "machine_pace": bool(machine_pace),
        "is_me": is_me,
    }


def leaderboard(*, deal: DailyDeal, user_id: int | None, limit: int, now: dt.datetime,
                cursor=None) -> dict:
    """The top ``limit`` (ranked live by RANK()), the total, and the player's
    own rank and share beaten.

    Small boards are counted exactly at ``now``. From
    LEADERBOARD_CACHED_COUNTS_FROM ranked attempts on, the total and the
    attempts in better buckets come from bucket counts at most
    LEADERBOARD_COUNTS_TTL seconds old (``counts_as_of``), and only the order
    within the player's own bucket is counted live."""
    cur = cursor or connection.cursor()
    cur.execute(_TOP_SQL, [deal.pk, limit])
    entries = [
        _entry(rank, shown_name(display_name=name, is_guest=guest, username=username),
               c, u, r, e, m, user_id is not None and pid == user_id)
        for (_id, pid, name, guest, username, c, u, r, e, m, rank) in cur.fetchall()
    ]
    buckets = bucket_counts(deal=deal, now=now, cursor=cur)
    cached = buckets.total >= settings.LEADERBOARD_CACHED_COUNTS_FROM
    counts_as_of = buckets.as_of if cached else now
    mine = (
        Attempt.objects.filter(deal=deal, ranked=True, version__gt=0, player_id=user_id)
        .select_related("player__player")
        .first()
        if user_id is not None
        else None
    )
    total = buckets.total
    me = None
    if mine is not None:
        m, c, u, r, e = (mine.machine_pace, mine.cards_home, mine.undos, mine.redeals,
                         mine.elapsed_ms)
        # Equal: the same tenth of a second; better: an earlier one.
        shown = {"e": e - e % TIME_STEP_MS, "e_end": e - e % TIME_STEP_MS + TIME_STEP_MS}
        mark = {"deal": deal.pk, "m": m, "c": c, "u": u, "r": r, **shown}
        if cached:
            cur.execute(_IN_BUCKET_SQL, mark)
            better_in_bucket, equal = cur.fetchone()
            better = (buckets.ahead_of(machine_pace=m, cards_home=c, undos=u, redeals=r)
                      + better_in_bucket)
        else:
            cur.execute(_COUNTS_SQL, mark)
            total, better, equal = cur.fetchone()
        # Exact when counted live; from a snapshot, a record that moved since
        # may not add up, so keep beaten within what can be true.
        beaten = max(0, min(total - better - equal, total - 1))
        player = mine.player.player
        name = shown_name(display_name=player.display_name, is_guest=player.is_guest,
                          username=mine.player.get_username())
        me = _entry(better + 1, name, c, u, r, e, m, True)
        me["attempt_id"] = mine.pk
        me["beaten"] = beaten
        me["beaten_share"] = round(beaten / (total - 1), 4) if total > 1 else 0.0
    elif not cached:
        cur.execute(
            "SELECT count(*) FROM play_attempt WHERE deal_id = %s AND ranked AND version > 0",
            [deal.pk],
        )
        (total,) = cur.fetchone()
    if cached:
        by_cards = buckets.cards_home_counts()
    else:
        cur.execute(
            "SELECT cards_home, count(*) FROM play_attempt WHERE deal_id = %s AND ranked"
            " AND version > 0 GROUP BY cards_home",
            [deal.pk],
        )
        by_cards = dict(cur.fetchall())
    return {"game": deal.game, "date": deal.date.isoformat(), "total": total,
            "counts_as_of": counts_as_of.isoformat(), "entries": entries, "me": me,
            "cards_home": [{"cards_home": c, "count": n} for c, n in sorted(by_cards.items())]}


def won_share(deal: DailyDeal) -> float | None:
    """The share of the deal's ranked attempts on the board that were won
    (None when nobody played it ranked)."""
    counts = Attempt.objects.filter(deal=deal, ranked=True, version__gt=0).aggregate(
        total=models.Count("id"), won=models.Count("id", filter=models.Q(status=Attempt.Status.WON)))
    return round(counts["won"] / counts["total"], 4) if counts["total"] else None


# -- history ---------------------------------------------------------------------


def _record(attempt: Attempt | None, now: dt.datetime) -> dict | None:
    if attempt is None:
        return None
    return {
        "attempt_id": attempt.pk,
        "cards_home": attempt.cards_home,
        "redeals": attempt.redeals,
        "undos": attempt.undos,
        "elapsed_seconds": round(attempt.elapsed_ms / 1000, 1),
        "status": attempt.status,
        "won": attempt.status == Attempt.Status.WON,
        "ranked": attempt.ranked,
    }


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
    """Attempts played from the deal's start: a retry from a later position
    (POST /attempts/{id}/retry) is practice that makes no day's record."""
    return attempts.filter(start_position=models.F("deal__position"))


def _streaks(days: list[dt.date], today: dt.date) -> dict:
    """Current and longest run of consecutive dates. The current run is
    alive while its last day is today or yesterday (today may not be played yet)."""
    longest = run = 0
    previous = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and (today - previous).days <= 1 else 0
    return {"current": current, "longest": longest}


def history(*, user, game: str | None, now: dt.datetime) -> dict:
    """A player's days. A day counts as played when the player played that
    day's deal on that day (a ranked attempt: dates are in the daily time
    zone); won when such an attempt was won. Practice on past days is listed
    but does not make a streak."""
    attempts = _whole_games(Attempt.objects.filter(player=user).select_related("deal"))
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
        if attempt.ranked:
            played.add(day)
            if attempt.status == Attempt.Status.WON:
                won.add(day)
        if g not in best or _better(attempt, best[g]):
            best[g] = attempt
    today = clock.day_of(now)
    games = [game] if game else ["cruel", "flower"]
    return {
        "days": [
            {"date": day.isoformat(), **{g: _record(slot.get(g), now) for g in games}}
            for day, slot in sorted(by_day.items(), reverse=True)
        ],
        "streaks": {"played": _streaks(list(played), today), "won": _streaks(list(won), today)},
        "totals": {"played": len(played), "won": len(won)},
        "best": {g: _record(best.get(g), now) for g in games},
    }


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


def calendar_month(*, user, game: str, month: dt.date, now: dt.datetime) -> dict:
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
        days.append({
            "date": day.isoformat(),
            "has_deal": day in verified,
            "difficulty_level": difficulty_level(game, verified[day]) if day in verified else None,
            "today": day == today,
            "record": _record(records.get(day), now),
        })
        day += dt.timedelta(days=1)
    first_month = _month_start(first_day() or today)
    this_month = _month_start(today)
    return {
        "game": game,
        "month": month.strftime("%Y-%m"),
        "today": today.isoformat(),
        "first_month": first_month.strftime("%Y-%m"),
        "previous": _previous_month(month).strftime("%Y-%m") if month > first_month else None,
        "next": _next_month(month).strftime("%Y-%m") if month < this_month else None,
        "days": days,
    }
