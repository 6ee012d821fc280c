"""On the home screen: the web app manifest, the service worker and the
page it shows offline.

The service worker is served by Django at /sw.js, so its scope is the whole
site with no Service-Worker-Allowed header, and it is a same-origin script as
the Content-Security-Policy (script-src 'self') requires. It precaches the
pages' static files (under their hashed names in production) and the
offline page; it never touches /api/: answers are always the network's."""

from __future__ import annotations

import functools
import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

THEME_COLOUR = "#1f5f3f"  # the felt (site.css --felt)
BACKGROUND_COLOUR = "#f4f1ea"  # the page (site.css --bg)
ICONS = [("frontend/icons/icon-192.png", "192x192", "any"),
         ("frontend/icons/icon-512.png", "512x512", "any"),
         ("frontend/icons/icon-maskable-512.png", "512x512", "maskable")]


def manifest(request: HttpRequest) -> JsonResponse:
    name = _("Daily solitaire")
    return JsonResponse({
        "name": name,
        "short_name": name,
        "description": _("Every day, one deal of Cruel and one of Flower Garden, the same for "
                         "everyone."),
        "lang": get_language() or "pt-pt",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for path, sizes, purpose in ICONS],
    }, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@functools.cache
def _static_files() -> tuple[tuple[str, ...], str]:
    """The pages' static files (URLs) and a digest of their contents: a new
    digest is a new worker, which drops the old cache."""
    paths, digest = [], hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            if path.startswith("frontend/") and not path.endswith((".po", ".mo")):
                paths.append(path)
                with storage.open(path) as f:
                    digest.update(path.encode() + b"\0" + f.read())
    return tuple(static(path) for path in sorted(paths)), digest.hexdigest()[:16]


def service_worker(request: HttpRequest) -> HttpResponse:
    urls, version = _static_files()
    response = render(request, "frontend/sw.js", {
        "version": version,
        "precache": json.dumps(list(urls)),
        "offline": json.dumps(reverse("frontend:offline")),
        # STATIC_URL, not static(""): the hashed names' storage has no entry for "".
        "static_prefix": json.dumps(settings.STATIC_URL),
    }, content_type="text/javascript; charset=utf-8")
    # Browsers check it for updates at most daily anyway; no-cache checks each visit.
    response["Cache-Control"] = "no-cache"
    return response


@ensure_csrf_cookie
def offline(request: HttpRequest) -> HttpResponse:
    """What a page is replaced by when the network is gone (precached)."""
    return render(request, "frontend/offline.html", {"nav": "offline"})
