"""Sessions in the database, and only there (SESSION_ENGINE).

Every request reads its session from PostgreSQL, by primary key and with its
expiry checked there: a session whose row is gone (a logout, a password
change, the cleaning task) is never authenticated again, whatever the cache
did meanwhile. A cached copy would outlive a logout made while the cache was
down or hung (its delete cannot reach Redis, and the copy comes back with
it), so the cache holds no sessions at all.

The row (``api.play.models.Session``) keeps the id of the user the session
is logged in as, and the read joins that user's row: one query for the
session and its user, compiled once per connection (api.db). The user's row
is handed, within the same request only, to the authentication backend's
``get_user`` (api.play.accounts.lockout), so Django's own checks decide on
it as on a row read apart: the session's user id, the password hash the
session was made with, ``is_active``.
"""

from __future__ import annotations

import contextvars

from django.apps import apps
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.core.exceptions import ValidationError
from django.utils import timezone

from api.db import CompiledQuery


def user_fields() -> list[str]:
    return [field.attname for field in get_user_model()._meta.concrete_fields]


# Django's read of a session by key, with its user's row (all None when the
# session names nobody), compiled once per connection; the expiry is compared
# here instead of in SQL, so the query has one parameter. Built on first use:
# the models are not loaded at import.
_BY_KEY = CompiledQuery(
    lambda key: SessionStore.get_model_class().objects.filter(session_key=key).values_list(
        "session_data", "expire_date", *(f"user__{name}" for name in user_fields())),
    stand_ins=("\x01compiled-session-key",),
)

# The users read with this request's session, by id, until get_user takes
# one. None outside a request (SessionMiddleware below sets and clears it).
_users_read: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "users_read_with_the_session", default=None)


def user_read_with_session(user_id) -> tuple | None:
    """The row of ``user_id`` (in ``user_fields()`` order) read with this
    request's session, once; None when there is none."""
    read = _users_read.get()
    return read.pop(user_id, None) if read else None


class SessionStore(db.SessionStore):
    @classmethod
    def get_model_class(cls):
        return apps.get_model("play", "Session")  # api.play.models.Session

    def create_model_instance(self, data):
        """The row to save, with the user the data is logged in as."""
        session = super().create_model_instance(data)
        try:  # as Django's get_user reads the id back (None: nobody)
            session.user_id = get_user_model()._meta.pk.to_python(data.get(SESSION_KEY))
        except ValidationError:
            session.user_id = None
        return session

    def _get_session_from_db(self):
        """db.SessionStore's read: the unexpired row by key, or None (and
        no key, so a new session is made), as Django's query answers."""
        read = _users_read.get()
        if read is not None:
            read.clear()  # only the latest read's user
        row = _BY_KEY.first(self.session_key) if self.session_key else None
        if row is None or row[1] <= timezone.now():
            self._session_key = None
            return None
        if read is not None and row[2] is not None:
            read[row[2]] = row[2:]
        return self.model(session_key=self.session_key, session_data=row[0], expire_date=row[1])


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's; a user read with the session serves this request only."""

    def process_request(self, request):
        _users_read.set({})
        super().process_request(request)

    def process_response(self, request, response):
        _users_read.set(None)
        if response.get("Cache-Control", "").startswith("public"):
            # The same answer for everyone (api.play.rest.caching): no
            # session was read for it, and no cookie (not even the removal of
            # a stale session's) may ride on a copy caches hand to others.
            return response
        return super().process_response(request, response)
