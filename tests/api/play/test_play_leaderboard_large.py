"""The leaderboard of a large board: total and rank from bucket counts cached
for LEADERBOARD_COUNTS_TTL seconds, the same as counting exactly, and never older
than the TTL (counts_as_of)."""

import dataclasses
import datetime as dt
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection

from api import clock
from api.play.models import Attempt, Player
from api.play.records import leaderboard


def _board(deal, users, records):
    now = dt.datetime.now(dt.timezone.utc)
    Attempt.objects.bulk_create(
        Attempt(player=user, deal=deal, ranked=True, version=1, moves=1,
                start_position=deal.position,
                position=deal.position, cards_home=c, undos=u, redeals=r, elapsed_ms=e,
                started_at=now, last_action_at=now)
        for user, (c, u, r, e) in zip(users, records, strict=True)
    )


def _players(n):
    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"u{i}", password="!") for i in range(n))
    Player.objects.bulk_create(Player(user=u, display_name=f"U{i}") for i, u in enumerate(users))
    return users


def _without_as_of(board):
    return dataclasses.replace(board, counts_as_of=None)


@pytest.fixture
def ranked_attempt(make_player):
    def make(deal, name, *, cards_home, undos=0, redeals=0, seconds=60):
        user = make_player(name)
        _board(deal, [user], [(cards_home, undos, redeals, seconds * 1000)])
        return user
    return make


def test_bucket_counts_give_every_player_the_same_rank_and_total_as_counting_exactly(
    todays_deals, settings
):
    deal = todays_deals["cruel"]
    rng = random.Random(5)
    users = _players(120)
    # Few distinct values, so buckets hold many attempts and exact ties are common.
    records = [(rng.choice((52, 52, 40, 4)), rng.choice((0, 1, 3)), rng.choice((0, 2)),
                rng.choice((10_000, 20_000, 20_000, 35_500))) for _ in users]
    _board(deal, users, records)
    settings.LEADERBOARD_COUNTS_TTL = 60
    now = clock.now()
    for user_id in [None, *(u.pk for u in users)]:
        settings.LEADERBOARD_CACHED_COUNTS_FROM = 10**9
        exact = leaderboard.leaderboard(deal=deal, user_id=user_id, limit=100, now=now)
        settings.LEADERBOARD_CACHED_COUNTS_FROM = 1
        from_buckets = leaderboard.leaderboard(deal=deal, user_id=user_id, limit=100, now=now)
        assert _without_as_of(from_buckets) == _without_as_of(exact)
    assert exact.total == 120


def test_buckets_are_reused_for_half_the_ttl_then_counted_again_by_one_request(
    todays_deals, settings
):
    deal = todays_deals["flower"]
    users = _players(30)
    _board(deal, users, [(52 - i % 5, i % 3, 0, 1000 * i) for i in range(30)])
    settings.LEADERBOARD_COUNTS_TTL = 10

    def counts(seconds_later):
        later = now + dt.timedelta(seconds=seconds_later)
        return leaderboard.bucket_counts(deal=deal, now=later, cursor=connection.cursor())

    now = clock.now()
    first = counts(0)
    assert first.total == 30 and len(first.keys) == 15 and first.as_of == now
    assert counts(5) == first
    # Past half the TTL, a request that holds the lock counts again; while
    # another holds it, the counts still in date are used.
    lock = f"{leaderboard._cache_key(deal)}:lock"
    cache.add(lock, 1, 10)
    assert counts(6) == first
    cache.delete(lock)
    assert counts(7).as_of == now + dt.timedelta(seconds=7)
    assert cache.get(lock) is None
    # Too old to use at all: counted again, lock or not.
    cache.add(lock, 1, 10)
    assert counts(18).as_of == now + dt.timedelta(seconds=18)


def test_a_large_boards_counts_are_at_most_the_ttl_old_and_say_as_of_when(
    api, login, ranked_attempt, todays_deals, today, settings, monkeypatch
):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = 2
    settings.LEADERBOARD_COUNTS_TTL = 10
    deal = todays_deals["cruel"]
    ranked_attempt(deal, "a", cards_home=52, seconds=30)
    me = ranked_attempt(deal, "me", cards_home=40)
    viewer = login(api, me)
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    start = clock.now()

    first = viewer.get(url).body
    as_of = dt.datetime.fromisoformat(first["counts_as_of"])
    assert first["total"] == 2 and first["me"]["rank"] == 2
    assert start <= as_of <= clock.now()

    # Another player finishes ahead of me in a better bucket: within the TTL
    # (the first half of it, before a refresh is due) the total and the count
    # of better buckets are the snapshot's, and say so.
    ranked_attempt(deal, "b", cards_home=51)
    monkeypatch.setattr(clock, "now", lambda: start + dt.timedelta(seconds=4))
    cached = viewer.get(url).body
    assert cached["counts_as_of"] == first["counts_as_of"]
    assert (cached["total"], cached["me"]["rank"]) == (2, 2)
    assert [e["display_name"] for e in cached["entries"]] == ["A", "B", "Me"]  # the top is live

    # Past the TTL the counts are taken again.
    monkeypatch.setattr(clock, "now", lambda: start + dt.timedelta(seconds=11))
    fresh = viewer.get(url).body
    assert dt.datetime.fromisoformat(fresh["counts_as_of"]) >= start + dt.timedelta(seconds=11)
    assert (fresh["total"], fresh["me"]["rank"], fresh["me"]["beaten"]) == (3, 3, 0)


def test_order_within_my_own_bucket_is_counted_live_and_ties_share_my_rank(
    api, login, ranked_attempt, todays_deals, today, settings
):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = 2
    # A TTL no test run outlasts: the snapshot stays the one the first request
    # took, however slowly a loaded machine serves the next.
    settings.LEADERBOARD_COUNTS_TTL = 600
    deal = todays_deals["flower"]
    ranked_attempt(deal, "a", cards_home=52)
    me = ranked_attempt(deal, "me", cards_home=30, undos=1, seconds=50)
    ranked_attempt(deal, "z", cards_home=10)
    viewer = login(api, me)
    url = f"/api/v1/leaderboard/flower/{today.isoformat()}"
    assert viewer.get(url).body["me"]["rank"] == 2  # caches the buckets

    ranked_attempt(deal, "faster", cards_home=30, undos=1, seconds=40)
    ranked_attempt(deal, "tie", cards_home=30, undos=1, seconds=50)
    board = viewer.get(url).body
    assert board["total"] == 3  # the snapshot's
    assert board["me"]["rank"] == 3  # A from the buckets, "faster" live
    assert board["me"]["beaten"] == 0  # 3 - 2 better - 2 equal, kept at or above 0
    tie = next(e for e in board["entries"] if e["display_name"] == "Tie")
    assert tie["rank"] == board["me"]["rank"]


def test_a_small_board_is_counted_live_at_every_request(
    api, ranked_attempt, todays_deals, today, settings
):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = 20_000
    deal = todays_deals["cruel"]
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    viewer = api()
    ranked_attempt(deal, "a", cards_home=20)
    assert viewer.get(url).body["total"] == 1
    ranked_attempt(deal, "b", cards_home=30)
    board = viewer.get(url).body
    assert board["total"] == 2
    assert clock.now() - dt.datetime.fromisoformat(board["counts_as_of"]) < dt.timedelta(seconds=5)
