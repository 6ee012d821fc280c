"""The JavaScript catalog of the pages (Django's JavaScriptCatalog), served
at an address that names its language and version: /jsi18n/<language>/<version>/.
The version is a hash of the compiled catalogs, so a new translation is a
new address; each answer is built once per process and cached by browsers
and proxies for a year."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

LOCALE = Path(__file__).resolve().parent / "locale"
YEAR_SECONDS = 365 * 24 * 3600


@lru_cache(maxsize=1)
def catalog_version() -> str:
    """12 hex digits that change whenever a compiled page catalog does."""
    digest = hashlib.sha256()
    for path in sorted(LOCALE.glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(path.parent.parent.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


_catalog_view = JavaScriptCatalog.as_view(packages=["frontend"])


@lru_cache(maxsize=8)
def _catalog(language: str) -> tuple[bytes, str]:
    request = HttpRequest()
    request.method = "GET"
    with translation.override(language):
        response = _catalog_view(request)
    return response.content, response["Content-Type"]


def js_catalog(request: HttpRequest, language: str, version: str) -> HttpResponse:
    if language not in dict(settings.LANGUAGES) or version != catalog_version():
        raise Http404("no such catalog")
    content, content_type = _catalog(language)
    response = HttpResponse(content, content_type=content_type)
    response["Cache-Control"] = f"public, max-age={YEAR_SECONDS}, immutable"
    return response
