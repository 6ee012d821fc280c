"""Django settings, read from the environment (see README, "Production settings").

DEBUG is off unless DEBUG=true is set: without it SECRET_KEY, DEAL_SEED_SECRET
and ALLOWED_HOSTS are required and the HTTPS settings that `check --deploy`
asks for are on. DEBUG=true (scripts/serve and scripts/test set it) runs the
site on a laptop: known laptop-only keys, a SQLite file, no broker (Celery
tasks run eagerly in-process), an in-memory cache.
"""

import hashlib
import ipaddress
import os
import sys
import tempfile
from pathlib import Path

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from api.env import (
    env_bool,
    env_database_url,
    env_float,
    env_int,
    env_list,
    env_secret,
    env_str,
    env_time_zone,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# Off unless asked for: a deployment that forgets it still refuses the laptop keys.
DEBUG = env_bool("DEBUG", False)

# -- Secrets -----------------------------------------------------------------

# Each secret comes from its variable or from a file named by NAME_FILE
# (SECRET_KEY_FILE=/run/secrets/secret_key, as compose secrets provide it).
if DEBUG:
    SECRET_KEY = env_secret("SECRET_KEY", "django-insecure-laptop-only-key-never-use-in-production")
    # Deals on a laptop are reproducible but not secret.
    DEAL_SEED_SECRET = env_secret("DEAL_SEED_SECRET", "laptop-only-deal-seed-secret")
else:
    SECRET_KEY = env_secret("SECRET_KEY")
    # Derives every deal's seed: who knows it can compute future deals.
    # Never change it once deals were published: past deals keep their stored
    # positions, but re-deriving them would give different ones.
    DEAL_SEED_SECRET = env_secret("DEAL_SEED_SECRET")
    if DEAL_SEED_SECRET == SECRET_KEY:
        raise ImproperlyConfigured("DEAL_SEED_SECRET must differ from SECRET_KEY.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DEBUG is false (comma-separated).")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The admin's URL prefix, e.g. "staff-2f9c/"; empty (the default): no admin.
ADMIN_PATH = env_str("ADMIN_PATH", "")
if ADMIN_PATH and (not ADMIN_PATH.endswith("/") or ADMIN_PATH.startswith("/")):
    raise ImproperlyConfigured(f"ADMIN_PATH={ADMIN_PATH!r} must look like 'some-name/'.")

# -- Applications --------------------------------------------------------------

INSTALLED_APPS = [
    "api.admin_apps.AdminConfig",  # django.contrib.admin, login throttled
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by us (no CDN)
    "api.deals",
    "rest_framework.authtoken",
    "api.play",
    "frontend",  # browser pages
]

MIDDLEWARE = [
    "api.metrics.MetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # CSP, Permissions-Policy, no-store on the API: on every response,
    # static files (WhiteNoise, below) included.
    "api.security.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "api.sessions.SessionMiddleware",  # Django's, and the user read with the session
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "api.play.accounts.sessions.SessionRefreshMiddleware",  # sessions last while used
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "api.urls"
WSGI_APPLICATION = "api.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# -- Data ----------------------------------------------------------------------

def _database(variable: str, default: str | None = None) -> dict:
    """A DATABASES entry from ``variable``'s URL; its password may come apart
    from the URL, from DATABASE_PASSWORD or the file DATABASE_PASSWORD_FILE
    names, so that the URL itself holds no secret."""
    database = env_database_url(variable, default)
    password = env_secret("DATABASE_PASSWORD", "")
    if password:
        if database.get("PASSWORD"):
            raise ImproperlyConfigured(
                f"{variable} has a password and DATABASE_PASSWORD(_FILE) gives one too: "
                "give it one way.")
        database["PASSWORD"] = password
    return database


# PgBouncer in transaction pooling between this process and PostgreSQL: each
# transaction may run on another server connection, so nothing may outlive
# one (a server-side cursor, a session's lock or setting). Whatever needs a
# session goes over DATABASE_DIRECT_URL instead: migrations, beat's lock.
DATABASE_TRANSACTION_POOLING = env_bool("DATABASE_TRANSACTION_POOLING", False)
DATABASE_DIRECT_URL = env_str("DATABASE_DIRECT_URL", "")
# `manage.py migrate` (and its kin) runs over the direct connection: a
# migration holds locks and may set things for its session.
_SESSION_COMMANDS = {"migrate", "createcachetable", "flush"}
_command = sys.argv[1] if len(sys.argv) > 1 and Path(sys.argv[0]).name == "manage.py" else ""
DATABASES = {
    "default": _database(
        "DATABASE_DIRECT_URL" if DATABASE_DIRECT_URL and _command in _SESSION_COMMANDS
        else "DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASE_DIRECT_URL:
    DATABASES["direct"] = _database("DATABASE_DIRECT_URL")
    # The same database by another road: its tables are default's.
    DATABASES["direct"]["TEST"] = {"MIRROR": "default"}
# A streaming replica for the public reads (api.replica routes them).
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = _database("DATABASE_REPLICA_URL")
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise ImproperlyConfigured("DATABASE_REPLICA_URL needs a PostgreSQL DATABASE_URL.")
# Past this lag, or with the replica unreachable, public reads go to the
# primary; each process looks at most once every DATABASE_REPLICA_CHECK_SECONDS.
DATABASE_REPLICA_MAX_LAG_SECONDS = env_float("DATABASE_REPLICA_MAX_LAG_SECONDS", 5.0, minimum=0)
DATABASE_REPLICA_CHECK_SECONDS = env_float("DATABASE_REPLICA_CHECK_SECONDS", 1.0, minimum=0.05)
# Connecting to the replica (or the direct connection) waits at most this long.
DATABASE_CONNECT_TIMEOUT = env_int("DATABASE_CONNECT_TIMEOUT", 2, minimum=1)
DATABASE_ROUTERS = ["api.replica.PublicReadRouter"] if DATABASE_REPLICA_URL else []

for _alias, _database_settings in DATABASES.items():
    if not _database_settings["ENGINE"].endswith("postgresql"):
        continue
    _options = _database_settings.setdefault("OPTIONS", {})
    if _alias != "default":
        _options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT)
    if _alias == "replica":
        # A replica whose host vanished (no RST: a killed container) fails
        # a query within the connect timeout instead of TCP's many minutes.
        _options.setdefault("tcp_user_timeout", DATABASE_CONNECT_TIMEOUT * 1000)
    # Behind PgBouncer a connection is one to PgBouncer (cheap, kept all the
    # same: it saves a connect per request); the server connections are its.
    _database_settings.setdefault("CONN_MAX_AGE", env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0))
    # A health check is a SELECT 1 before each request's first query. Off, a
    # connection the database dropped (a restart) fails its next request with
    # 503 unavailable and is replaced; on, every request pays a round trip.
    _database_settings["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_CONN_HEALTH_CHECKS", False)
    # A QuerySet.iterator() cursor would outlive its transaction.
    _database_settings["DISABLE_SERVER_SIDE_CURSORS"] = (
        DATABASE_TRANSACTION_POOLING and _alias != "direct")
    # Prepared statements: each connection has PostgreSQL parse and plan a
    # query once, then only binds it, which halves the database's CPU for a
    # move. Off behind a pooler that cannot carry them (PgBouncer in
    # transaction mode before 1.21, or without max_prepared_statements).
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        _options.update({"server_side_binding": True, "prepare_threshold": 5})
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The laptop default serves several threads at once (runserver, the test
    # server). A transaction takes the write lock as it begins, so two never
    # deadlock upgrading a read lock; a writer waits for the lock rather than
    # fail; WAL lets readers go on while one writes. Tests use a file too: an
    # in-memory database shared between threads locks whole tables at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"solitaire-test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A shared cache is needed once there is more than one web process
# (throttling counts, for one); locmem is per process. Production names one,
# or asks for the per-process cache on purpose with CACHE_URL=locmem://.
CACHE_URL = env_str("CACHE_URL", "")
if not CACHE_URL and not DEBUG:
    raise ImproperlyConfigured(
        "CACHE_URL is required when DEBUG is false: redis://host:6379/1, or locmem:// "
        "for a cache in each process on purpose (one process only).")
# Redis behind Sentinel: CACHE_URL and CELERY_BROKER_URL name the sentinels,
# sentinel://host:26379/1;sentinel://host2:26379/1 (the database on each),
# and both follow the master this names through failovers.
REDIS_SENTINEL_MASTER = env_str("REDIS_SENTINEL_MASTER", "solitaire")
if CACHE_URL and CACHE_URL != "locmem://":
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://", "sentinel://")):
        raise ImproperlyConfigured(
            f"CACHE_URL={CACHE_URL!r} must be a redis://, rediss://, unix:// or sentinel:// URL, "
            "or locmem://.")
    CACHES = {
        "default": {
            "BACKEND": "api.cache.RedisCache",  # Django's, reusing its Redis client
            "LOCATION": CACHE_URL,
            # Several sites (or benchmark runs) can share one Redis database.
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", ""),
            # A cache that is down or hung costs a request at most this long:
            # play goes on without it (api.outages).
            "OPTIONS": {
                "socket_connect_timeout": env_float("CACHE_TIMEOUT", 0.5, minimum=0.01),
                "socket_timeout": env_float("CACHE_TIMEOUT", 0.5, minimum=0.01),
                **({"sentinel_master": REDIS_SENTINEL_MASTER}
                   if CACHE_URL.startswith("sentinel://") else {}),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# After a failed cache call, each process leaves the cache alone this long
# (calls fail at once), then tries it again (api.cache's circuit breaker).
CACHE_RETRY_SECONDS = env_float("CACHE_RETRY_SECONDS", 5.0, minimum=0.1)

# Sessions live in the database, so any web process can serve any request,
# and are read from it on every request, never from the cache: a logout is
# final even when the cache missed it (api/sessions.py).
SESSION_ENGINE = "api.sessions"
# A session expires this long after its last save; it is saved again once
# less than half remains (api.play.accounts.sessions), so a session in use lasts.
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 14 * 24 * 3600, minimum=3600)

# -- Time and language ---------------------------------------------------------

# "Today" is one date for everyone: the date in this zone (api/clock.py).
DAILY_TIME_ZONE = env_time_zone("DAILY_TIME_ZONE", "Europe/Lisbon")
# Every process reads the time off PostgreSQL's clock (api/clock.py), measuring
# its offset from it this often, so hosts whose clocks differ agree at midnight.
CLOCK_SYNC_SECONDS = env_float("CLOCK_SYNC_SECONDS", 10.0, minimum=0.1)
TIME_ZONE = DAILY_TIME_ZONE
USE_TZ = True

LANGUAGE_CODE = "pt-pt"
LANGUAGES = [
    ("pt-pt", "Português"),
    ("en", "English"),
]
USE_I18N = True
# Our catalogs first: an app listed earlier (django.contrib.admin) would
# otherwise win for a shared msgid ("History" is "História" there, the
# pages' word is "Histórico"), and ours carry the pt-PT wording of Django's
# and DRF's own messages that their "pt" catalogs leave untranslated or word
# as in Brazil (api/play/accounts/django_messages.py, api/play/rest/framework_messages.py).
LOCALE_PATHS = [BASE_DIR / "frontend" / "locale", BASE_DIR / "api" / "locale"]

# -- Static files (served by WhiteNoise from any web process) -------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "api.storage.StaticStorage"
        )
    },
}
# Without DEBUG, files come from STATIC_ROOT (run collectstatic); the test
# suite runs with DEBUG forced off, so let it find files in the apps too.
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

# -- HTTPS and security (production) -------------------------------------------

# The TLS-terminating proxy or load balancer sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers and container health checks probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^health/$", r"^metrics$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
}

# -- REST framework ------------------------------------------------------------

# The largest request body any page or API call needs is a few KiB (a batch
# of 52 moves: under 1 KiB): past this, 413 payload_too_large from the web
# process itself (api.play.rest.parsers), proxy in front or not.
DATA_UPLOAD_MAX_MEMORY_SIZE = 32 * 1024

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # API clients: Authorization: Token <key> (POST /api/v1/auth/token).
        # Tokens expire after API_TOKEN_TTL_SECONDS and end on logout. First,
        # so that a bad token answers 401 with WWW-Authenticate: Token.
        "api.play.accounts.tokens.ExpiringTokenAuthentication",
        # Browser: session, with CSRF checked on unsafe methods.
        "rest_framework.authentication.SessionAuthentication",
    ],
    # A first visit gets a guest player (api.play.rest.auth.user_or_guest).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON only, bounded in this process (api.play.rest.parsers): a body over
    # DATA_UPLOAD_MAX_MEMORY_SIZE is 413, too many objects and lists or nested
    # deeper than MAX_DEPTH 400.
    "DEFAULT_PARSER_CLASSES": ["api.play.rest.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "api.play.rest.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 20, minimum=1, maximum=500),
    "DEFAULT_THROTTLE_CLASSES": [
        "api.play.rest.throttles.PlayAnonThrottle",
        "api.play.rest.throttles.PlayUserThrottle",
    ],
    # The scopes are described in api/play/rest/throttles.py and docs/API.md.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "120/min"),
        "user": env_str("API_THROTTLE_USER", "1200/min"),
        "login_address": env_str("API_THROTTLE_LOGIN_ADDRESS", "30/min"),
        "login_account": env_str("API_THROTTLE_LOGIN_ACCOUNT", "10/min"),
        "token_address": env_str("API_THROTTLE_TOKEN_ADDRESS", "30/min"),
        "token_account": env_str("API_THROTTLE_TOKEN_ACCOUNT", "10/min"),
        "register_address": env_str("API_THROTTLE_REGISTER_ADDRESS", "10/hour"),
        "register_account": env_str("API_THROTTLE_REGISTER_ACCOUNT", "10/hour"),
        # Guests made per address: a small burst, and a few an hour.
        "guest_burst": env_str("API_THROTTLE_GUEST_BURST", "3/min"),
        "guest": env_str("API_THROTTLE_GUEST", "10/hour"),
        # Hints on top of that: each may cost seconds of solver time.
        "hint": env_str("API_THROTTLE_HINT", "30/min"),
        # Invite codes tried per player: a code is guessed by no one at this pace.
        "league_join": env_str("API_THROTTLE_LEAGUE_JOIN", "30/hour"),
    },
}
# How many proxies of ours stand in front of the web processes: 0 (the
# default) takes the client's address from the socket and ignores
# X-Forwarded-For; N takes the N-th address from its right
# (api.play.rest.throttles.client_address).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT
# Wrong passwords for one username: this many are free, then it is locked out
# for AUTH_LOCKOUT_BASE_SECONDS, doubling with each further one up to
# AUTH_LOCKOUT_MAX_SECONDS (API login and token, and the admin's login).
AUTH_LOCKOUT_FREE_FAILURES = env_int("AUTH_LOCKOUT_FREE_FAILURES", 5, minimum=1)
AUTH_LOCKOUT_BASE_SECONDS = env_int("AUTH_LOCKOUT_BASE_SECONDS", 30, minimum=1)
AUTH_LOCKOUT_MAX_SECONDS = env_int("AUTH_LOCKOUT_MAX_SECONDS", 3600, minimum=1)
AUTHENTICATION_BACKENDS = [
    "api.play.accounts.lockout.LockoutModelBackend",
    # Only so that sessions that name them stay logged in (get_user); the
    # backend above answers or stops every username/password check.
    "api.play.throttles.LockoutModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# An API token is refused (and deleted) this long after it was issued.
API_TOKEN_TTL_SECONDS = env_int("API_TOKEN_TTL_SECONDS", 30 * 24 * 3600, minimum=60)
SPECTACULAR_SETTINGS = {
    "TITLE": "Solitaire daily deals API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # PATCH bodies are described as sent: PATCH /me requires display_name.
    "COMPONENT_SPLIT_PATCH": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # A move request has exactly one of move and moves.
        "api.play.rest.schema.postprocess_exclusive_moves",
    ],
    "GET_LIB_DOC_EXCLUDES": "api.play.rest.shapes.doc_excludes",
    "ENUM_NAME_OVERRIDES": {
        "AttemptStatusEnum": "api.play.rest.answers.ATTEMPT_STATUSES",
        "HintStatusEnum": "api.play.rest.answers.HINT_STATUSES",
        "AnalysisStatusEnum": "api.play.rest.answers.ANALYSIS_STATUSES",
        "ErrorCodeEnum": "api.errors.CODES",
    },
    # The docs page loads Swagger UI from our static files, so it works
    # offline and behind a strict network policy.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# -- Celery (api/celery.py reads every CELERY_* setting) -----------------------

# No broker: tasks run eagerly, in the process that enqueues them (a
# request's tasks after its answer is sent, one at a time: api.publish).
# Production names a broker, or asks for that on purpose with
# CELERY_TASK_ALWAYS_EAGER=true (the solver then runs in the web processes).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", DEBUG and not CELERY_BROKER_URL)
if CELERY_TASK_ALWAYS_EAGER and CELERY_BROKER_URL:
    raise ImproperlyConfigured(
        "CELERY_TASK_ALWAYS_EAGER=true runs tasks in-process: leave CELERY_BROKER_URL empty "
        "with it, or leave it unset.")
if not CELERY_BROKER_URL and not CELERY_TASK_ALWAYS_EAGER:
    raise ImproperlyConfigured(
        "CELERY_BROKER_URL is required (redis://host:6379/0) when DEBUG is false, or "
        "CELERY_TASK_ALWAYS_EAGER=true to run tasks in the web processes on purpose.")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
# A task is acknowledged after it ran, and given back if its worker dies.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis gives an unacknowledged task to another worker after this long (a
# worker killed as a whole acknowledges nothing). A task given again while
# its first run is still going takes the deal's claim over (the claim names
# the task), so the first run stops after its current candidate: keep this
# above DEAL_SOLVE_MAX_SECONDS. Every worker looks for such tasks every
# CELERY_RESTORE_INTERVAL seconds (kombu's default sweep is 100 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 30, minimum=1),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 5, minimum=1),
    "unacked_restore_throttle": 1,
}
if CELERY_BROKER_URL.startswith("sentinel://"):
    # kombu asks the sentinels for this master, and again after a failover.
    CELERY_BROKER_TRANSPORT_OPTIONS["master_name"] = REDIS_SENTINEL_MASTER
