"""The project's URLs with the admin at staff/ (ADMIN_PATH is read once, at
import: tests that need the admin point ROOT_URLCONF here)."""

from django.contrib import admin
from django.urls import path

from api.urls import handler400, handler403, handler404, handler500  # noqa: F401
from api.urls import urlpatterns as project

urlpatterns = [path("staff/", admin.site.urls), *project]
