"""The Django project: settings, URLs, the Celery app and the apps under it."""

from api.celery import app as celery_app

__all__ = ["celery_app"]
