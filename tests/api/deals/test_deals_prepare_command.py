import io

import pytest
from django.core.management import CommandError, call_command

from api.deals.models import DailyDeal

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command("prepare_deals", *args, stdout=out)
    return out.getvalue()


def test_the_command_prepares_and_verifies_a_range_showing_progress(replay):
    output = run("--start", "2031-05-01", "--days", "2", "--game", "cruel")

    assert "Preparing 2 deal(s): cruel from 2031-05-01 for 2 day(s)" in output
    assert "[1/2] 2031-05-01 cruel  verified" in output
    assert "[2/2] 2031-05-02 cruel  verified" in output
    assert "candidate 0:" in output
    assert "2 of 2 verified." in output
    deals = DailyDeal.objects.order_by("date")
    assert [str(deal.date) for deal in deals] == ["2031-05-01", "2031-05-02"]
    for deal in deals:
        assert replay(deal.position, deal.certificate).position.cards_home() == 52


def test_the_command_defaults_to_todays_deals_of_both_games():
    from api.clock import today

    output = run("--max-seconds", "3")

    assert f"from {today().isoformat()} for 1 day(s)" in output
    assert set(DailyDeal.objects.values_list("game", "date")) == {
        ("cruel", today()), ("flower", today())
    }
    assert set(DailyDeal.objects.values_list("state", flat=True)) == {"verified"}


def test_reverify_keeps_a_verified_deals_position(replay):
    run("--start", "2031-05-01", "--game", "cruel")
    before = DailyDeal.objects.get()

    output = run("--start", "2031-05-01", "--game", "cruel", "--reverify")

    after = DailyDeal.objects.get()
    assert "[1/1] 2031-05-01 cruel  verified" in output
    assert after.position == before.position
    assert replay(after.position, after.certificate).position.cards_home() == 52


def test_a_deal_that_fails_makes_the_command_fail_with_the_reason():
    with pytest.raises(CommandError, match="1 deal\\(s\\) failed verification: flower 2031-05-01"):
        run("--start", "2031-05-01", "--game", "flower", "--max-nodes", "1", "--max-candidates", "2")


def test_a_bad_start_date_is_refused_with_a_clear_message():
    with pytest.raises(CommandError, match="'tomorrow' is not a date"):
        run("--start", "tomorrow")


def test_a_non_positive_number_of_days_is_refused():
    with pytest.raises(CommandError, match="--days must be 1 or more"):
        run("--days", "0")


@pytest.mark.parametrize(
    "flag", ["--max-seconds", "--max-nodes", "--max-candidates", "--max-solution-moves"]
)
def test_a_non_positive_budget_is_refused_with_its_flag(flag):
    with pytest.raises(CommandError, match=f"{flag} must be more than 0, not 0"):
        run(flag, "0")
