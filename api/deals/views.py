from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from api.deals.health import health_checks, health_status
from api.outages import RETRY_AFTER_SECONDS


@never_cache
@require_GET
def health(request):
    """200 "ok" when every part answers, 200 "degraded" when the cache or the
    broker does not (play goes on), 503 "unavailable" without the database."""
    checks = health_checks()
    state = health_status(checks)
    response = JsonResponse(
        {"status": state, "checks": checks}, status=503 if state == "unavailable" else 200
    )
    if state == "unavailable":
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
