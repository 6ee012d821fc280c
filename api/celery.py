"""The Celery app: `celery -A api worker` and `celery -A api beat`.

Configuration comes from Django's settings, every name prefixed CELERY_
(CELERY_BROKER_URL, CELERY_BEAT_SCHEDULE, ...). With no broker configured the
settings make tasks run eagerly in the calling process.
"""

import logging
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")

app = Celery("api")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)


@signals.beat_init.connect
def prepare_deals_when_beat_starts(sender=None, **kwargs):
    """Before its first tick, a beat waits until it alone holds the schedule
    (api.beat_lock: a second beat waits for the first to be gone). Then a new
    or restarted stack prepares today's and the coming days' deals at once,
    not at the schedule's next run (up to an hour later); the task is idempotent."""
    from api.beat_lock import hold_beat_lock

    hold_beat_lock()
    try:
        app.send_task("api.deals.tasks.prepare_upcoming_deals")
    except Exception as error:  # the broker is down: the hourly run recovers
        log.warning("Beat start: could not queue prepare_upcoming_deals: %r", error)
    else:
        log.info("Beat start: queued prepare_upcoming_deals")
