import pytest
from django.db import IntegrityError, transaction

from api.deals.models import DailyDeal
from api.deals.services import deal_prepare

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_second_deal_for_the_same_game_and_date(a_date):
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyDeal.objects.create(
            game="cruel", date=a_date, seed=deal.seed + 1, position=deal.position
        )


def test_the_two_games_each_have_their_deal_on_the_same_date(a_date):
    cruel = deal_prepare(game="cruel", date=a_date, enqueue=False)
    flower = deal_prepare(game="flower", date=a_date, enqueue=False)
    assert cruel.pk != flower.pk
    assert cruel.position.startswith("cruel ")
    assert flower.position.startswith("flower ")


def test_preparing_twice_gives_back_the_same_row(a_date):
    first = deal_prepare(game="flower", date=a_date, enqueue=False)
    second = deal_prepare(game="flower", date=a_date, enqueue=False)
    assert first.pk == second.pk
    assert DailyDeal.objects.count() == 1


def test_the_database_refuses_an_unknown_game(a_date):
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyDeal.objects.create(game="spider", date=a_date, seed=1, position="x")


def test_the_database_refuses_a_verified_deal_without_a_certificate(a_date):
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyDeal.objects.filter(pk=deal.pk).update(state=DailyDeal.State.VERIFIED)
