"""Celery tasks: adapters that call the services and retry on failure."""

from celery import shared_task

from api.deals import services
from api.deals.models import DailyDeal


# Acknowledged once done, and given back to the broker when the worker
# running it dies (its child killed: at once; the whole worker: after the
# visibility timeout). Retries wait less than the visibility timeout, so a
# retry waiting in a worker is not handed to another one meanwhile.
@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    retry_backoff=5,
    retry_backoff_max=20,
    retry_jitter=True,
    max_retries=8,
)
def verify_deal(self, deal_id: int, reverify: bool = False) -> str:
    """Verify one deal (idempotent: a deal verified or claimed elsewhere is
    left alone; a claim this same task made before its worker died is taken
    over, the task's id tying the claim to it)."""
    verify = services.deal_reverify if reverify else services.deal_verify
    try:
        deal = verify(deal_id=deal_id, delivery=self.request.id)
    except DailyDeal.DoesNotExist:
        return "missing"
    return deal.state if deal is not None else "not claimed"


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=10, retry_backoff_max=20,
             max_retries=3)
def prepare_upcoming_deals() -> int:
    """The beat task: today and the next DEALS_DAYS_AHEAD days exist and are queued."""
    return len(services.deals_prepare_upcoming())
