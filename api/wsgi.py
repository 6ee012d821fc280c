"""WSGI entry point for gunicorn: `gunicorn api.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "api.settings")

application = get_wsgi_application()

# Import the URL configuration (DRF, drf-spectacular: about a second) now,
# while the worker starts, not inside its first request.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns
