import datetime as dt

import pytest

from api.deals.models import DailyDeal
from api.deals.services import (
    DealNotReady,
    DealNotYetAvailable,
    UnknownGame,
    deal_get,
    deal_prepare,
    deal_today,
    deal_verify,
)

pytestmark = pytest.mark.django_db

UTC = dt.timezone.utc
# 23:00 UTC on 30 June 2031 is 00:00 on 1 July in Lisbon (summer time, UTC+1).
JULY_FIRST = dt.date(2031, 7, 1)
JUST_BEFORE = dt.datetime(2031, 6, 30, 22, 59, 59, tzinfo=UTC)
JUST_AFTER = dt.datetime(2031, 6, 30, 23, 0, 0, tzinfo=UTC)


@pytest.fixture
def july_first_deal():
    return deal_verify(deal_id=deal_prepare(game="cruel", date=JULY_FIRST, enqueue=False).pk)


def test_a_deal_is_refused_before_its_day_begins_in_lisbon(july_first_deal):
    with pytest.raises(DealNotYetAvailable, match="2031-07-01.*not available before"):
        deal_get(game="cruel", date=JULY_FIRST, now=JUST_BEFORE)


def test_a_deal_is_served_from_the_first_instant_of_its_day(july_first_deal):
    assert deal_get(game="cruel", date=JULY_FIRST, now=JUST_AFTER) == july_first_deal
    assert deal_today(game="cruel", now=JUST_AFTER) == july_first_deal


def test_a_past_deal_is_still_served(july_first_deal):
    later = JUST_AFTER + dt.timedelta(days=30)
    assert deal_get(game="cruel", date=JULY_FIRST, now=later) == july_first_deal


def test_a_deal_not_yet_verified_is_not_served():
    deal_prepare(game="flower", date=JULY_FIRST, enqueue=False)
    with pytest.raises(DealNotReady, match="flower deal of 2031-07-01 is not ready"):
        deal_get(game="flower", date=JULY_FIRST, now=JUST_AFTER)


def test_a_missing_deal_is_not_ready():
    with pytest.raises(DealNotReady):
        deal_get(game="cruel", date=JULY_FIRST, now=JUST_AFTER)


def test_a_failed_deal_is_not_served():
    deal = deal_prepare(game="cruel", date=JULY_FIRST, enqueue=False)
    DailyDeal.objects.filter(pk=deal.pk).update(state=DailyDeal.State.FAILED)
    with pytest.raises(DealNotReady):
        deal_get(game="cruel", date=JULY_FIRST, now=JUST_AFTER)


def test_an_unknown_game_is_refused():
    with pytest.raises(UnknownGame):
        deal_get(game="klondike", date=JULY_FIRST, now=JUST_AFTER)
