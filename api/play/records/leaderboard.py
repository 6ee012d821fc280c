"""The leaderboard of a deal: ranks in SQL (RANK() over the play_leaderboard
index), the counts that place a player past the first rows (counted live,
or from per-bucket counts kept in the cache while a deal is crowded), and the
share of the deal's ranked attempts that won it."""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from array import array
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import connections, models

from api.deals.models import DailyDeal
from api.outages import CACHE_ERRORS, cache_failed
from api.play.domain import TIME_STEP_MS
from api.play.models import ON_BOARD, Attempt
from api.play.names import shown_name
from api.replica import PRIMARY, public_alias

# The board holds a deal's ranked attempts from their first move on
# (api.play.models.ON_BOARD): an attempt started and never moved is not on
# it, finished or not, so doing nothing never ranks above playing. Every
# query below says so, and the play_leaderboard index carries the same
# condition, written the same way so that PostgreSQL matches it.
ON_BOARD_SQL = "ranked AND (moves > 0 OR undos > 0)"
#
# Ranked attempts of one deal, in leaderboard order; RANK() gives ties one
# rank. The ORDER BY matches the play_leaderboard index, so PostgreSQL reads
# the first rows of the index and stops (no sort of the whole deal). Ranks
# compare time in whole tenths of a second (domain.TIME_STEP_MS), as the answer
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
  WHERE a.deal_id = %s AND {on_board}{who_a}{among}
  ORDER BY a.machine_pace, a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms, a.id
  LIMIT %s
) top
JOIN play_player p ON p.user_id = top.player_id
JOIN auth_user u ON u.id = top.player_id
ORDER BY rank, top.id
""".replace("{on_board}", ON_BOARD_SQL)

# A private league's board (api.play.leagues): the same query over its
# members' attempts only, so its order and ties are the leaderboard's.
_AMONG_LEAGUE = """
    AND a.player_id IN (SELECT m.user_id FROM play_leaguemember m WHERE m.league_id = %s)"""

# A player's rank is 1 + the number of strictly better records; each part is
# an index-only range scan of play_leaderboard (a row comparison on the
# ascending columns under an equality on the leading ones). A machine-paced
# record (machine_pace true) comes after every other. Their cost grows
# with the rows counted (about 100 ms a million), so this exact path serves
# boards below settings.LEADERBOARD_CACHED_COUNTS_FROM.
_COUNTS_SQL = """
SELECT
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND {on_board}{who})
      AS total,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND {on_board}{who}
      AND machine_pace < %(m)s) +
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND {on_board}{who}
      AND machine_pace = %(m)s AND cards_home > %(c)s) +
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND {on_board}{who}
      AND machine_pace = %(m)s AND cards_home = %(c)s
      AND (undos, redeals, elapsed_ms) < (%(u)s, %(r)s, %(e)s)) AS better,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND {on_board}{who}
      AND machine_pace = %(m)s AND cards_home = %(c)s
      AND (undos, redeals, elapsed_ms) >= (%(u)s, %(r)s, %(e)s)
      AND (undos, redeals, elapsed_ms) < (%(u)s, %(r)s, %(e_end)s)) AS equal
""".replace("{on_board}", ON_BOARD_SQL)

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
WHERE deal_id = %s AND {on_board}{who}
GROUP BY machine_pace, cards_home, undos, redeals
ORDER BY machine_pace, cards_home DESC, undos, redeals
""".replace("{on_board}", ON_BOARD_SQL)

# Live, exact order inside one bucket: a range scan of play_leaderboard over
# the rows with the same (cards_home, undos, redeals) and no more time.
_IN_BUCKET_SQL = """
SELECT count(*) FILTER (WHERE elapsed_ms < %(e)s), count(*) FILTER (WHERE elapsed_ms >= %(e)s)
FROM play_attempt
WHERE deal_id = %(deal)s AND {on_board}{who} AND machine_pace = %(m)s
  AND cards_home = %(c)s AND undos = %(u)s AND redeals = %(r)s AND elapsed_ms < %(e_end)s
""".replace("{on_board}", ON_BOARD_SQL)


# With ``registered``: the board of registered players only (guests left
# out, so a swarm of guests cannot crowd the names people know).
_REGISTERED = " AND {t}player_id IN (SELECT user_id FROM play_player WHERE NOT is_guest)"
_TOTAL_SQL = "SELECT count(*) FROM play_attempt WHERE deal_id = %s AND {on_board}{who}"
# The day's distribution of cards home on the board.
_CARDS_HOME_SQL = ("SELECT cards_home, count(*) FROM play_attempt"
                   " WHERE deal_id = %s AND {on_board}{who} GROUP BY cards_home")


def _sql(template: str, registered: bool) -> str:
    return (template.replace("{on_board}", ON_BOARD_SQL)
            .replace("{among}", "")
            .replace("{who_a}", _REGISTERED.format(t="a.") if registered else "")
            .replace("{who}", _REGISTERED.format(t="") if registered else ""))


_QUERIES = {
    registered: {name: _sql(sql, registered) for name, sql in (
        ("top", _TOP_SQL), ("top_league", _TOP_SQL.replace("{among}", _AMONG_LEAGUE)),
        ("counts", _COUNTS_SQL), ("buckets", _BUCKETS_SQL),
        ("in_bucket", _IN_BUCKET_SQL), ("total", _TOTAL_SQL), ("cards_home", _CARDS_HOME_SQL))}
    for registered in (False, True)
}


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


def _cache_key(deal, registered: bool = False) -> str:
    """The cached counts' key of a deal (or its id), of its whole board or of its registered one."""
    deal_id = getattr(deal, "pk", deal)
    return f"play:leaderboard:buckets:v3:{deal_id}{':registered' if registered else ''}"


def leaderboard_counts_forget(deal_ids) -> None:
    """Drop the cached counts of these deals' boards (both of each), after
    attempts left them: the next read counts again."""
    keys = [_cache_key(deal_id, registered) for deal_id in set(deal_ids)
            for registered in (False, True)]
    if not keys:
        return
    try:
        cache.delete_many(keys)
    except CACHE_ERRORS as error:
        cache_failed("cached leaderboard counts are left to expire", error)


def bucket_counts(*, deal: DailyDeal, now: dt.datetime, cursor,
                  registered: bool = False) -> BucketCounts:
    """The deal's bucket counts, from the cache while younger than
    LEADERBOARD_COUNTS_TTL, else counted now (and cached).

    Counting a million attempts takes a few hundred ms, so the counts are not
    left to expire under load (every request in flight would count them at
    once): past half the TTL, the one request that wins a cache lock counts
    them again while the others keep using the ones still in date."""
    ttl = settings.LEADERBOARD_COUNTS_TTL
    key = _cache_key(deal.pk, registered)
    count = functools.partial(_bucket_counts_count, deal=deal, now=now, cursor=cursor,
                              registered=registered)
    try:
        cached = cache.get(key)
    except CACHE_ERRORS as error:
        cache_failed("the leaderboard counts live", error)
        return count(keep=False)
    # The cache's own expiry runs on its clock; as_of keeps the bound on ours.
    if isinstance(cached, BucketCounts):
        age = now - cached.as_of
        if dt.timedelta(0) <= age <= dt.timedelta(seconds=ttl):
            if age <= dt.timedelta(seconds=ttl / 2) or not _cache_add(f"{key}:lock", ttl):
                return cached
            try:
                return count()
            finally:
                _cache_delete(f"{key}:lock")
    return count()


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


def _bucket_counts_count(*, deal: DailyDeal, now: dt.datetime, cursor, registered: bool,
                         keep: bool = True) -> BucketCounts:
    cursor.execute(_QUERIES[registered]["buckets"], [deal.pk])
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
            cache.set(_cache_key(deal.pk, registered), counts, timeout=settings.LEADERBOARD_COUNTS_TTL)
        except CACHE_ERRORS as error:
            cache_failed("the leaderboard counts are not kept", error)
    return counts


@dataclass(frozen=True)
class Entry:
    """A record on a board, at its rank (ties share one)."""

    rank: int
    display_name: str
    cards_home: int
    undos: int
    redeals: int
    elapsed_ms: int
    machine_pace: bool
    is_me: bool


@dataclass(frozen=True)
class MyEntry(Entry):
    """The player's own record: its attempt, and how many it beats."""

    attempt_id: int
    beaten: int
    beaten_share: float


class CardsHomeCount(NamedTuple):
    cards_home: int
    count: int


@dataclass(frozen=True)
class Leaderboard:
    deal: DailyDeal
    registered: bool
    total: int
    counts_as_of: dt.datetime
    entries: list[Entry]
    me: MyEntry | None
    cards_home: list[CardsHomeCount]  # by cards home, fewest first


