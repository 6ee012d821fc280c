"""Read-side queries: the leaderboard (ranks in SQL) and a player's history."""

from __future__ import annotations

import datetime as dt

from django.db import connection

from api.deals.models import DailyDeal
from api.play import clock
from api.play.models import Attempt

# Ranked attempts of one deal, in leaderboard order; RANK() gives ties one
# rank. The ORDER BY matches the play_leaderboard index, so PostgreSQL reads
# the first rows of the index and stops (no sort of the whole deal).
_TOP_SQL = """
SELECT top.id, top.player_id, p.display_name, top.cards_home, top.undos, top.redeals,
       top.elapsed_ms, top.rank
FROM (
  SELECT a.id, a.player_id, a.cards_home, a.undos, a.redeals, a.elapsed_ms,
         RANK() OVER (ORDER BY a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms) AS rank
  FROM play_attempt a
  WHERE a.deal_id = %s AND a.ranked
  ORDER BY a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms, a.id
  LIMIT %s
) top
JOIN play_player p ON p.user_id = top.player_id
ORDER BY top.rank, top.id
"""

# A player's rank is 1 + the number of strictly better records; both halves
# are index-only range scans of play_leaderboard (a row comparison on the
# ascending columns under an equality on the leading ones).
_COUNTS_SQL = """
SELECT
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked) AS total,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked
      AND cards_home > %(c)s) +
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked
      AND cards_home = %(c)s AND (undos, redeals, elapsed_ms) < (%(u)s, %(r)s, %(e)s)) AS better,
  (SELECT count(*) FROM play_attempt WHERE deal_id = %(deal)s AND ranked
      AND cards_home = %(c)s AND (undos, redeals, elapsed_ms) = (%(u)s, %(r)s, %(e)s)) AS equal
"""


def _entry(rank, display_name, cards_home, undos, redeals, elapsed_ms, is_me) -> dict:
    return {
        "rank": rank,
        "display_name": display_name,
        "cards_home": cards_home,
        "undos": undos,
        "redeals": redeals,
        "elapsed_seconds": round(elapsed_ms / 1000, 1),
        "is_me": is_me,
    }


def leaderboard(*, deal: DailyDeal, user_id: int | None, limit: int, cursor=None) -> dict:
    cur = cursor or connection.cursor()
    cur.execute(_TOP_SQL, [deal.pk, limit])
    entries = [
        _entry(rank, name, c, u, r, e, user_id is not None and pid == user_id)
        for (_id, pid, name, c, u, r, e, rank) in cur.fetchall()
    ]
    me = None
    total = None
    mine = (
        Attempt.objects.filter(deal=deal, ranked=True, player_id=user_id)
        .select_related("player__player")
        .first()
        if user_id is not None
        else None
    )
    if mine is not None:
        cur.execute(
            _COUNTS_SQL,
            {"deal": deal.pk, "c": mine.cards_home, "u": mine.undos, "r": mine.redeals,
             "e": mine.elapsed_ms},
        )
        total, better, equal = cur.fetchone()
        beaten = total - better - equal
        me = _entry(better + 1, mine.player.player.display_name, mine.cards_home, mine.undos,
                    mine.redeals, mine.elapsed_ms, True)
        me["attempt_id"] = mine.pk
        me["beaten"] = beaten
        me["beaten_share"] = round(beaten / (total - 1), 4) if total > 1 else 0.0
    if total is None:
        cur.execute(
            "SELECT count(*) FROM play_attempt WHERE deal_id = %s AND ranked", [deal.pk]
        )
        (total,) = cur.fetchone()
    return {"game": deal.game, "date": deal.date.isoformat(), "total": total,
            "entries": entries, "me": me}


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
    attempts = Attempt.objects.filter(player=user).select_related("deal")
    if game:
        attempts = attempts.filter(deal__game=game)
    by_day: dict[dt.date, dict[str, Attempt]] = {}
    best: dict[str, Attempt] = {}
    played: set[dt.date] = set()
    won: set[dt.date] = set()
    for attempt in attempts.order_by("deal__date", "started_at"):
        day, g = attempt.deal.date, attempt.deal.game
        slot = by_day.setdefault(day, {})
        current = slot.get(g)
        # A day's record is its ranked attempt, else its best practice attempt.
        if current is None or (not current.ranked and (attempt.ranked or _better(attempt, current))):
            slot[g] = attempt
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
        "best": {g: _record(best.get(g), now) for g in games},
    }
