"""The Celery app: `celery -A api worker` and `celery -A api beat`.

Configuration comes from Django's settings, every name prefixed CELERY_
(CELERY_BROKER_URL, CELERY_BEAT_SCHEDULE, ...). With no broker configured the
settings make tasks run eagerly in the calling process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")

app = Celery("api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
