from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from api.deals.views import health
from api.metrics import metrics_view
from api.play.rest.errors import json_path_not_found

urlpatterns = [
    path("health/", health, name="health"),
    path("metrics", metrics_view, name="metrics"),
    path("api/v1/", include("api.play.rest.urls")),
    # Any other path under api/: a JSON 404, with DEBUG on too (whose 404 is a page).
    re_path(r"^api/", json_path_not_found),
]
if settings.ADMIN_PATH:  # off unless configured; its login is throttled
    urlpatterns.append(path(settings.ADMIN_PATH, admin.site.urls))
urlpatterns.append(path("", include("frontend.urls")))  # browser pages

# JSON errors for /api/ paths, Django's pages elsewhere (api.play.rest.errors).
handler400 = "api.play.rest.errors.json_bad_request"
handler403 = "api.play.rest.errors.json_permission_denied"
handler404 = "api.play.rest.errors.json_page_not_found"
handler500 = "api.play.rest.errors.json_server_error"
