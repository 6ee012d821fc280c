"""Time the leaderboard with a million ranked attempts on one deal.

Creates a scratch PostgreSQL database, builds the real schema with Django's
migrations, bulk-loads N players and N ranked attempts with COPY, then times
api.play.records.leaderboard.leaderboard (the top 20 with RANK() plus one player's own
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
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (what the service benchmarks share)

sys.path.insert(0, str(common.ROOT))
SCRATCH = "leaderboard_bench"
# The requests timed: the board alone, and with a viewer's own rank.
VIEWERS = ("top 20 + total", "+ own rank (mid-table)", "+ own rank (last place)")


def load(url: str, n: int, seed: int) -> tuple[int, int]:
    """COPY n users, players and ranked attempts; returns (deal_id, a user id)."""
    from api.play.names import display_name_key

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
                "COPY play_player (user_id, display_name, name_key, is_guest, created_at) FROM STDIN"
            ) as copy:
                for i in ids:
                    name = f"Player {i}"
                    copy.write_row((i, name, display_name_key(name), True, "2026-11-30 00:00:00+00"))
            with cur.copy(
                "COPY play_attempt (player_id, deal_id, ranked, status, version, start_position, "
                "position, line, cards_home, redeals, undos, moves, elapsed_ms, started_at, "
                "last_action_at, last_action, fast_run, machine_pace) FROM STDIN"
            ) as copy:
                for i in ids:
                    won = rng.random() < 0.3
                    home = 52 if won else rng.randint(4, 51)
                    copy.write_row((
                        i, deal_id, True, "won" if won else "abandoned", 1, "cruel -", "cruel -",
                        "", home, rng.randint(0, 6), rng.choice((0, 0, 0, 1, 2, 3, 5, 10)),
                        1, rng.randint(30_000, 3_600_000),
                        "2026-11-30 08:00:00+00", "2026-11-30 08:00:00+00", "",
                        0, rng.random() < 0.01,
                    ))
            cur.execute(
                "SELECT setval(pg_get_serial_sequence('auth_user', 'id'), %s)", [first + n]
            )
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return deal_id, first + n // 2


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--admin-url", default=os.environ.get(
        "BENCH_ADMIN_URL", "postgres://root@127.0.0.1:5432/postgres"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--cache-url", default=os.environ.get(
        "BENCH_CACHE_URL", "redis://127.0.0.1:6379/15"),
        help="Redis for the bucket counts (a database of its own: keys are per deal id)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    return parser.parse_args(argv)


def last_player_and_plan(deal_id: int) -> tuple[int, str]:
    """The last-placed player (the worst case for the own-rank count), and
    the plan of the top-20 query."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT player_id FROM play_attempt WHERE deal_id = %s AND ranked "
            "AND (moves > 0 OR undos > 0) "
            "ORDER BY cards_home, undos DESC, redeals DESC, elapsed_ms DESC LIMIT 1", [deal_id])
        last = cur.fetchone()[0]
        cur.execute(
            "EXPLAIN ANALYZE SELECT a.id, RANK() OVER (ORDER BY a.cards_home DESC, a.undos, "
            "a.redeals, a.elapsed_ms) FROM play_attempt a WHERE a.deal_id = %s AND a.ranked "
            "AND (a.moves > 0 OR a.undos > 0) "
            "ORDER BY a.cards_home DESC, a.undos, a.redeals, a.elapsed_ms, a.id LIMIT 20",
            [deal_id])
        return last, "\n".join(row[0] for row in cur.fetchall())


def time_both_ways(deal, viewers: dict, attempts: int, repeat: int) -> tuple[dict, dict, dict, list]:
    """Each viewer's board timed counted exactly and live, then with the
    cached bucket counts (a TTL longer than the run, so every timed call is
    a hit; the rebuild is timed apart). Returns (boards by (viewer, way),
    exact ms, cached ms, rebuild ms)."""
    from django.core.cache import cache
    from django.test import override_settings
    from django.utils import timezone

    from api.play.records.leaderboard import _cache_key, leaderboard

    def board_of(user_id):
        return lambda: leaderboard(deal=deal, user_id=user_id, limit=20, now=timezone.now())

    exact, cached, boards = {}, {}, {}
    with override_settings(LEADERBOARD_CACHED_COUNTS_FROM=attempts + 1, LEADERBOARD_COUNTS_TTL=3600):
        cache.delete(_cache_key(deal))
        board_of(None)()  # caches "a small board": every timed call counts live
        for name, viewer in viewers.items():
            boards[name, "exact"], exact[name] = common.timed(board_of(viewer), repeat)
    with override_settings(LEADERBOARD_CACHED_COUNTS_FROM=1, LEADERBOARD_COUNTS_TTL=3600):
        rebuilds = []
        for _ in range(max(3, repeat // 3)):
            cache.delete(_cache_key(deal))
            rebuilds += common.timed(board_of(None), 1)[1]
        for name, viewer in viewers.items():
            boards[name, "cached"], cached[name] = common.timed(board_of(viewer), repeat)
        cache.delete(_cache_key(deal))
    return boards, exact, cached, rebuilds


def check_same(boards: dict) -> None:
    """Both ways give the same board, total and own rank."""
    for name in VIEWERS:
        a, b = boards[name, "exact"], boards[name, "cached"]
        assert a.total == b.total and a.entries == b.entries, name
        assert a.me == b.me, (name, a.me, b.me)


def show(boards: dict, exact: dict, cached: dict, rebuilds: list, load_s: float, plan: str) -> None:
    med = common.median
    total = boards["top 20 + total", "exact"].total
    mid = boards["+ own rank (mid-table)", "exact"].me
    print(f"attempts (ranked, one deal): {total:,}")
    print(f"load with COPY + VACUUM ANALYZE: {load_s:.1f} s")
    print(f"{'request':28} {'exact median/max':>20} {'cached median/max':>20} {'ratio':>7}")
    for name in VIEWERS:
        print(f"{name:28} {med(exact[name]):9.1f} /{max(exact[name]):7.1f} ms"
              f" {med(cached[name]):9.2f} /{max(cached[name]):7.2f} ms"
              f" {med(exact[name]) / med(cached[name]):6.0f}x")
    print(f"mid-table: rank {mid.rank:,}, beaten {mid.beaten_share:.1%} "
          "(same rank, beaten and total both ways)")
    print(f"bucket counts rebuild (cache miss, top 20 + total): median {med(rebuilds):.1f} ms, "
          f"max {max(rebuilds):.1f} ms")
    print("plan of the top-20 query:\n" + plan)


def main() -> None:
    args = parse_args()
    with common.scratch_database(args.admin_url, SCRATCH, keep=args.keep) as url:
        os.environ["DATABASE_URL"] = url
        os.environ["CACHE_URL"] = args.cache_url
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from api.deals.models import DailyDeal

        try:
            call_command("migrate", verbosity=0)
            t0 = time.perf_counter()
            deal_id, someone = load(url, args.attempts, seed=2026)
            load_s = time.perf_counter() - t0
            last, plan = last_player_and_plan(deal_id)
            viewers = dict(zip(VIEWERS, (None, someone, last)))
            boards, exact, cached, rebuilds = time_both_ways(
                DailyDeal.objects.get(pk=deal_id), viewers, args.attempts, args.repeat)
            check_same(boards)
            show(boards, exact, cached, rebuilds, load_s, plan)
        finally:
            connections.close_all()  # before the database is dropped


if __name__ == "__main__":
    main()
