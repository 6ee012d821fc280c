from django.contrib import admin
from django.urls import include, path

from api.deals.views import health
from api.metrics import metrics_view

urlpatterns = [
    path("health/", health, name="health"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.play.urls")),
    path("", include("frontend.urls")),  # browser pages (issue 6)
]

# JSON errors for /api/ paths, Django's pages elsewhere (api.play.errors).
handler400 = "api.play.errors.json_bad_request"
handler403 = "api.play.errors.json_permission_denied"
handler404 = "api.play.errors.json_page_not_found"
handler500 = "api.play.errors.json_server_error"
