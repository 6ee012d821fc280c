from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from api.deals.views import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # -- play API (issue 5): path("api/v1/", include("api.play.urls")) --
    # -- browser pages (issue 6): path("", include("frontend.urls")) --
]
