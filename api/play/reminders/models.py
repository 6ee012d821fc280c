"""A player's calendar feed (imported by api.play.models)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CalendarFeed(models.Model):
    """On while the row exists: its token is the feed's whole address
    (secrets.token_urlsafe), so revoking deletes the row and a new one gets
    a new token. ``reminder`` is a time of day in DAILY_TIME_ZONE;
    ``language`` the page's language when it was set (the feed's words)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    reminder = models.TimeField()
    language = models.CharField(max_length=16, default="pt-pt")
    created_at = models.DateTimeField()
