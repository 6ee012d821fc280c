"""Daily deals: seeds, preparation, verification by the solver, serving.

Plain functions with keyword-only arguments; the Celery tasks, the management
command and the views are thin adapters over them.

A deal's life: ``deal_prepare`` creates the row for a game and date at
candidate 0 (pending) and queues ``verify_deal`` once the transaction
commits; ``deal_verify`` claims the row with a conditional UPDATE, runs the
solver on the candidate, and either stores the certificate (verified) or
moves to the next candidate for that date, until ``DEAL_MAX_CANDIDATES``
(failed). A solution longer than ``DEAL_MAX_SOLUTION_MOVES`` also moves on
(the certificate is the replay players watch after the day), except on the
last candidate, where a long solution beats no deal. A deal is served
(``deal_get``) only once verified and only from the start of its date in
``DAILY_TIME_ZONE``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

import solitaire
from api import clock, metrics, publish
from api.deals.models import DailyDeal, Game
from solitaire.solver import SolveResult, SolveStatus, solve

logger = logging.getLogger(__name__)

GAMES: tuple[str, ...] = tuple(Game.values)

# Seeds are the first 8 bytes of an HMAC with the top bit cleared, so that
# they fit PostgreSQL's signed bigint; solitaire.deal takes any 0 <= seed < 2**64.
SEED_MASK = (1 << 63) - 1


class UnknownGame(ValueError):
    def __init__(self, game: str):
        super().__init__(f"Unknown game {game!r}: expected one of {', '.join(GAMES)}.")
        self.game = game


class DealUnavailable(Exception):
    """The deal asked for cannot be served; the message says why."""


class DealNotYetAvailable(DealUnavailable):
    """The date has not begun yet in the daily time zone."""


class DealNotReady(DealUnavailable):
    """The date has begun but its deal is not (yet) verified."""


# -- Seeds and positions -----------------------------------------------------------


def _check_game(game: str) -> str:
    """A name from outside, checked; a Game member has been already."""
    if not isinstance(game, Game) and game not in GAMES:
        raise UnknownGame(game)
    return game


def deal_seed(*, game: str, date: Date, candidate: int = 0, secret: str | None = None) -> int:
    """HMAC-SHA256(secret, "game:date:candidate"), first 8 bytes, as a seed.

    Stable forever for the same inputs; unknown to anyone without the secret.
    """
    _check_game(game)
    if candidate < 0:
        raise ValueError(f"candidate must be 0 or more, not {candidate}")
    key = (settings.DEAL_SEED_SECRET if secret is None else secret).encode()
    message = f"{game}:{date.isoformat()}:{candidate}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MASK


def deal_position(*, game: str, seed: int) -> str:
    """The position, in notation, that ``seed`` deals for ``game``."""
    return solitaire.deal(_check_game(game), seed=seed).notation()


def certificate_is_valid(*, position: str, certificate: str) -> bool:
    """True when the moves, played from the position by the engine, win."""
    try:
        board = solitaire.Board(solitaire.parse_position(position))
        for token in certificate.split():
            board.push(solitaire.Move.parse(token))
    except ValueError:  # the engine's errors are ValueError subclasses
        return False
    return board.position.cards_home() == 52


# -- Preparing ----------------------------------------------------------------------


def _candidate_fields(*, game: str, date: Date, candidate: int) -> dict:
    seed = deal_seed(game=game, date=date, candidate=candidate)
    return {"candidate": candidate, "seed": seed, "position": deal_position(game=game, seed=seed)}


def deal_prepare(*, game: str, date: Date, enqueue: bool = True) -> DailyDeal:
    """Make sure the deal of ``game`` on ``date`` exists; queue its verification.

    Idempotent: the row is created once (the database enforces one per game
    and date), and a deal not yet verified is queued again on every call,
    which recovers a lost message or a dead worker's stale claim (the claim
    makes a duplicate run harmless).
    """
    _check_game(game)
    deal = DailyDeal.objects.filter(game=game, date=date).first()
    if deal is None:
        deal, _created = DailyDeal.objects.get_or_create(
            game=game, date=date, defaults=_candidate_fields(game=game, date=date, candidate=0)
        )
    if enqueue and deal.state in (DailyDeal.State.PENDING, DailyDeal.State.VERIFYING):
        deal_enqueue_verification(deal_id=deal.pk)
    return deal


VERIFY_DEAL = "api.deals.tasks.verify_deal"


def deal_enqueue_verification(*, deal_id: int, reverify: bool = False) -> None:
    """Queue ``verify_deal`` once the current transaction commits, under
    api.publish's deadline (beat's hourly run queues a lost one again). The task
    is named, not imported: ``api.deals.tasks`` imports this module, and
    Celery finds the task by its name (``DealsConfig.ready`` registers it)."""
    publish.task_send(VERIFY_DEAL, args=(deal_id,), kwargs={"reverify": reverify})


@dataclass(frozen=True)
class VerificationBudget:
    """The solver's budget for one candidate, and how many candidates to try."""

    max_seconds: float
    max_nodes: int
    max_candidates: int
    # A solved candidate with a longer solution is passed over (None: no cap).
    max_solution_moves: int | None = None

    @classmethod
    def from_settings(
        cls,
        *,
        max_seconds: float | None = None,
        max_nodes: int | None = None,
        max_candidates: int | None = None,
        max_solution_moves: int | None = None,
    ) -> "VerificationBudget":
        return cls(
            max_seconds=settings.DEAL_SOLVE_MAX_SECONDS if max_seconds is None else max_seconds,
            max_nodes=settings.DEAL_SOLVE_MAX_NODES if max_nodes is None else max_nodes,
            max_candidates=(
                settings.DEAL_MAX_CANDIDATES if max_candidates is None else max_candidates
            ),
            max_solution_moves=(
                settings.DEAL_MAX_SOLUTION_MOVES
                if max_solution_moves is None
                else max_solution_moves
            ),
        )

    def too_long(self, result: SolveResult) -> bool:
        return self.max_solution_moves is not None and len(result.moves) > self.max_solution_moves


