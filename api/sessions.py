"""Sessions in the database, and only there (SESSION_ENGINE).

Every request reads its session from PostgreSQL, by primary key and with its
expiry checked there: a session whose row is gone (a logout, a password
change, the cleaning task) is never authenticated again, whatever the cache
did meanwhile. A cached copy would outlive a logout made while the cache was
down or hung (its delete cannot reach Redis, and the copy comes back with
it), so the cache holds no sessions at all. The read costs one indexed query,
about what a Redis read costs (Django's query, compiled once: api.db), and a
cache outage never touches sessions.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.utils import timezone

from api.db import CompiledQuery

# Django's read of a session by key, compiled once per connection; the
# expiry is compared here instead of in SQL, so the query has one parameter.
_BY_KEY = CompiledQuery(
    lambda key: db.SessionStore.get_model_class().objects.filter(session_key=key).values_list(
        "session_data", "expire_date"),
    stand_ins=("\x01compiled-session-key",),
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """db.SessionStore's read: the unexpired row by key, or None (and
        no key, so a new session is made), as Django's query answers."""
        row = _BY_KEY.first(self.session_key) if self.session_key else None
        if row is None or row[1] <= timezone.now():
            self._session_key = None
            return None
        return self.model(session_key=self.session_key, session_data=row[0], expire_date=row[1])
