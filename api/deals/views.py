from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from api.deals.health import health_checks


@never_cache
@require_GET
def health(request):
    """200 when the database and the broker answer, 503 otherwise."""
    checks = health_checks()
    healthy = all(result.startswith("ok") for result in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )
