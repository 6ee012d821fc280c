"""The path by which sessions made before accounts had a folder of their own
name their authentication backend (Django stores it in each session and
loads it on every request); it stays importable so those players stay
logged in. The backend itself is api.play.accounts.lockout."""

from api.play.accounts.lockout import LockoutModelBackend  # noqa: F401
