import pytest

from api.deals import services
from api.deals.models import DailyDeal
from api.deals.services import (
    VerificationBudget,
    deal_position,
    deal_prepare,
    deal_reverify,
    deal_seed,
    deal_verify,
)
from solitaire.solver import SolveStatus

pytestmark = pytest.mark.django_db

TINY = VerificationBudget(max_seconds=5.0, max_nodes=1, max_candidates=3)


def test_a_candidate_the_solver_cannot_settle_moves_the_deal_to_the_next_candidate(
    a_date, monkeypatch, replay
):
    """The first solver run gets a one-node budget (LIMIT_REACHED); the next runs as usual."""
    real_solve = services.solve
    answers = []

    def first_run_starved(position, **budget):
        if not answers:
            budget["max_nodes"] = 1
        result = real_solve(position, **budget)
        answers.append(result.status)
        return result

    monkeypatch.setattr(services, "solve", first_run_starved)
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)
    assert deal.candidate == 0

    verified = deal_verify(deal_id=deal.pk)

    assert answers[0] == SolveStatus.LIMIT_REACHED
    assert answers[-1] == SolveStatus.SOLVED
    assert verified.state == DailyDeal.State.VERIFIED
    assert verified.candidate == len(answers) - 1 >= 1
    assert verified.seed == deal_seed(game="cruel", date=a_date, candidate=verified.candidate)
    assert verified.position == deal_position(game="cruel", seed=verified.seed)
    assert verified.position != deal.position
    assert replay(verified.position, verified.certificate).position.cards_home() == 52


def test_after_the_last_candidate_the_deal_is_marked_failed_with_the_reason(a_date):
    deal = deal_prepare(game="flower", date=a_date, enqueue=False)

    failed = deal_verify(deal_id=deal.pk, budget=TINY)

    assert failed.state == DailyDeal.State.FAILED
    assert failed.candidate == 2
    assert failed.position == deal_position(
        game="flower", seed=deal_seed(game="flower", date=a_date, candidate=2)
    )
    assert "3 candidates" in failed.failure and "unknown" in failed.failure
    assert failed.certificate == ""
    assert failed.claimed_by == ""


def test_a_failed_deal_is_verified_again_from_the_first_candidate_on_request(a_date):
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)
    deal_verify(deal_id=deal.pk, budget=TINY)

    tried = []

    again = deal_reverify(deal_id=deal.pk, on_candidate=lambda d, result: tried.append(d.candidate))

    assert tried[0] == 0
    assert tried == list(range(len(tried)))
    assert again.state == DailyDeal.State.VERIFIED
    assert again.candidate == tried[-1]
    assert again.failure == ""


def test_re_verifying_a_published_deal_never_changes_its_position(a_date, replay):
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)

    again = deal_reverify(deal_id=deal.pk, budget=TINY)

    assert again.state == DailyDeal.State.VERIFIED
    assert (again.candidate, again.position) == (deal.candidate, deal.position)
    assert replay(again.position, again.certificate).position.cards_home() == 52
    assert "re-verification" in again.failure


def test_re_verifying_refreshes_the_certificate_when_the_solver_finds_one(a_date, replay):
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)
    DailyDeal.objects.filter(pk=deal.pk).update(nodes=None)

    again = deal_reverify(deal_id=deal.pk)

    assert again.position == deal.position
    assert again.nodes is not None and again.verified_at >= deal.verified_at
    assert replay(again.position, again.certificate).position.cards_home() == 52


def test_a_published_deal_whose_certificate_no_longer_replays_is_marked_failed(a_date):
    deal = deal_verify(deal_id=deal_prepare(game="cruel", date=a_date, enqueue=False).pk)
    DailyDeal.objects.filter(pk=deal.pk).update(certificate="R")

    again = deal_reverify(deal_id=deal.pk, budget=TINY)

    assert again.state == DailyDeal.State.FAILED
    assert again.position == deal.position
    assert "no longer replays" in again.failure


def _first_solution_length(a_date, game):
    position = deal_position(game=game, seed=deal_seed(game=game, date=a_date, candidate=0))
    result, certificate = services._solve(position, VerificationBudget.from_settings())
    assert certificate
    return len(result.moves)


def test_a_solution_longer_than_the_cap_moves_the_deal_to_the_next_candidate(a_date, replay):
    cap = _first_solution_length(a_date, "cruel") - 1
    budget = VerificationBudget.from_settings(max_solution_moves=cap)
    seen = []
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)

    verified = deal_verify(
        deal_id=deal.pk, budget=budget, on_candidate=lambda d, r: seen.append((d.candidate, r))
    )

    assert seen[0][0] == 0 and seen[0][1].status == SolveStatus.SOLVED
    assert len(seen[0][1].moves) == cap + 1
    assert verified.state == DailyDeal.State.VERIFIED
    assert verified.candidate == seen[-1][0] >= 1
    assert verified.solution_length == len(verified.certificate.split()) <= cap
    assert replay(verified.position, verified.certificate).position.cards_home() == 52


def test_the_last_candidate_keeps_a_solution_longer_than_the_cap(a_date, replay):
    budget = VerificationBudget.from_settings(max_solution_moves=10, max_candidates=1)
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)

    verified = deal_verify(deal_id=deal.pk, budget=budget)

    assert verified.state == DailyDeal.State.VERIFIED
    assert verified.candidate == 0
    assert verified.solution_length > 10
    assert replay(verified.position, verified.certificate).position.cards_home() == 52


def test_the_deal_says_why_a_long_solution_was_passed_over(a_date):
    budget = VerificationBudget.from_settings(max_solution_moves=10, max_candidates=2)
    seen = []
    deal = deal_prepare(game="cruel", date=a_date, enqueue=False)

    verified = deal_verify(
        deal_id=deal.pk, budget=budget, on_candidate=lambda d, r: seen.append((d.candidate, d.failure))
    )

    assert [candidate for candidate, _ in seen] == [0, 1]
    assert seen[1][1].startswith("candidate 0: solved after")
    assert seen[1][1].endswith("moves (at most 10)")
    assert (verified.state, verified.candidate, verified.failure) == (DailyDeal.State.VERIFIED, 1, "")
