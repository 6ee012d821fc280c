"""Celery tasks of the play app (scheduled by beat in settings)."""

from celery import shared_task
from django.utils import timezone

from api.play.accounts import sessions


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=3)
def clean_sessions_and_guests() -> dict:
    """Expired sessions, and long-idle guests with no attempt, are deleted."""
    return sessions.sessions_clean(now=timezone.now())
