"""Settings from the environment, read through helpers that fail loudly.

Every helper takes the variable's name and a default that works on a laptop.
A value that is present but wrong raises ``ImproperlyConfigured`` naming the
variable and the value, so a typo in production stops the process at start
instead of silently falling back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_MISSING: Any = object()


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


def env_str(
    name: str,
    default: str | None = _MISSING,
    *,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The variable as text; without a default, it is required."""
    value = _raw(name, environ)
    if value is not None:
        return value
    if default is _MISSING or default is None:
        raise ImproperlyConfigured(f"The environment variable {name} is required and is not set.")
    return default


def env_secret(
    name: str,
    default: str | None = _MISSING,
    *,
    environ: Mapping[str, str] | None = None,
) -> str:
    """A secret from ``NAME``, or from the file that ``NAME_FILE`` names.

    Container platforms hand secrets over as files (compose and Docker
    secrets under /run/secrets, Kubernetes secret volumes), so that they stay
    out of the environment, which ``docker inspect`` and crash reports show.
    Setting both is an error, and so is a file that cannot be read or is
    empty; the text around the secret (the file's final newline) is dropped.
    Without a default, one of the two is required.
    """
    file_name = f"{name}_FILE"
    path = _raw(file_name, environ)
    if path is None:
        if _raw(name, environ) is None and (default is _MISSING or default is None):
            raise ImproperlyConfigured(
                f"The environment variable {name} is required and is not set "
                f"(or name a file that holds it in {file_name})."
            )
        return env_str(name, default, environ=environ)
    if _raw(name, environ) is not None:
        raise ImproperlyConfigured(f"Both {name} and {file_name} are set: give the secret one way.")
    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ImproperlyConfigured(f"{file_name}={path!r} cannot be read: {reason}.") from None
    if not secret:
        raise ImproperlyConfigured(f"{file_name}={path!r} is an empty file.")
    return secret


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); anything else is an error."""
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(_TRUE | _FALSE)}."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        number = default
    else:
        try:
            number = int(value.replace("_", ""))
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    _check_range(name, number, minimum, maximum)
    return number


def env_float(
    name: str,
    default: float,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> float:
    value = _raw(name, environ)
    if value is None:
        number = default
    else:
        try:
            number = float(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise ImproperlyConfigured(f"{name}={value!r} is not a finite number.")
    _check_range(name, number, minimum, maximum)
    return number


def _check_range(name: str, number: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}.")


def env_list(
    name: str,
    default: list[str] | tuple[str, ...] = (),
    *,
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """A comma-separated list; empty items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_time_zone(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """An IANA time zone name such as ``Europe/Lisbon``, checked to exist."""
    value = _raw(name, environ) or default
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(f"{name}={value!r} is not a known IANA time zone.") from None
    return value


def env_database_url(
    name: str = "DATABASE_URL",
    default: str | None = _MISSING,
    *,
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``DATABASES['default']`` from a URL in the variable (see parse_database_url)."""
    url = env_str(name, default, environ=environ)
    try:
        return parse_database_url(url)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} is not a usable database URL: {error}") from None


_POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql"}


def parse_database_url(url: str) -> dict[str, Any]:
    """Turn a database URL into a Django ``DATABASES`` entry.

    - ``postgres://user:password@host:port/name?sslmode=require`` (also
      ``postgresql://``); query parameters become connection ``OPTIONS``,
      except ``conn_max_age`` (seconds, Django's ``CONN_MAX_AGE``).
    - ``sqlite:///relative/path.sqlite3``, ``sqlite:////absolute/path.sqlite3``
      and ``sqlite://:memory:``.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        return _parse_sqlite(url, parts)
    if scheme in _POSTGRES_SCHEMES:
        return _parse_postgres(url, parts)
    raise ValueError(f"{_redact(url)!r} has scheme {parts.scheme!r}; use postgres:// or sqlite://")


def _parse_sqlite(url: str, parts) -> dict[str, Any]:
    if parts.netloc == ":memory:" or parts.path == "/:memory:":
        name: str | Path = ":memory:"
    elif parts.netloc:
        raise ValueError(
            f"{url!r}: a sqlite URL has no host; write sqlite:///relative.db or sqlite:////absolute.db"
        )
    else:
        # sqlite:///db.sqlite3 -> "db.sqlite3"; sqlite:////tmp/db -> "/tmp/db"
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else unquote(parts.path)
        if not path:
            raise ValueError(f"{url!r} names no database file")
        name = path
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(name)}


def _parse_postgres(url: str, parts) -> dict[str, Any]:
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise ValueError(f"{_redact(url)!r} must name one database, as in postgres://host/name")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{_redact(url)!r} has a port that is not a number") from None
    config: dict[str, Any] = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(port or ""),
    }
    options: dict[str, str] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key == "conn_max_age":
            try:
                config["CONN_MAX_AGE"] = int(value)
            except ValueError:
                raise ValueError(f"conn_max_age={value!r} is not a whole number") from None
        else:
            options[key] = value
    if options:
        config["OPTIONS"] = options
    return config


def _redact(url: str) -> str:
    """The URL without its password, for error messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()
