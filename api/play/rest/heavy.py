"""Heavy answers, one at a time per player.

Some answers cost the server far more than the client: the analysis with
the positions of both lines (``?steps=true``; a 3,000-move practice line is
0.4 s of CPU and 1.9 MB), the replayed log. A player gets one of them at a
time, in every web process together (a key in the shared cache, taken with
ADD, so concurrent requests cannot both take it); a second one while the
first is built is refused with 429 ``heavy_busy`` and Retry-After, before it
costs anything. When the cache is down the request goes through (play goes
on without the cache; the per-player rate still counts it)."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache

from api.errors import HeavyBusy
from api.outages import CACHE_ERRORS, cache_failed


@contextmanager
def one_at_a_time(user):
    """Hold the player's heavy-answer slot while the block runs, else raise HeavyBusy."""
    key = f"heavy-answer:{user.pk}"
    try:
        # Expires on its own should a process die holding it.
        taken = cache.add(key, 1, timeout=settings.PLAY_HEAVY_SLOT_SECONDS)
    except CACHE_ERRORS as error:
        cache_failed("a heavy answer goes through unbounded", error)
        taken = None
    if taken is False:
        raise HeavyBusy()
    try:
        yield
    finally:
        if taken:
            try:
                cache.delete(key)
            except CACHE_ERRORS as error:  # it expires by itself
                cache_failed("a heavy answer's slot left to expire", error)