def top_entries(*, deal: DailyDeal, user_id: int | None, limit: int, cursor,
                league_id: int | None = None, registered: bool = False) -> list[tuple[int, Entry]]:
    """(player id, entry) of the first ``limit`` entries of the deal's board
    in its order, ties sharing a rank; with ``league_id``, of that league's
    members only (ranked among them); with ``registered``, of registered players only."""
    queries = _QUERIES[registered]
    if league_id is None:
        cursor.execute(queries["top"], [deal.pk, limit])
    else:
        cursor.execute(queries["top_league"], [deal.pk, league_id, limit])
    return [
        (pid, Entry(rank, shown_name(display_name=name, is_guest=guest, username=username),
                    c, u, r, e, bool(m), user_id is not None and pid == user_id))
        for (_id, pid, name, guest, username, c, u, r, e, m, rank) in cursor.fetchall()
    ]


def leaderboard(*, deal: DailyDeal, user_id: int | None, limit: int, now: dt.datetime,
                cursor=None, registered: bool = False) -> Leaderboard:
    """The top ``limit`` (ranked live by RANK()), the total, and the player's
    own rank and share beaten.

    Small boards are counted exactly at ``now``. From
    LEADERBOARD_CACHED_COUNTS_FROM ranked attempts on, the total and the
    attempts in better buckets come from bucket counts at most
    LEADERBOARD_COUNTS_TTL seconds old (``counts_as_of``), and only the order
    within the player's own bucket is counted live. With ``registered``,
    the same board of registered players' attempts only."""
    queries = _QUERIES[registered]
    cur = cursor or connections[public_alias()].cursor()
    entries = [entry for _player, entry in
               top_entries(deal=deal, user_id=user_id, limit=limit, cursor=cur,
                           registered=registered)]
    buckets = bucket_counts(deal=deal, now=now, cursor=cur, registered=registered)
    cached = buckets.total >= settings.LEADERBOARD_CACHED_COUNTS_FROM
    counts_as_of = buckets.as_of if cached else now
    # The player's own record from the primary: never behind their last move.
    mine = Attempt.objects.using(PRIMARY).filter(ON_BOARD, deal=deal, player_id=user_id)
    if registered:
        mine = mine.filter(player__player__is_guest=False)
    mine = mine.select_related("player__player").first() if user_id is not None else None
    total = buckets.total
    me = None
    if mine is not None:
        m, c, u, r, e = (mine.machine_pace, mine.cards_home, mine.undos, mine.redeals,
                         mine.elapsed_ms)
        # Equal: the same tenth of a second; better: an earlier one.
        shown = {"e": e - e % TIME_STEP_MS, "e_end": e - e % TIME_STEP_MS + TIME_STEP_MS}
        mark = {"deal": deal.pk, "m": m, "c": c, "u": u, "r": r, **shown}
        if cached:
            cur.execute(queries["in_bucket"], mark)
            better_in_bucket, equal = cur.fetchone()
            better = (buckets.ahead_of(machine_pace=m, cards_home=c, undos=u, redeals=r)
                      + better_in_bucket)
        else:
            cur.execute(queries["counts"], mark)
            total, better, equal = cur.fetchone()
        # Exact when counted live; from a snapshot, a record that moved since
        # may not add up, so keep beaten within what can be true.
        beaten = max(0, min(total - better - equal, total - 1))
        player = mine.player.player
        name = shown_name(display_name=player.display_name, is_guest=player.is_guest,
                          username=mine.player.get_username())
        me = MyEntry(better + 1, name, c, u, r, e, bool(m), True, attempt_id=mine.pk,
                     beaten=beaten,
                     beaten_share=round(beaten / (total - 1), 4) if total > 1 else 0.0)
    elif not cached:
        cur.execute(queries["total"], [deal.pk])
        (total,) = cur.fetchone()
    if cached:
        by_cards = buckets.cards_home_counts()
    else:
        cur.execute(queries["cards_home"], [deal.pk])
        by_cards = dict(cur.fetchall())
    return Leaderboard(deal=deal, registered=registered, total=total, counts_as_of=counts_as_of,
                       entries=entries, me=me,
                       cards_home=[CardsHomeCount(c, n) for c, n in sorted(by_cards.items())])


def won_share(deal: DailyDeal) -> float | None:
    """The share of the deal's ranked attempts on the board that were won
    (None when nobody played it ranked)."""
    counts = Attempt.objects.filter(ON_BOARD, deal=deal).aggregate(
        total=models.Count("id"), won=models.Count("id", filter=models.Q(status=Attempt.Status.WON)))
    return round(counts["won"] / counts["total"], 4) if counts["total"] else None
