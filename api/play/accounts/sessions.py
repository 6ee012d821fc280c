"""Sessions that last while they are used, and the cleaning of what is not.

A session lives SESSION_COOKIE_AGE seconds from its last save. Saving it on
every request (SESSION_SAVE_EVERY_REQUEST) would write the database on every
request; instead a session is saved again, with a new expiry and cookie,
once less than half its age remains: a player who comes back at least once
a week (with the default two weeks) keeps the session, and its guest
records, for good.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from api.outages import DATABASE_ERRORS
from api.play.models import Session

log = logging.getLogger(__name__)

REFRESHED_KEY = "_refreshed_at"


class SessionRefreshMiddleware:
    """After SessionMiddleware and AuthenticationMiddleware: an existing
    session past half its age is marked modified (SessionMiddleware then
    saves it and sends the cookie again), and its user's last_login is moved
    on (what the cleaning task reads as "last seen")."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Only a session the request has read already (no extra query for
        # requests that never looked at it, such as /health/).
        if session is None or not session.accessed or not session.session_key:
            return response
        try:
            self._refresh(request, session)
        except DATABASE_ERRORS as error:  # the answer stands; refresh next time
            log.warning("Session not refreshed: %r", error)
        return response

    @staticmethod
    def _refresh(request, session) -> None:
        if session.is_empty():
            return
        now = time.time()
        if now - session.get(REFRESHED_KEY, 0) < settings.SESSION_COOKIE_AGE / 2:
            return
        session[REFRESHED_KEY] = now  # modified: saved with a new expiry
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            get_user_model().objects.filter(pk=user.pk).update(last_login=timezone.now())


def sessions_clean(*, now: dt.datetime) -> dict:
    """Delete expired sessions, and guests idle for PLAY_GUEST_IDLE_DAYS
    that have no attempt (their sessions are long expired by then)."""
    sessions, _ = Session.objects.filter(expire_date__lt=now).delete()
    idle_since = now - dt.timedelta(days=settings.PLAY_GUEST_IDLE_DAYS)
    User = get_user_model()
    guests = User.objects.filter(
        player__is_guest=True,
        date_joined__lt=idle_since,
        attempts__isnull=True,
    ).exclude(last_login__gte=idle_since)
    _total, removed = User.objects.filter(
        pk__in=list(guests.values_list("pk", flat=True)[:10_000])
    ).delete()
    return {"sessions": sessions, "guests": removed.get(User._meta.label, 0)}
