"""Answers that caches may keep: public, with an ETag, never past a moment.

A cache in front (nginx here, a CDN elsewhere) keeps a copy for at most
``proxy_seconds`` (``X-Accel-Expires``, which nginx reads and does not pass
on), and hands it out unchanged, ``max-age`` included, without saying how
old it is. So the ``max-age`` a browser gets is the time left until
``until`` minus ``proxy_seconds``: however old the proxy's copy, no browser
keeps it past ``until`` (the day's turn, when a day's document changes).
"""

from __future__ import annotations

import datetime as dt
import hashlib

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags


def cacheable(request, content: bytes, *, now: dt.datetime, until: dt.datetime,
              proxy_seconds: int) -> HttpResponse:
    """``content`` (JSON) as a public answer that ends at ``until``, or 304
    when the request's If-None-Match names its ETag."""
    left = max(0, int((until - now).total_seconds()))  # whole seconds, rounded down
    etag = f'"{hashlib.sha256(content).hexdigest()[:32]}"'
    asked = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in asked or "*" in asked:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(content, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={max(0, left - proxy_seconds)}"
    response["X-Accel-Expires"] = str(min(proxy_seconds, left))
    return response