# Publishing (api.publish): connecting to the broker and each exchange with
# it take at most this long, never retried in place; after a failure nothing
# is published for BROKER_RETRY_SECONDS (requests hand their tasks to a
# thread of their process, which keeps them until the broker answers).
BROKER_PUBLISH_TIMEOUT = env_float("BROKER_PUBLISH_TIMEOUT", 0.5, minimum=0.01)
BROKER_RETRY_SECONDS = env_float("BROKER_RETRY_SECONDS", 5.0, minimum=0.1)
# /health/'s broker check answers within this long.
HEALTH_BROKER_TIMEOUT = env_float("HEALTH_BROKER_TIMEOUT", 1.0, minimum=0.01)
# Celery's own publishing (beat's schedule; api.publish sends without retry):
# one retry at most, and a connection's first attempt bounded.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_TIMEZONE = DAILY_TIME_ZONE
CELERY_ENABLE_UTC = True
# A second beat (api.beat_lock) asks this often whether the first is gone.
BEAT_LOCK_RETRY_SECONDS = env_float("BEAT_LOCK_RETRY_SECONDS", 2.0, minimum=0.1)
CELERY_BEAT_SCHEDULE = {
    # Idempotent and date-based: each run computes today in DAILY_TIME_ZONE
    # and makes sure today..today+7 exist and are verified, so an hour
    # skipped or repeated by daylight saving neither skips nor repeats a day.
    "deals-keep-upcoming-prepared": {
        "task": "api.deals.tasks.prepare_upcoming_deals",
        "schedule": crontab(minute=7),
    },
    # Recovery: analyses a lost message or a dead worker left undone.
    "play-sweep-analyses": {
        "task": "api.play.tasks.sweep_analyses",
        "schedule": crontab(minute="*/15"),
    },
    # After midnight in DAILY_TIME_ZONE: the post-mortem of the day that ended.
    "play-post-mortems": {
        "task": "api.play.tasks.post_mortems",
        "schedule": crontab(minute=20),
    },
    # Expired sessions, and guests idle for PLAY_GUEST_IDLE_DAYS with no attempt.
    "play-clean-sessions-and-guests": {
        "task": "api.play.tasks.clean_sessions_and_guests",
        "schedule": crontab(minute=37, hour=4),
    },
}

