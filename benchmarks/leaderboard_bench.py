"""Time the leaderboard with a million ranked attempts on one deal.

Creates a scratch PostgreSQL database, builds the real schema with Django's
migrations, bulk-loads N players and N ranked attempts with COPY, then times
api.play.records.selectors.leaderboard (the top 20 with RANK() plus one player's own
rank and share beaten), the exact code the API runs, both ways in one run:
counted exactly and live (the path of small boards), and with the cached
bucket counts (the path from LEADERBOARD_CACHED_COUNTS_FROM on), whose
rebuild after each LEADERBOARD_COUNTS_TTL is timed apart. The cache is Redis
(--cache-url), as in production. Drops the database at the end unless --keep.

    python benchmarks/leaderboard_bench.py [--attempts 1000000] [--repeat 10] \
        [--admin-url postgres://root@127.0.0.1:5432/postgres] \
        [--cache-url redis://127.0.0.1:6379/15] [--keep]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = "leaderboard_bench"


def scratch_url(admin_url: str) -> str:
    parts = urlsplit(admin_url)
    return urlunsplit(parts._replace(path=f"/{SCRATCH}"))


def recreate(admin_url: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH}")
        conn.execute(f"CREATE DATABASE {SCRATCH}")


def drop(admin_url: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")


def load(url: str, n: int, seed: int) -> tuple[int, int]:
    """COPY n users, players and ranked attempts; returns (deal_id, a user id)."""
    rng = random.Random(seed)
    with psycopg.connect(url) as conn:
        deal_id = conn.execute(
            "INSERT INTO deals_dailydeal (game, date, candidate, seed, position, state, "
            "claimed_by, failure, certificate, created_at, updated_at) VALUES "
            "('cruel', '2026-11-30', 0, 1, 'cruel -', 'verified', '', '', 'R', now(), now()) "
            "RETURNING id"
        ).fetchone()[0]
        first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM auth_user").fetchone()[0]
        ids = range(first, first + n)
        with conn.cursor() as cur:
            with cur.copy(
                "COPY auth_user (id, password, is_superuser, username, first_name, last_name, "
                "email, is_staff, is_active, date_joined) FROM STDIN"
            ) as copy:
                for i in ids:
                    copy.write_row((i, "!", False, f"p{i}", "", "", "", False, True,
                                    "2026-11-30 00:00:00+00"))
            with cur.copy(
                "COPY play_player (user_id, display_name, is_guest, created_at) FROM STDIN"
            ) as copy:
                for i in ids:
                    copy.write_row((i, f"Player {i}", True, "2026-11-30 00:00:00+00"))
            with cur.copy(
                "COPY play_attempt (player_id, deal_id, ranked, status, version, start_position, "
                "position, line, cards_home, redeals, undos, moves, elapsed_ms, started_at, "
                "last_action_at, last_action) FROM STDIN"
            ) as copy:
                for i in ids:
                    won = rng.random() < 0.3
                    home = 52 if won else rng.randint(4, 51)
                    copy.write_row((
                        i, deal_id, True, "won" if won else "abandoned", 1, "cruel -", "cruel -",
                        "", home, rng.randint(0, 6), rng.choice((0, 0, 0, 1, 2, 3, 5, 10)),
                        0, rng.randint(30_000, 3_600_000),
                        "2026-11-30 08:00:00+00", "2026-11-30 08:00:00+00", "",
                    ))
            cur.execute(
                "SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)", [first + n]
            )
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return deal_id, first + n // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--admin-url", default=os.environ.get(
        "BENCH_ADMIN_URL", "postgres://root@127.0.0.1:5432/postgres"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--cache-url", default=os.environ.get(
        "BENCH_CACHE_URL", "redis://127.0.0.1:6379/15"),
        help="Redis for the bucket counts (a database of its own: keys are per deal id)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()

    url = scratch_url(args.admin_url)
    recreate(args.admin_url)
    try:
        os.environ["DATABASE_URL"] = url
        os.environ["CACHE_URL"] = args.cache_url
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command
        from django.db import connection
        from django.test import override_settings
        from django.utils import timezone

        from api.deals.models import DailyDeal
        from api.play.records.selectors import _cache_key, leaderboard

        call_command("migrate", verbosity=0)
        t0 = time.perf_counter()
        deal_id, someone = load(url, args.attempts, seed=2026)
        load_s = time.perf_counter() - t0
        deal = DailyDeal.objects.get(pk=deal_id)
        with connection.cursor() as cur:
            # The worst case for the own-rank count: the last-placed player.
            cur.execute(
                "SELECT player_id FROM play_attempt WHERE deal_id = %s AND ranked AND version > 0 "
                "ORDER BY "
                "cards_home, undos DESC, redeals DESC, elapsed_ms DESC LIMIT 1", [deal_id])
            last = cur.fetchone()[0]
            cur.execute(
                "EXPLAIN ANALYZE SELECT a.id, RANK() OVER (ORDER BY a.cards_home DESC, a.undos, "
                "a.redeals, a.elapsed_ms) FROM play_attempt a WHERE a.deal_id = %s AND a.ranked "
                "AND a.version > 0 "
                "ORDER BY a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms, a.id LIMIT 20",
                [deal_id])
            plan = "\n".join(row[0] for row in cur.fetchall())

        def call(user_id):
            return leaderboard(deal=deal, user_id=user_id, limit=20, now=timezone.now())

        def timed(user_id):
            times = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                board = call(user_id)
                times.append((time.perf_counter() - t) * 1000)
            return board, times

        viewers = [("top 20 + total", None), ("+ own rank (mid-table)", someone),
                   ("+ own rank (last place)", last)]
        exact, cached, boards = {}, {}, {}
        # Exact: the threshold above the board. Cached: a TTL longer than the
        # run, so every timed call is a cache hit; the rebuild is timed apart.
        with override_settings(LEADERBOARD_CACHED_COUNTS_FROM=args.attempts + 1,
                               LEADERBOARD_COUNTS_TTL=3600):
            cache.delete(_cache_key(deal))
            call(None)  # caches "a small board": every timed call counts live
            for name, viewer in viewers:
                boards[name, "exact"], exact[name] = timed(viewer)
        with override_settings(LEADERBOARD_CACHED_COUNTS_FROM=1, LEADERBOARD_COUNTS_TTL=3600):
            rebuilds = []
            for _ in range(max(3, args.repeat // 3)):
                cache.delete(_cache_key(deal))
                t = time.perf_counter()
                call(None)
                rebuilds.append((time.perf_counter() - t) * 1000)
            for name, viewer in viewers:
                boards[name, "cached"], cached[name] = timed(viewer)
            cache.delete(_cache_key(deal))
        for name, _viewer in viewers:
            a, b = boards[name, "exact"], boards[name, "cached"]
            assert a["total"] == b["total"] and a["entries"] == b["entries"], name
            assert a["me"] == b["me"], (name, a["me"], b["me"])

        def med(ms):
            return statistics.median(ms)

        total = boards["top 20 + total", "exact"]["total"]
        mid = boards["+ own rank (mid-table)", "exact"]["me"]
        print(f"attempts (ranked, one deal): {total:,}")
        print(f"load with COPY + VACUUM ANALYZE: {load_s:.1f} s")
        print(f"{'request':28} {'exact median/max':>20} {'cached median/max':>20} {'ratio':>7}")
        for name, _viewer in viewers:
            print(f"{name:28} {med(exact[name]):9.1f} /{max(exact[name]):7.1f} ms"
                  f" {med(cached[name]):9.2f} /{max(cached[name]):7.2f} ms"
                  f" {med(exact[name]) / med(cached[name]):6.0f}x")
        print(f"mid-table: rank {mid['rank']:,}, beaten {mid['beaten_share']:.1%} "
              "(same rank, beaten and total both ways)")
        print(f"bucket counts rebuild (cache miss, top 20 + total): median {med(rebuilds):.1f} ms, "
              f"max {max(rebuilds):.1f} ms")
        print("plan of the top-20 query:\n" + plan)
    finally:
        if not args.keep:
            from django.db import connections

            connections.close_all()
            drop(args.admin_url)


if __name__ == "__main__":
    main()
