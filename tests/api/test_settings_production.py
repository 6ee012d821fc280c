"""Production settings: loud on what is missing, and clean for `check --deploy`.

Each case starts a fresh Python process, since settings are read once."""

import os
import subprocess
import sys
from pathlib import Path

from private_redis import PrivateRedis

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3T9vQ2mX8rL5wZ1nB7cF4hJ6pS0dG2yU9eA3tR8qW5zM1xV7bN4",
    "DEAL_SEED_SECRET": "another-long-random-value-for-deal-seeds-0192837465",
    "ALLOWED_HOSTS": "solitaire.example",
    "CSRF_TRUSTED_ORIGINS": "https://solitaire.example",
    "DATABASE_URL": "postgres://solitaire:pw@db.internal:5432/solitaire",
    "CELERY_BROKER_URL": "redis://redis.internal:6379/0",
    "CACHE_URL": "redis://redis.internal:6379/1",
}

# Variables of the test run itself that must not leak into the child.
CLEARED = {"DEBUG", "SECRET_KEY", "DEAL_SEED_SECRET", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
           "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DAILY_TIME_ZONE",
           "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY_FILE", "DEAL_SEED_SECRET_FILE",
           "CELERY_TASK_ALWAYS_EAGER", "PROMETHEUS_MULTIPROC_DIR",
           "DATABASE_PASSWORD", "DATABASE_PASSWORD_FILE", "DATABASE_PREPARED_STATEMENTS"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in CLEARED}
    environ.update(env, DJANGO_SETTINGS_MODULE="api.settings")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environ,
        capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_reports_nothing_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_without_a_secret_key_production_refuses_to_start():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "The environment variable SECRET_KEY is required" in result.stderr


def test_without_a_deal_seed_secret_production_refuses_to_start():
    env = {k: v for k, v in PRODUCTION.items() if k != "DEAL_SEED_SECRET"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "DEAL_SEED_SECRET is required" in result.stderr


def test_without_allowed_hosts_production_refuses_to_start():
    env = {k: v for k, v in PRODUCTION.items() if k != "ALLOWED_HOSTS"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS is required" in result.stderr


def test_a_bad_value_stops_the_process_with_its_name():
    result = manage("check", **{**PRODUCTION, "DEAL_SOLVE_MAX_SECONDS": "soon"})
    assert result.returncode != 0
    assert "DEAL_SOLVE_MAX_SECONDS='soon' is not a number" in result.stderr


def test_with_nothing_set_debug_is_off_and_the_secrets_are_required():
    result = manage("check")

    assert result.returncode != 0
    assert "The environment variable SECRET_KEY is required" in result.stderr


def test_on_a_laptop_everything_has_a_default():
    # DEBUG=true is what scripts/serve sets.
    result = manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                    "print(s.DEBUG, s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, "
                    "s.CACHES['default']['BACKEND'], s.DAILY_TIME_ZONE, s.LANGUAGE_CODE)",
                    DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True", "django.db.backends.sqlite3", "True",
        "django.core.cache.backends.locmem.LocMemCache", "Europe/Lisbon", "pt-pt",
    ]


def test_a_broker_and_a_cache_url_switch_to_celery_workers_and_redis():
    result = manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                    "print(s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'])",
                    CELERY_BROKER_URL="redis://127.0.0.1:6379/0", CACHE_URL="redis://127.0.0.1:6379/1",
                    DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "api.cache.RedisCache"]


def test_the_secrets_can_come_from_files_as_compose_secrets_give_them(tmp_path):
    # deploy/compose.yaml's way: /run/secrets/<name>, one secret a file.
    files = {}
    for name, value in [("secret_key", PRODUCTION["SECRET_KEY"]),
                        ("deal_seed_secret", PRODUCTION["DEAL_SEED_SECRET"]),
                        ("postgres_password", "pw-from-a-file")]:
        files[name] = tmp_path / name
        files[name].write_text(value + "\n")
    env = {k: v for k, v in PRODUCTION.items() if k not in ("SECRET_KEY", "DEAL_SEED_SECRET")}
    env.update(
        DATABASE_URL="postgres://solitaire@db.internal:5432/solitaire",
        SECRET_KEY_FILE=str(files["secret_key"]),
        DEAL_SEED_SECRET_FILE=str(files["deal_seed_secret"]),
        DATABASE_PASSWORD_FILE=str(files["postgres_password"]),
    )

    result = manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                    "print(s.SECRET_KEY == %r, s.DEAL_SEED_SECRET == %r, s.DATABASES['default']['PASSWORD'])"
                    % (PRODUCTION["SECRET_KEY"], PRODUCTION["DEAL_SEED_SECRET"]), **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "pw-from-a-file"]

    result = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_secret_file_that_cannot_be_read_stops_production_with_its_name(tmp_path):
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = manage("check", SECRET_KEY_FILE=str(tmp_path / "missing"), **env)
    assert result.returncode != 0
    assert "SECRET_KEY_FILE=" in result.stderr and "cannot be read" in result.stderr


