"""A private league and its members (imported by api.play.models)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class League(models.Model):
    """A named group of registered players. Its owner (who made it) renews
    its invite code, removes members and closes it; closing deletes it."""

    name = models.CharField(max_length=40)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="leagues_owned")
    # secrets.token_urlsafe: the whole of what a joining player must know.
    invite_code = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.name


class LeagueMember(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="league_memberships")
    joined_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="play_league_member_once"),
        ]
