"""The home in the database of attempts' analyses and of the positions the
solver decided for them (api.play.models.AttemptAnalysis, PositionVerdict).

An analysis is claimed like a deal's verification: one conditional UPDATE
takes a pending row, or one whose claim is older than
``PLAY_ANALYSIS_CLAIM_STALE_SECONDS`` (its worker died); a done row is never
taken again, so running the task twice changes nothing.
"""

from __future__ import annotations

import datetime as dt
import hashlib

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from api.deals.models import DailyDeal
from api.play.attempts.analysis import SOLVED, UNSOLVABLE, Decision, Verdict
from api.play.models import Attempt, AttemptAnalysis, PositionVerdict

State = AttemptAnalysis.State


def position_key(notation: str) -> str:
    return hashlib.sha256(notation.encode()).hexdigest()


def decision_get(notation: str) -> Decision | None:
    row = PositionVerdict.objects.filter(key=position_key(notation)).values_list(
        "status", "line").first()
    if row is None:
        return None
    return Decision(row[0], tuple(row[1].split()))


def decision_keep(notation: str, *, game: str, decision: Decision) -> None:
    """Keep a decided answer (solved or unsolvable); unknown is never kept."""
    if decision.status not in (SOLVED, UNSOLVABLE):
        return
    try:
        with transaction.atomic():
            PositionVerdict.objects.get_or_create(
                key=position_key(notation),
                defaults={"game": game, "status": decision.status, "line": " ".join(decision.line)})
    except IntegrityError:  # another worker kept it first: the same answer
        pass


def claim(*, attempt_id: int, token: str, now: dt.datetime) -> bool:
    """Take the attempt's analysis; True only for the one caller that won."""
    AttemptAnalysis.objects.get_or_create(attempt_id=attempt_id)
    stale_before = now - dt.timedelta(seconds=settings.PLAY_ANALYSIS_CLAIM_STALE_SECONDS)
    claimable = Q(state=State.PENDING) | Q(
        Q(claimed_at__lt=stale_before) | Q(claimed_at__isnull=True), state=State.ANALYSING)
    return AttemptAnalysis.objects.filter(claimable, pk=attempt_id).update(
        state=State.ANALYSING, claimed_at=now, claimed_by=token) == 1


def release(*, attempt_id: int, token: str) -> None:
    AttemptAnalysis.objects.filter(pk=attempt_id, state=State.ANALYSING, claimed_by=token).update(
        state=State.PENDING, claimed_at=None, claimed_by="")


def done(*, attempt_id: int, token: str, verdict: Verdict, calls: int, seconds: float,
         now: dt.datetime) -> bool:
    """Store the verdict, only while this claim holds the row."""
    return AttemptAnalysis.objects.filter(
        pk=attempt_id, state=State.ANALYSING, claimed_by=token).update(
        state=State.DONE, verdict=verdict.verdict, lost_at=verdict.lost_at,
        lost_move=verdict.lost_move, keeping_line=" ".join(verdict.keeping_line),
        solver_calls=calls, seconds=round(seconds, 3), analysed_at=now,
        claimed_at=None, claimed_by="") == 1


def analysis_of(*, attempt_id: int) -> AttemptAnalysis | None:
    """The attempt's analysis once done, else None."""
    return AttemptAnalysis.objects.filter(pk=attempt_id, state=State.DONE).first()


def unanalysed(*, ended_before: dt.datetime, today: dt.date | None = None,
               limit: int = 500) -> list[int]:
    """Attempts over and not won whose analysis is not done: finished, or
    ranked ones whose day is over (they stay as midnight left them)."""
    over = Q(ended_at__isnull=False, ended_at__lt=ended_before)
    if today is not None:
        over |= Q(ranked=True, version__gt=0, deal__date__lt=today)
    return list(
        Attempt.objects.filter(over).exclude(status=Attempt.Status.WON).exclude(analysis__state=State.DONE)
        .order_by("id").values_list("id", flat=True)[:limit])


def known_win(*, deal_id: int, start: str) -> list[str]:
    """The deal's verified certificate when ``start`` is the deal's own
    position (a retry starts elsewhere): a win proven from it."""
    position, certificate = DailyDeal.objects.filter(pk=deal_id).values_list(
        "position", "certificate").get()
    return certificate.split() if position == start else []


def par_of(*, deal_id: int) -> dict:
    """The moves and redeals of the deal's verified solution."""
    length, redeals, certificate = DailyDeal.objects.filter(pk=deal_id).values_list(
        "solution_length", "redeals", "certificate").get()
    return {"moves": length or len(certificate.split()), "redeals": redeals or 0}
