"""The tests' password hasher: PBKDF2-SHA256 as in production, at a
thousand rounds instead of Django's million (about a second of CPU a
password on this machine's kind, paid at every account made and every
login). Its hashes are pbkdf2_sha256 hashes that name their rounds, so a
process on the default settings (a worker, gunicorn) checks them too.
tests/conftest.py puts it first in PASSWORD_HASHERS."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FewRoundsPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