# -- Metrics -------------------------------------------------------------------

# X-Served-By: <host name> on every answer: which of several web replicas
# answered (the scaled stack's smoke run reads it).
SERVED_BY_HEADER = env_bool("SERVED_BY_HEADER", False)

# /metrics on the application's port answers only clients whose socket
# address is in these networks (comma-separated addresses or CIDR blocks;
# X-Forwarded-For plays no part); anyone else gets 404. Under gunicorn the
# metrics are served on their own port instead (METRICS_PORT,
# deploy/gunicorn.conf.py), so production leaves this empty.
METRICS_ALLOWED_ADDRESSES = env_list(
    "METRICS_ALLOWED_ADDRESSES", ["127.0.0.1", "::1"] if DEBUG else [])
for _network in METRICS_ALLOWED_ADDRESSES:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"METRICS_ALLOWED_ADDRESSES: {_network!r} is not an address or network.") from None

# -- Daily deals ---------------------------------------------------------------

# The day's public document (GET /api/v1/daily/<date>): a proxy in front
# keeps a copy at most this long (X-Accel-Expires, nginx's cache), and
# browsers get a max-age this much shorter than the time to the day's turn,
# so no copy, however old, outlives the day.
DAILY_DOCUMENT_PROXY_SECONDS = env_int("DAILY_DOCUMENT_PROXY_SECONDS", 10, minimum=0, maximum=3600)
# A leaderboard asked without a session or token (nothing personal in it)
# may be kept this long by browsers and the proxy; 0: never.
LEADERBOARD_PUBLIC_SECONDS = env_int("LEADERBOARD_PUBLIC_SECONDS", 5, minimum=0, maximum=60)
DEALS_DAYS_AHEAD = env_int("DEALS_DAYS_AHEAD", 7, minimum=0, maximum=60)
# The solver's budget for one candidate deal.
DEAL_SOLVE_MAX_SECONDS = env_float("DEAL_SOLVE_MAX_SECONDS", 10.0, minimum=0.01)
DEAL_SOLVE_MAX_NODES = env_int("DEAL_SOLVE_MAX_NODES", 5_000_000, minimum=1)
# Candidates tried for one date before the deal is marked failed.
DEAL_MAX_CANDIDATES = env_int("DEAL_MAX_CANDIDATES", 50, minimum=1)
# A candidate whose solution is longer goes to the next one (the solution is
# the replay players can watch after the day); the last candidate keeps it.
DEAL_MAX_SOLUTION_MOVES = env_int("DEAL_MAX_SOLUTION_MOVES", 300, minimum=1)
# A claim older than this is taken to belong to a dead worker.
DEAL_CLAIM_STALE_SECONDS = env_int(
    "DEAL_CLAIM_STALE_SECONDS", int(DEAL_SOLVE_MAX_SECONDS * 2) + 120, minimum=1
)

