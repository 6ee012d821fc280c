"""The project's URLs and error handlers, plus a page whose view fails: the
500 page's tests reach it (settings.ROOT_URLCONF = "error_urls")."""

from django.urls import path

from api.urls import handler400, handler403, handler404, handler500  # noqa: F401
from api.urls import urlpatterns as project


def failing_view(request):
    raise RuntimeError("a fault in a page's view")


urlpatterns = [path("fail/", failing_view), *project]
