import datetime as dt

import pytest
from django.db import OperationalError
from django.utils import timezone

from api.deals import services
from api.deals.models import DailyDeal
from api.deals.services import deal_claim, deal_prepare, deal_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(a_date):
    return deal_prepare(game="cruel", date=a_date, enqueue=False)


def test_of_two_claims_on_a_pending_deal_only_one_wins(pending):
    first = deal_claim(deal_id=pending.pk, token="worker-a")
    second = deal_claim(deal_id=pending.pk, token="worker-b")

    assert (first, second) == (True, False)
    deal = DailyDeal.objects.get(pk=pending.pk)
    assert deal.state == DailyDeal.State.VERIFYING
    assert deal.claimed_by == "worker-a"


def test_a_stale_claim_can_be_taken_over(pending, settings):
    settings.DEAL_CLAIM_STALE_SECONDS = 60
    long_ago = timezone.now() - dt.timedelta(seconds=61)
    assert deal_claim(deal_id=pending.pk, token="dead-worker", now=long_ago)

    assert deal_claim(deal_id=pending.pk, token="worker-b")
    assert DailyDeal.objects.get(pk=pending.pk).claimed_by == "worker-b"


def test_a_fresh_claim_cannot_be_taken_over(pending, settings):
    settings.DEAL_CLAIM_STALE_SECONDS = 60
    a_moment_ago = timezone.now() - dt.timedelta(seconds=59)
    assert deal_claim(deal_id=pending.pk, token="worker-a", now=a_moment_ago)

    assert not deal_claim(deal_id=pending.pk, token="worker-b")


def test_a_verified_deal_cannot_be_claimed(pending):
    deal_verify(deal_id=pending.pk)
    assert not deal_claim(deal_id=pending.pk, token="worker-b")


def test_verifying_a_deal_claimed_by_a_live_worker_does_nothing(pending):
    assert deal_claim(deal_id=pending.pk, token="worker-a")

    assert deal_verify(deal_id=pending.pk) is None
    deal = DailyDeal.objects.get(pk=pending.pk)
    assert (deal.state, deal.claimed_by, deal.certificate) == ("verifying", "worker-a", "")


def test_a_worker_that_lost_its_claim_writes_nothing(pending, monkeypatch):
    """While worker A solves, its claim goes stale and B takes over; A's answer is dropped."""
    real_solve = services.solve

    def slow_solve(position, **budget):
        DailyDeal.objects.filter(pk=pending.pk).update(claimed_by="worker-b")
        return real_solve(position, **budget)

    monkeypatch.setattr(services, "solve", slow_solve)

    assert deal_verify(deal_id=pending.pk) is None
    deal = DailyDeal.objects.get(pk=pending.pk)
    assert (deal.state, deal.claimed_by, deal.certificate) == ("verifying", "worker-b", "")


def test_a_failure_during_verification_gives_the_deal_back_for_a_retry(pending, monkeypatch):
    def broken_solve(position, **budget):
        raise OperationalError("the connection went away")

    monkeypatch.setattr(services, "solve", broken_solve)

    with pytest.raises(OperationalError):
        deal_verify(deal_id=pending.pk)
    deal = DailyDeal.objects.get(pk=pending.pk)
    assert (deal.state, deal.claimed_by, deal.claimed_at) == ("pending", "", None)
