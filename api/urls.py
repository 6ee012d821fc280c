from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from api.deals.views import health
from api.metrics import metrics_view

urlpatterns = [
    path("health/", health, name="health"),
    path("metrics", metrics_view, name="metrics"),
    path("api/v1/", include("api.play.rest.urls")),
]
if settings.ADMIN_PATH:  # off unless configured; its login is throttled
    urlpatterns.append(path(settings.ADMIN_PATH, admin.site.urls))
urlpatterns.append(path("", include("frontend.urls")))  # browser pages

# JSON errors for /api/ paths, Django's pages elsewhere (api.play.rest.errors).
handler400 = "api.play.rest.errors.json_bad_request"
handler403 = "api.play.rest.errors.json_permission_denied"
handler404 = "api.play.rest.errors.json_page_not_found"
handler500 = "api.play.rest.errors.json_server_error"