ProgressCallback = Callable[[DailyDeal, SolveResult], None]


def deals_prepare_range(
    *,
    start: Date,
    days: int,
    games: Iterable[str] = GAMES,
    verify_now: bool = False,
    reverify: bool = False,
    budget: VerificationBudget | None = None,
    on_deal: Callable[[DailyDeal, int, int], None] | None = None,
    on_candidate: ProgressCallback | None = None,
) -> list[DailyDeal]:
    """Prepare every game for ``days`` dates from ``start``.

    By default verification is queued (Celery, or inline when no broker is
    configured). ``verify_now`` verifies here, in this process, reporting to
    ``on_candidate`` after each solver run and to ``on_deal`` after each deal.
    ``reverify`` checks deals again even when already verified.
    """
    if days < 0:
        raise ValueError(f"days must be 0 or more, not {days}")
    games = [_check_game(game) for game in games]
    jobs = [(start + timedelta(days=offset), game) for offset in range(days) for game in games]
    deals = []
    for index, (date, game) in enumerate(jobs, start=1):
        deal = deal_prepare(game=game, date=date, enqueue=not (verify_now or reverify))
        if verify_now:
            verify = deal_reverify if reverify else deal_verify
            verified = verify(deal_id=deal.pk, budget=budget, on_candidate=on_candidate)
            deal = verified or DailyDeal.objects.get(pk=deal.pk)
        elif reverify:
            deal_enqueue_verification(deal_id=deal.pk, reverify=True)
        deals.append(deal)
        if on_deal:
            on_deal(deal, index, len(jobs))
    return deals


def deals_prepare_upcoming(*, now: datetime | None = None) -> list[DailyDeal]:
    """Today and the next DEALS_DAYS_AHEAD days, both games (the beat task).

    Computed from the date in DAILY_TIME_ZONE at each run, so however often
    it runs and whatever daylight saving does to the hours, every date is
    prepared exactly once and none is skipped.
    """
    return deals_prepare_range(start=clock.day_of(now or clock.now()), days=settings.DEALS_DAYS_AHEAD + 1)


# -- Verifying ----------------------------------------------------------------------


def _claim_token(delivery: str | None = None) -> str:
    """Who holds a claim: the task's id first (``delivery``), when a task
    made it, then this process and a random tag."""
    worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    return f"{delivery}/{worker}" if delivery else worker


def deal_claim(*, deal_id: int, token: str, now: datetime | None = None,
               delivery: str | None = None) -> bool:
    """Take the deal for verification; True only for the one caller that won.

    A single conditional UPDATE: the deal must be pending, or verifying under
    a claim older than DEAL_CLAIM_STALE_SECONDS (its worker died), or under a
    claim made by this same task (``delivery``, the task's id): the broker
    gives a task again only when the worker running it died (its child was
    killed and the task rejected, or the whole worker died and the visibility
    timeout passed), so a claim of the same task belongs to a dead worker and
    is taken over at once, without waiting for it to go stale.
    """
    now = now or timezone.now()
    stale_before = now - timedelta(seconds=settings.DEAL_CLAIM_STALE_SECONDS)
    claimable = Q(state=DailyDeal.State.PENDING) | Q(
        Q(claimed_at__lt=stale_before) | Q(claimed_at__isnull=True),
        state=DailyDeal.State.VERIFYING,
    )
    if delivery:
        claimable |= Q(state=DailyDeal.State.VERIFYING, claimed_by__startswith=f"{delivery}/")
    won = DailyDeal.objects.filter(claimable, pk=deal_id).update(
        state=DailyDeal.State.VERIFYING, claimed_at=now, claimed_by=token, updated_at=now
    )
    return won == 1


def _claimed(deal_id: int, token: str):
    """The deal, only while this claim still holds it (for conditional updates)."""
    return DailyDeal.objects.filter(pk=deal_id, state=DailyDeal.State.VERIFYING, claimed_by=token)


def _release(deal_id: int, token: str, **fields) -> bool:
    now = timezone.now()
    fields.setdefault("state", DailyDeal.State.PENDING)
    return bool(
        _claimed(deal_id, token).update(claimed_at=None, claimed_by="", updated_at=now, **fields)
    )


def _solve(position: str, budget: VerificationBudget) -> tuple[SolveResult, str]:
    """Run the solver; a SOLVED answer counts only if its moves replay to a win."""
    parsed = solitaire.parse_position(position)
    result = solve(parsed, max_seconds=budget.max_seconds, max_nodes=budget.max_nodes)
    metrics.SOLVER_SECONDS.labels(parsed.game, "verify").observe(result.seconds)
    certificate = " ".join(move.token() for move in result.moves)
    if result.status == SolveStatus.SOLVED and not certificate_is_valid(
        position=position, certificate=certificate
    ):
        logger.error("The solver's solution does not replay: %s / %s", position, certificate)
        metrics.DEAL_VERIFICATIONS.labels(parsed.game, "bad_certificate").inc()
        return result, ""
    metrics.DEAL_VERIFICATIONS.labels(parsed.game, result.status.value).inc()
    return result, certificate


def _describe(result: SolveResult) -> str:
    return f"{result.status.value} after {result.seconds:.1f} s and {result.nodes} nodes"


def _solution_fields(result: SolveResult, certificate: str) -> dict:
    return {
        "state": DailyDeal.State.VERIFIED,
        "certificate": certificate,
        "solution_length": len(result.moves),
        "redeals": result.redeals,
        "nodes": result.nodes,
        "solve_seconds": round(result.seconds, 3),
        "difficulty": float(result.difficulty),
        "verified_at": timezone.now(),
        "failure": "",
    }


def _published_unsolved_fields(deal: DailyDeal, reason: str) -> dict:
    """A published position the solver did not settle this time: it keeps its
    position, and stays verified while its stored certificate still wins."""
    if certificate_is_valid(position=deal.position, certificate=deal.certificate):
        return {"state": DailyDeal.State.VERIFIED, "failure": f"re-verification: {reason}"}
    return {
        "state": DailyDeal.State.FAILED,
        "failure": f"the stored certificate no longer replays; {reason}",
    }


def deal_verify(
    *,
    deal_id: int,
    budget: VerificationBudget | None = None,
    on_candidate: ProgressCallback | None = None,
    delivery: str | None = None,
) -> DailyDeal | None:
    """Verify a pending deal; returns it, or None if this call did not win the claim.

    Safe to run twice at once (one wins the claim) and to be killed halfway
    (the next run takes over from the candidate reached, which is saved after
    each one: at once when it is the same task given again, ``delivery``
    being the task's id, else once the claim has gone stale).
    """
    budget = budget or VerificationBudget.from_settings()
    token = _claim_token(delivery)
    if not deal_claim(deal_id=deal_id, token=token, delivery=delivery):
        return None
    try:
        return _verify_claimed(deal_id=deal_id, token=token, budget=budget, on_candidate=on_candidate)
    except BaseException:
        # Give the deal back at once so a retry need not wait for the claim to go stale.
        try:
            _release(deal_id, token)
        except Exception:  # the database may be what failed
            logger.exception("Could not release the claim on deal %s", deal_id)
        raise


