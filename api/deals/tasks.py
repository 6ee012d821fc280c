"""Celery tasks: adapters that call the services and retry on failure."""

from celery import shared_task

from api.deals import services
from api.deals.models import DailyDeal


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Exception,),
    retry_backoff=5,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=8,
)
def verify_deal(deal_id: int, reverify: bool = False) -> str:
    """Verify one deal (idempotent: a deal verified or claimed elsewhere is left alone)."""
    verify = services.deal_reverify if reverify else services.deal_verify
    try:
        deal = verify(deal_id=deal_id)
    except DailyDeal.DoesNotExist:
        return "missing"
    return deal.state if deal is not None else "not claimed"


@shared_task(acks_late=True, autoretry_for=(Exception,), retry_backoff=30, max_retries=3)
def prepare_upcoming_deals() -> int:
    """The beat task: today and the next DEALS_DAYS_AHEAD days exist and are queued."""
    return len(services.deals_prepare_upcoming())
