import pytest

from api.deals import services
from api.deals.models import DailyDeal
from api.deals.services import deal_prepare, deal_verify
from api.deals.tasks import verify_deal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_verifying_stores_a_certificate_that_the_engine_replays_to_52_cards_home(
    game, a_date, replay, monkeypatch
):
    deal = deal_prepare(game=game, date=a_date, enqueue=False)
    answers = []  # the solver's own answers, to compare the stored figures with
    solve = services.solve
    monkeypatch.setattr(services, "solve", lambda *a, **kw: answers.append(solve(*a, **kw)) or answers[-1])

    verified = deal_verify(deal_id=deal.pk)

    assert verified.state == DailyDeal.State.VERIFIED
    board = replay(verified.position, verified.certificate)
    assert board.position.cards_home() == 52
    assert verified.solution_length == len(verified.certificate.split())
    assert verified.redeals == verified.certificate.split().count("R")
    assert verified.nodes == answers[-1].nodes > 0
    assert verified.solve_seconds == round(answers[-1].seconds, 3)
    assert verified.difficulty is not None
    assert verified.verified_at is not None
    assert verified.claimed_by == "" and verified.claimed_at is None


def test_the_verified_position_is_the_deal_of_the_candidates_seed(a_date):
    from api.deals.services import deal_position, deal_seed

    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)

    assert deal.seed == deal_seed(game="cruel", date=a_date, candidate=deal.candidate)
    assert deal.position == deal_position(game="cruel", seed=deal.seed)


def test_preparing_queues_verification_only_after_the_transaction_commits(
    a_date, eager_celery, django_capture_on_commit_callbacks, replay
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deal_prepare(game="cruel", date=a_date)
    assert len(callbacks) == 1
    assert DailyDeal.objects.get().state == DailyDeal.State.PENDING

    callbacks[0]()  # the commit happens: the task runs (eagerly here)

    deal = DailyDeal.objects.get()
    assert deal.state == DailyDeal.State.VERIFIED
    assert replay(deal.position, deal.certificate).position.cards_home() == 52


def test_the_task_leaves_a_verified_deal_alone(a_date):
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)

    assert verify_deal.apply(args=[deal.pk]).get() == "not claimed"

    again = DailyDeal.objects.get(pk=deal.pk)
    assert (again.certificate, again.verified_at) == (deal.certificate, deal.verified_at)


def test_the_task_for_a_deleted_deal_does_nothing():
    assert verify_deal.apply(args=[987654]).get() == "not claimed"


def test_the_task_is_acknowledged_late_and_retried_with_backoff():
    assert verify_deal.acks_late is True
    assert verify_deal.reject_on_worker_lost is True
    assert verify_deal.max_retries > 0
    assert verify_deal.retry_backoff
    assert Exception in verify_deal.autoretry_for


def test_a_deal_already_verified_is_not_queued_again(a_date, django_capture_on_commit_callbacks):
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert deal_prepare(game="cruel", date=a_date).pk == deal.pk
    assert callbacks == []


def test_each_verification_is_counted_for_the_metrics(a_date):
    from api.metrics import DEAL_VERIFICATIONS, SOLVER_SECONDS

    solved = DEAL_VERIFICATIONS.labels("cruel", "solved")
    timed = SOLVER_SECONDS.labels("cruel", "verify")
    before, runs = solved._value.get(), sum(b.get() for b in timed._buckets)
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)
    assert deal.state == DailyDeal.State.VERIFIED
    assert solved._value.get() == before + 1
    assert sum(b.get() for b in timed._buckets) == runs + 1
