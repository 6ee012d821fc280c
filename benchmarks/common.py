"""What the service benchmarks share (load_bench.py, play_bench.py,
leaderboard_bench.py): a scratch PostgreSQL database, the server's
environment, manage.py, gunicorn started and stopped, today's verified
deals, and timing a call.

A benchmark imports it as ``common`` (``benchmarks/`` is its script's own
folder, first on ``sys.path``)."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RUN_ID = f"{os.getpid()}-{int(time.time())}"


# -- the scratch database -------------------------------------------------------------


def db_url(admin_url: str, name: str) -> str:
    """The URL of database ``name`` on the server of ``admin_url``."""
    return urlunsplit(urlsplit(admin_url)._replace(path=f"/{name}"))


@contextlib.contextmanager
def scratch_database(admin_url: str, name: str, *, keep: bool = False) -> Iterator[str]:
    """A new, empty database ``name`` (dropped first if it is there); its
    URL. Dropped at the end unless ``keep``."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield db_url(admin_url, name)
    finally:
        if not keep:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# -- the server ---------------------------------------------------------------------


def server_env(args, url: str, workers: int, *, name: str = "bench") -> dict:
    """The environment of manage.py and gunicorn for a run: DEBUG off, the
    database at ``url``, the cache at ``args.cache_url``, ``workers``
    gunicorn workers of ``args.threads`` threads on ``args.port``. ``name``
    keeps this run's cache keys, metrics files and hint slots apart."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DEBUG", "CELERY_BROKER_URL", "DAILY_TIME_ZONE")}
    scratch = os.path.join(tempfile.gettempdir(), f"{name}-{RUN_ID}")
    env.update({
        "DEBUG": "false", "SECRET_KEY": f"{name}-secret-key-not-for-production",
        "DEAL_SEED_SECRET": f"{name}-deal-seed-secret", "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": url, "CACHE_URL": args.cache_url, "PORT": str(args.port),
        # No broker, on purpose: the analysis runs in the web processes.
        "CELERY_TASK_ALWAYS_EAGER": "true",
        # A fresh database numbers users from 1 again: keep earlier runs' throttle counts apart.
        "CACHE_KEY_PREFIX": f"{name}-{RUN_ID}",
        "WEB_CONCURRENCY": str(workers), "GUNICORN_THREADS": str(args.threads),
        "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false", "LOG_LEVEL": "warning", "PYTHONPATH": str(ROOT),
        "WHITENOISE_USE_FINDERS": "true",
        # Metrics files and hint slots of this run only (gunicorn empties the folder).
        "PROMETHEUS_MULTIPROC_DIR": os.path.join(scratch, "metrics"),
        "PLAY_HINT_SLOT_DIR": os.path.join(scratch, "hints"),
        # No metrics port: two runs on one machine would want the same one.
        "METRICS_PORT": "0",
        # Every simulated player is a new guest from one machine; the guest
        # limits stand against abuse, not the load being measured.
        "API_THROTTLE_GUEST_BURST": "100000000/min", "API_THROTTLE_GUEST": "100000000/hour",
    })
    if not os.path.isdir(scratch):  # removed when the benchmark's process ends
        atexit.register(shutil.rmtree, scratch, ignore_errors=True)
    os.makedirs(env["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)  # manage.py writes there too
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str, *, seconds: float = 30,
                   log: Callable[[], str] = lambda: "") -> None:
    """Returns once something accepts connections on 127.0.0.1:``port``;
    raises SystemExit when ``proc`` exits first (with ``log()``'s text) or
    after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode} {log()}".rstrip())
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{what} did not listen on port {port} within {seconds:g} s")


def manage(env: dict, *argv: str) -> None:
    """``python manage.py ARGV...`` in ``env``; raises when it fails."""
    subprocess.run([PYTHON, str(ROOT / "manage.py"), *argv], env=env, check=True,
                   stdout=subprocess.DEVNULL)


class Server:
    """A WSGI server serving ``app`` on ``port`` (by default ``args.port``)
    while the ``with`` block runs (stderr to ``args.server_log``): gunicorn
    with deploy/gunicorn.conf.py."""

    def __init__(self, args, env: dict, app: str = "api.wsgi", *, port: int | None = None):
        self.args, self.env, self.proc, self.app = args, env, None, app
        self.port = port or args.port

    def command(self) -> list[str]:
        bin_dir = str(Path(PYTHON).parent)
        return [shutil.which("gunicorn", path=bin_dir) or "gunicorn",
                "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                "--bind", f"127.0.0.1:{self.port}", self.app]

    def __enter__(self):
        self.proc = subprocess.Popen(
            self.command(), env=self.env, cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=self.args.server_log, start_new_session=True)
        wait_listening(self.port, self.proc, "gunicorn")
        time.sleep(1.0)  # all workers booted
        return self

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def today_deals(env: dict) -> tuple[str, dict[str, list[str]]]:
    """Today's date and each game's verified certificate, as moves."""
    code = (
        "import django; django.setup()\n"
        "import json\n"
        "from api import clock\n"
        "from api.deals.models import DailyDeal\n"
        "today = clock.today()\n"
        "print(json.dumps([today.isoformat(), {d.game: d.certificate.split() for d in "
        "DailyDeal.objects.filter(date=today, state='verified')}]))\n"
    )
    out = subprocess.run([PYTHON, "-c", code], env={**env, "DJANGO_SETTINGS_MODULE": "api.settings"},
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    date, lines = json.loads(out.strip().splitlines()[-1])
    return date, lines


# -- timing -------------------------------------------------------------------------


def machine_speed(seconds: float = 2.0) -> float:
    """Flower engine steps a second on one core (engine_bench.py's playouts):
    this machine's own speed, which moves from hour to hour, printed beside
    figures so that runs at different hours can be read together."""
    from engine_bench import playouts

    steps, elapsed, _ = playouts("flower", seconds, 200)
    return steps / elapsed


def timed(call: Callable[[], object], repeat: int) -> tuple[object, list[float]]:
    """``call()`` ``repeat`` times: its last answer and each call's milliseconds."""
    times = []
    answer = None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = call()
        times.append((time.perf_counter() - start) * 1000)
    return answer, times


def median(ms: list[float]) -> float:
    return statistics.median(ms)