def test_a_database_password_in_the_url_and_in_a_file_is_refused(tmp_path):
    (tmp_path / "pw").write_text("other")
    result = manage("check", DATABASE_PASSWORD_FILE=str(tmp_path / "pw"), **PRODUCTION)
    assert result.returncode != 0
    assert "give it one way" in result.stderr


def test_prepared_statements_are_on_for_postgresql_and_can_be_turned_off():
    def options(**env: str) -> str:
        result = manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                        "print(sorted(s.DATABASES['default'].get('OPTIONS', {}).items()))",
                        DEBUG="true", DATABASE_URL=PRODUCTION["DATABASE_URL"], **env)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert options() == "[('prepare_threshold', 5), ('server_side_binding', True)]"
    assert options(DATABASE_PREPARED_STATEMENTS="false") == "[]"


def test_a_bad_prepared_statements_value_stops_the_process_with_its_name():
    result = manage("check", **{**PRODUCTION, "DATABASE_PREPARED_STATEMENTS": "sometimes"})
    assert result.returncode != 0
    assert "DATABASE_PREPARED_STATEMENTS='sometimes' is not a boolean" in result.stderr


def test_a_cache_url_on_a_unix_socket_reaches_redis_there(tmp_path):
    redis = PrivateRedis(unix_socket=str(tmp_path / "redis.sock"))
    redis.start()
    try:
        result = manage(
            "shell", "-v", "0", "-c",
            "import time; from django.core.cache import cache; cache.set('seen', 7); "
            "print(cache.get('seen'), cache.rate_log('socket', now=time.time(), duration=60, "
            "limit=1).allowed, cache.rate_log('socket', now=time.time(), duration=60, "
            "limit=1).allowed)",
            CACHE_URL=f"unix://{redis.unix_socket}?db=1", DEBUG="true")
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["7", "True", "False"]
        # The values are in that server, database 1.
        keys = subprocess.run(["redis-cli", "-s", redis.unix_socket, "-n", "1", "--scan"],
                              capture_output=True, text=True, timeout=10).stdout.split()
        assert any(key.endswith("seen") for key in keys) and any("socket" in key for key in keys)
    finally:
        redis.stop()


def _settings_of(*names: str, **env: str) -> subprocess.CompletedProcess:
    return manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                  f"print(*[getattr(s, name) for name in {list(names)!r}])", **env)


def test_production_without_a_cache_url_refuses_to_start_unless_asked_for_locmem():
    env = {k: v for k, v in PRODUCTION.items() if k != "CACHE_URL"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "CACHE_URL is required when DEBUG is false" in result.stderr

    result = manage("shell", "-v", "0", "-c", "from django.conf import settings as s; "
                    "print(s.CACHES['default']['BACKEND'])", **env, CACHE_URL="locmem://")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.core.cache.backends.locmem.LocMemCache"]


def test_a_cache_url_of_another_kind_is_refused_with_its_name():
    result = manage("check", **{**PRODUCTION, "CACHE_URL": "memcached://cache.internal"})
    assert result.returncode != 0
    assert "CACHE_URL='memcached://cache.internal' must be a redis://" in result.stderr


def test_production_without_a_broker_refuses_to_start_unless_tasks_in_process_are_asked_for():
    env = {k: v for k, v in PRODUCTION.items() if k != "CELERY_BROKER_URL"}
    result = manage("check", **env)
    assert result.returncode != 0
    assert "CELERY_BROKER_URL is required" in result.stderr
    assert "CELERY_TASK_ALWAYS_EAGER=true" in result.stderr

    result = _settings_of("CELERY_TASK_ALWAYS_EAGER", "CELERY_BROKER_URL", **env,
                          CELERY_TASK_ALWAYS_EAGER="true")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True"]  # and no broker URL (printed empty)


def test_tasks_in_process_beside_a_broker_is_a_contradiction_named_as_such():
    result = manage("check", **PRODUCTION, CELERY_TASK_ALWAYS_EAGER="true")
    assert result.returncode != 0
    assert "CELERY_TASK_ALWAYS_EAGER=true runs tasks in-process" in result.stderr


def test_a_command_makes_the_metrics_folder_it_is_told_to_write_in(tmp_path):
    folder = tmp_path / "metrics" / "not-made-yet"
    result = manage("shell", "-v", "0", "-c",
                    "from api import metrics; metrics.MOVES.labels('cruel').inc(); print('ok')",
                    DEBUG="true", PROMETHEUS_MULTIPROC_DIR=str(folder))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ok"]
    assert any(path.name.startswith("counter_") for path in folder.iterdir())
