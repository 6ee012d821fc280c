"""Sessions in the database, read through the cache (SESSION_ENGINE).

Django's cached_db backend, except that a cache that is down never fails a
request (api.outages): reading falls back to the database, and the copy it
would put back into the cache is skipped (writes already tolerate it). A
session deleted while the cache is down (a logout) may come back from the
cache once it is up again, until the copy expires: the warning says so."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db

from api.outages import CACHE_ERRORS, cache_failed


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except CACHE_ERRORS as error:
            cache_failed("the session is read from the database", error)
            data = None
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if not stored:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except CACHE_ERRORS as error:
            cache_failed("the session is not cached", error)
        return data

    def exists(self, session_key):
        try:
            return super().exists(session_key)
        except CACHE_ERRORS as error:
            cache_failed("session keys are checked in the database", error)
            return cached_db.DBStore.exists(self, session_key)

    def delete(self, session_key=None):
        try:
            super().delete(session_key)
        except CACHE_ERRORS as error:
            # The row is gone; a copy the cache may still hold when it comes
            # back lives at most until its expiry (logged, for the operator).
            cache_failed("a deleted session stays in the cache until it expires", error)
