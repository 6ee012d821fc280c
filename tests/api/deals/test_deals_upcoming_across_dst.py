"""The beat task keeps today..today+7 prepared; daylight saving changes in
Europe/Lisbon neither skip nor repeat a day."""

import collections
import datetime as dt

import pytest
from celery.schedules import crontab
from django.conf import settings as django_settings

from api import celery_app
from api.clock import day_of, today
from api.deals.models import DailyDeal
from api.deals.services import deals_prepare_range, deals_prepare_upcoming

pytestmark = pytest.mark.django_db

UTC = dt.timezone.utc
# Europe/Lisbon: 2026-03-29 01:00 -> 02:00 (a 23-hour day) and
# 2026-10-25 02:00 -> 01:00 (a 25-hour day).
SPRING_FORWARD = dt.date(2026, 3, 29)
FALL_BACK = dt.date(2026, 10, 25)


@pytest.mark.parametrize(
    ("change_day", "hours_that_day"), [(SPRING_FORWARD, 23), (FALL_BACK, 25)]
)
def test_hourly_runs_across_a_daylight_saving_change_prepare_every_date_exactly_once(
    change_day, hours_that_day, django_capture_on_commit_callbacks
):
    first_run = dt.datetime.combine(change_day - dt.timedelta(days=2), dt.time(7), UTC)
    runs_per_day = collections.Counter()

    for hour in range(24 * 5):
        now = first_run + dt.timedelta(hours=hour)
        with django_capture_on_commit_callbacks(execute=False):
            deals = deals_prepare_upcoming(now=now)
        day = day_of(now)
        runs_per_day[day] += 1
        expected = {(day + dt.timedelta(days=n), game) for n in range(8) for game in ("cruel", "flower")}
        assert {(deal.date, deal.game) for deal in deals} == expected

    days = sorted(runs_per_day)
    assert days == [days[0] + dt.timedelta(days=n) for n in range(len(days))], "no day skipped"
    assert runs_per_day[change_day] == hours_that_day
    stored = list(DailyDeal.objects.order_by("date").values_list("date", flat=True).distinct())
    assert stored == [days[0] + dt.timedelta(days=n) for n in range((days[-1] - days[0]).days + 8)]
    assert DailyDeal.objects.count() == 2 * len(stored)


def test_today_changes_at_midnight_in_lisbon_not_in_utc():
    # Summer (UTC+1): 23:30 UTC on 30 June is already 1 July in Lisbon.
    assert day_of(dt.datetime(2026, 6, 30, 22, 59, tzinfo=UTC)) == dt.date(2026, 6, 30)
    assert day_of(dt.datetime(2026, 6, 30, 23, 0, tzinfo=UTC)) == dt.date(2026, 7, 1)
    # Winter (UTC+0).
    assert day_of(dt.datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == dt.date(2026, 12, 31)
    assert day_of(dt.datetime(2027, 1, 1, 0, 0, tzinfo=UTC)) == dt.date(2027, 1, 1)


def test_today_follows_the_configured_time_zone(settings):
    settings.DAILY_TIME_ZONE = "Asia/Tokyo"
    assert day_of(dt.datetime(2026, 6, 30, 15, 0, tzinfo=UTC)) == dt.date(2026, 7, 1)


def test_preparing_a_range_queues_every_new_deal_once(a_date, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deals = deals_prepare_range(start=a_date, days=3)
    assert len(deals) == len(callbacks) == 6
    assert all(deal.state == DailyDeal.State.PENDING for deal in deals)


def test_beat_runs_the_preparation_every_hour():
    entry = django_settings.CELERY_BEAT_SCHEDULE["deals-keep-upcoming-prepared"]
    assert entry["task"] in celery_app.tasks
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert schedule.hour == set(range(24))
    assert len(schedule.minute) == 1
    assert django_settings.CELERY_TIMEZONE == django_settings.DAILY_TIME_ZONE


def test_the_beat_task_prepares_today_and_the_next_seven_days_of_both_games(
    eager_celery, django_capture_on_commit_callbacks
):
    from api.deals.tasks import prepare_upcoming_deals

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert prepare_upcoming_deals.apply().get() == 16
    first = today()
    assert set(DailyDeal.objects.values_list("date", "game")) == {
        (first + dt.timedelta(days=n), game) for n in range(8) for game in ("cruel", "flower")
    }
    assert len(callbacks) == 16  # each new deal's verification, queued on commit