def _verify_claimed(
    *, deal_id: int, token: str, budget: VerificationBudget, on_candidate: ProgressCallback | None
) -> DailyDeal | None:
    deal = DailyDeal.objects.get(pk=deal_id)
    while True:
        result, certificate = _solve(deal.position, budget)
        if on_candidate:
            on_candidate(deal, result)
        last = deal.candidate + 1 >= budget.max_candidates
        # A published position keeps its certificate however long: it cannot change.
        keep = last or deal.verified_at is not None or not budget.too_long(result)
        if certificate and keep:
            won = _release(deal_id, token, **_solution_fields(result, certificate))
            return DailyDeal.objects.get(pk=deal_id) if won else None

        reason = f"candidate {deal.candidate}: {_describe(result)}"
        if certificate:
            reason += f", but its solution has {len(result.moves)} moves (at most {budget.max_solution_moves})"
        if deal.verified_at is not None:
            # This position was published: never swap it for another.
            kept = _release(deal_id, token, **_published_unsolved_fields(deal, reason))
            return DailyDeal.objects.get(pk=deal_id) if kept else None

        next_candidate = deal.candidate + 1
        if next_candidate >= budget.max_candidates:
            failed = _release(
                deal_id,
                token,
                state=DailyDeal.State.FAILED,
                failure=f"no solution within budget for {budget.max_candidates} candidates; last {reason}",
            )
            return DailyDeal.objects.get(pk=deal_id) if failed else None

        logger.info("Deal %s %s %s; trying candidate %s", deal.game, deal.date, reason, next_candidate)
        moved = _claimed(deal_id, token).update(
            **_candidate_fields(game=deal.game, date=deal.date, candidate=next_candidate),
            failure=reason,
            claimed_at=timezone.now(),  # still alive: keep the claim fresh
            updated_at=timezone.now(),
        )
        if not moved:
            return None  # the claim went stale and another worker took over
        deal.refresh_from_db()


def deal_reverify(
    *,
    deal_id: int,
    budget: VerificationBudget | None = None,
    on_candidate: ProgressCallback | None = None,
    delivery: str | None = None,
) -> DailyDeal | None:
    """Check a deal again with the solver, whatever its state.

    A deal never verified starts over from candidate 0. A verified deal keeps
    its position (it may have been served): the solver runs on it again and
    the certificate and figures are refreshed if it finds a solution.
    """
    budget = budget or VerificationBudget.from_settings()
    deal = DailyDeal.objects.get(pk=deal_id)
    now = timezone.now()
    not_being_verified = ~Q(state=DailyDeal.State.VERIFYING) | Q(
        claimed_at__lt=now - timedelta(seconds=settings.DEAL_CLAIM_STALE_SECONDS)
    )
    if deal.state == DailyDeal.State.VERIFIED:
        result, certificate = _solve(deal.position, budget)
        if on_candidate:
            on_candidate(deal, result)
        if certificate:
            fields = _solution_fields(result, certificate)
        else:
            fields = _published_unsolved_fields(deal, f"candidate {deal.candidate}: {_describe(result)}")
        DailyDeal.objects.filter(pk=deal_id, state=DailyDeal.State.VERIFIED).update(
            updated_at=now, **fields
        )
        return DailyDeal.objects.get(pk=deal_id)

    reset = {"state": DailyDeal.State.PENDING, "claimed_at": None, "claimed_by": "", "updated_at": now}
    if deal.verified_at is None:
        reset.update(_candidate_fields(game=deal.game, date=deal.date, candidate=0))
    DailyDeal.objects.filter(not_being_verified, pk=deal_id).update(**reset)
    return deal_verify(deal_id=deal_id, budget=budget, on_candidate=on_candidate, delivery=delivery)


# -- Serving ------------------------------------------------------------------------


def deal_get(*, game: str, date: Date, now: datetime | None = None) -> DailyDeal:
    """The verified deal of ``game`` on ``date``, never before that date begins.

    Raises UnknownGame, DealNotYetAvailable (a future date in DAILY_TIME_ZONE)
    or DealNotReady (no verified deal for that date).
    """
    _check_game(game)
    current = clock.day_of(now or clock.now())
    if date > current:
        raise DealNotYetAvailable(
            f"The {game} deal of {date.isoformat()} is not available before that day begins "
            f"(today is {current.isoformat()} in {settings.DAILY_TIME_ZONE})."
        )
    try:
        return DailyDeal.objects.get(game=game, date=date, state=DailyDeal.State.VERIFIED)
    except DailyDeal.DoesNotExist:
        raise DealNotReady(f"The {game} deal of {date.isoformat()} is not ready.") from None


def deal_today(*, game: str, now: datetime | None = None) -> DailyDeal:
    return deal_get(game=game, date=clock.day_of(now or clock.now()), now=now)