# -- Play API -------------------------------------------------------------------

# The budget of the "stalled" check after each move, in layouts stored by its
# C search (solitaire.solver._stall: about 3 microseconds a layout; positions
# that are not stalled usually take a few dozen): a position is called
# stalled only when this search proves no card can reach a foundation.
PLAY_STALLED_MAX_NODES = env_int("PLAY_STALLED_MAX_NODES", 20_000, minimum=1)
# A hint (GET /api/v1/attempts/{id}/hint): the solver's time budget for the
# search of a position (the solver's own default for a hint), and how long a
# request waits for it before answering 202 "pending" while it goes on
# (api.play.attempts.hints): "unknown" is the whole budget's answer.
PLAY_HINT_MAX_SECONDS = env_float("PLAY_HINT_MAX_SECONDS", 10.0, minimum=0.01)
PLAY_HINT_WAIT_SECONDS = env_float("PLAY_HINT_WAIT_SECONDS", 3.0, minimum=0.0)
# Hints that cannot starve play (api.play.attempts.hints): at most PLAY_HINT_SLOTS
# solver runs at once on a machine (locks on files in PLAY_HINT_SLOT_DIR,
# by default one folder per database, so sites sharing a machine keep their
# own), else 503 hints_busy with Retry-After; the solver in a child process at nice
# PLAY_HINT_NICE; decided answers cached by position.
PLAY_HINT_SLOTS = env_int("PLAY_HINT_SLOTS", 1, minimum=1, maximum=64)
PLAY_HINT_SLOT_DIR = env_str(
    "PLAY_HINT_SLOT_DIR",
    "/dev/shm/solitaire-hints-" + hashlib.sha256(
        repr([DATABASES["default"].get(k) for k in ("HOST", "PORT", "NAME")]).encode()
    ).hexdigest()[:12],
)
PLAY_HINT_NICE = env_int("PLAY_HINT_NICE", 10, minimum=0, maximum=19)
PLAY_HINT_CACHE_SECONDS = env_int("PLAY_HINT_CACHE_SECONDS", 2 * 86_400, minimum=1)
PLAY_HINT_RETRY_AFTER = env_int("PLAY_HINT_RETRY_AFTER", 2, minimum=1)
# Heavy answers (the analysis' positions, the replayed log), one at a time per
# player (api.play.rest.heavy): a second one at once is 429 heavy_busy with this
# Retry-After; a slot a dead process held expires after PLAY_HEAVY_SLOT_SECONDS.
PLAY_HEAVY_RETRY_AFTER = env_int("PLAY_HEAVY_RETRY_AFTER", 1, minimum=1)
PLAY_HEAVY_SLOT_SECONDS = env_int("PLAY_HEAVY_SLOT_SECONDS", 60, minimum=1)
# From this many ranked attempts on one deal, the leaderboard's total and the
# counts behind a player's rank come from per-bucket counts cached for
# LEADERBOARD_COUNTS_TTL seconds (api.play.records.leaderboard); below it, counted live.
LEADERBOARD_CACHED_COUNTS_FROM = env_int("LEADERBOARD_CACHED_COUNTS_FROM", 20_000, minimum=0)
LEADERBOARD_COUNTS_TTL = env_int("LEADERBOARD_COUNTS_TTL", 10, minimum=1, maximum=3600)
# Caps that keep one player from flooding the database: moves and undos in
# one attempt (409 action_limit), attempts by one player on one deal
# (409 attempt_limit).
PLAY_MAX_ACTIONS_PER_ATTEMPT = env_int("PLAY_MAX_ACTIONS_PER_ATTEMPT", 3000, minimum=1)
# Guests with no attempt, not seen for this many days, are deleted by beat.
PLAY_GUEST_IDLE_DAYS = env_int("PLAY_GUEST_IDLE_DAYS", 30, minimum=1)
PLAY_MAX_ATTEMPTS_PER_DEAL = env_int("PLAY_MAX_ATTEMPTS_PER_DEAL", 100, minimum=1)
# Machine pace (api.play.domain): PLAY_MACHINE_PACE_RUN requests in a
# row, each less than PLAY_MACHINE_PACE_MS after the previous action, mark a
# ranked result as machine-paced: kept, marked, ranked after the rest.
PLAY_MACHINE_PACE_MS = env_int("PLAY_MACHINE_PACE_MS", 150, minimum=0)
# The analysis of a finished attempt that was not won (api.play.attempts.analysis),
# off the request path: in the workers, or with no broker in the web process's
# publisher thread after the finish is answered (api.publish); the client
# polls it. Each position it asks the solver about gets this budget, the
# solver's own default for a hint, the same with or without a broker: a
# verdict "undecided" means the solver cannot decide it in a generous budget,
# never that the budget was cut short.
PLAY_ANALYSIS_ON_FINISH = env_bool("PLAY_ANALYSIS_ON_FINISH", True)
PLAY_ANALYSIS_MAX_SECONDS = env_float("PLAY_ANALYSIS_MAX_SECONDS", 10.0, minimum=0.01)
PLAY_ANALYSIS_MAX_NODES = env_int("PLAY_ANALYSIS_MAX_NODES", 20_000_000, minimum=1)
PLAY_ANALYSIS_CLAIM_STALE_SECONDS = env_int("PLAY_ANALYSIS_CLAIM_STALE_SECONDS", 600, minimum=1)
PLAY_MACHINE_PACE_RUN = env_int("PLAY_MACHINE_PACE_RUN", 20, minimum=1)

# Private leagues (api.play.leagues): members per league (its owner
# included), and the leagues one player may own.
LEAGUE_MAX_MEMBERS = env_int("LEAGUE_MAX_MEMBERS", 300, minimum=2, maximum=5000)
LEAGUES_PER_OWNER = env_int("LEAGUES_PER_OWNER", 20, minimum=1)
