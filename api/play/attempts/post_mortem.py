"""A past day's post-mortem, computed after midnight by beat: how many
ranked players won, where the others lost the win (the move number, from
their attempts' analyses), the commonest losing moves, and the deal's par
(the fewest moves, then redeals, of a known winning line: the verified
solution or a ranked win that beat it)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from django.utils import timezone

from api import clock
from api.deals.models import DailyDeal
from api.errors import DayNotOver
from api.play.attempts.analysis import LOST, STILL_WINNABLE, UNDECIDED
from api.play.attempts.services import attempt_analyse
from api.play.models import ON_BOARD, Attempt, AttemptAnalysis, DayPostMortem

# Days back that beat looks at for a post-mortem missing or still waiting
# for analyses.
DAYS_BACK = 3
TOP_MOVES = 5


def post_mortem_summary(*, deal: DailyDeal) -> dict:
    """The post-mortem of a deal from the analyses stored now."""
    ranked = Attempt.objects.filter(ON_BOARD, deal=deal)
    wins = list(ranked.filter(status=Attempt.Status.WON).values_list("moves", "redeals"))
    analyses = AttemptAnalysis.objects.filter(
        attempt__in=ranked.exclude(status=Attempt.Status.WON), state=AttemptAnalysis.State.DONE)
    verdicts = Counter(analyses.values_list("verdict", flat=True))
    lost = list(analyses.filter(verdict=LOST).values_list("lost_at", "lost_move"))
    known = [(deal.solution_length or len(deal.certificate.split()), deal.redeals or 0), *wins]
    par_moves, par_redeals = min(known)
    return {
        "ranked": ranked.count(),
        "won": len(wins),
        "lost": verdicts[LOST],
        "still_winnable": verdicts[STILL_WINNABLE],
        "undecided": verdicts[UNDECIDED],
        "pending": ranked.exclude(status=Attempt.Status.WON).count() - sum(verdicts.values()),
        "lost_at": [{"move_number": n, "count": c} for n, c in sorted(Counter(
            number for number, _move in lost).items())],
        "losing_moves": [{"move_number": n, "move": m, "count": c}
                         for (n, m), c in Counter(lost).most_common(TOP_MOVES)],
        "par": {"moves": par_moves, "redeals": par_redeals},
    }


def post_mortem_compute(*, deal: DailyDeal, now: dt.datetime, analyse=None) -> dict:
    """Analyse the deal's ranked attempts still unanalysed (``analyse``, the
    worker's service, when given), then store and return the post-mortem."""
    if analyse is not None:
        ids = Attempt.objects.filter(ON_BOARD, deal=deal).exclude(
            status=Attempt.Status.WON).exclude(analysis__state=AttemptAnalysis.State.DONE).values_list(
            "id", flat=True)
        for attempt_id in list(ids):
            analyse(attempt_id=attempt_id, now=now)
    summary = post_mortem_summary(deal=deal)
    DayPostMortem.objects.update_or_create(
        deal=deal, defaults={"summary": summary, "computed_at": now})
    return summary


def post_mortems_compute(*, now: dt.datetime | None = None) -> int:
    """Beat: every verified deal of the last DAYS_BACK days that are over,
    whose post-mortem is missing or still waits for analyses."""
    now = now or timezone.now()
    today = clock.day_of(now)
    deals = DailyDeal.objects.filter(
        state=DailyDeal.State.VERIFIED, date__lt=today,
        date__gte=today - dt.timedelta(days=DAYS_BACK))
    done = 0
    for deal in deals:
        existing = DayPostMortem.objects.filter(deal=deal).first()
        if existing is not None and not existing.summary.get("pending"):
            continue
        post_mortem_compute(deal=deal, now=now, analyse=attempt_analyse)
        done += 1
    return done


def post_mortem_get(*, deal: DailyDeal, now: dt.datetime) -> dict:
    """The stored post-mortem of a day that is over: its summary with
    ``status`` "done" and ``computed_at``, or {"status": "pending"} until
    beat has computed it."""
    if not clock.day_over(deal.date, now):
        raise DayNotOver()
    row = DayPostMortem.objects.filter(deal=deal).first()
    if row is None:
        return {"status": "pending"}
    return {"status": "done", **row.summary, "computed_at": row.computed_at}
