"""Celery tasks of the play app (scheduled by beat in settings)."""

from celery import shared_task
from django.utils import timezone

from api.play.accounts import sessions
from api.play.attempts import post_mortem
from api.play.attempts import services as attempts


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=3)
def clean_sessions_and_guests() -> dict:
    """Expired sessions, and long-idle guests with no attempt, are deleted."""
    return sessions.sessions_clean(now=timezone.now())


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(Exception,),
             retry_backoff=10, max_retries=5)
def analyse_attempt(attempt_id: int) -> str:
    """Where the win slipped away in one finished attempt (idempotent: a
    claimed or done analysis is left alone)."""
    return attempts.attempt_analyse(attempt_id=attempt_id, now=timezone.now())


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=3)
def sweep_analyses() -> int:
    """Beat's recovery: queue the analyses a lost message or a dead worker left undone."""
    return attempts.analyses_sweep(now=timezone.now())


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=60, max_retries=3)
def post_mortems() -> int:
    """After midnight: the post-mortem of the day that just ended (and any missed)."""
    return post_mortem.post_mortems_compute(now=timezone.now())
