"""Sessions in the database, and only there (SESSION_ENGINE).

Every request reads its session from PostgreSQL, by primary key and with its
expiry checked there: a session whose row is gone (a logout, a password
change, the cleaning task) is never authenticated again, whatever the cache
did meanwhile. A cached copy would outlive a logout made while the cache was
down or hung (its delete cannot reach Redis, and the copy comes back with
it), so the cache holds no sessions at all. The read costs one indexed query,
about what a Redis read costs, and a cache outage never touches sessions.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db


class SessionStore(db.SessionStore):
    pass
