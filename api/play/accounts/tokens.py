"""API tokens that expire (API_TOKEN_TTL_SECONDS after they were issued)
and end on logout.

Imports nothing of api.play at module level: DRF loads the authentication
classes named in settings while api.errors is still being imported.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def token_expires_at(token: Token) -> dt.datetime:
    return token.created + dt.timedelta(seconds=settings.API_TOKEN_TTL_SECONDS)


def token_expired(token: Token, now: dt.datetime | None = None) -> bool:
    return (now or timezone.now()) >= token_expires_at(token)


def token_issue(user) -> Token:
    """The user's token; a new one when the old one has expired."""
    token, created = Token.objects.get_or_create(user=user)
    if not created and token_expired(token):
        token.delete()
        token = Token.objects.create(user=user)
    return token


def tokens_revoke(user) -> None:
    Token.objects.filter(user=user).delete()


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``; an expired token is deleted and refused."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            token.delete()
            raise exceptions.AuthenticationFailed(
                _("The token has expired: ask for a new one (POST /api/v1/auth/token).")
            )
        return user, token
