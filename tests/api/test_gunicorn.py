"""deploy/gunicorn.conf.py: metrics on their own port (never the
application's), no silent second server on a port already served, and an
access log that the proxy's may replace."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from private_redis import free_port
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def _start(port: int, metrics_port: int, tmp_path: Path, name: str,
           extra: dict[str, str]) -> subprocess.Popen:
    env = {
        **os.environ, "PORT": str(port), "METRICS_PORT": str(metrics_port),
        "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "1", "DEBUG": "true",
        "METRICS_ALLOWED_ADDRESSES": "192.0.2.0/24",  # not the test's loopback
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / f"metrics-{name}"),
        **extra,
    }
    return subprocess.Popen(
        [str(GUNICORN), "--config", "deploy/gunicorn.conf.py", "api.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )


@pytest.fixture
def gunicorn(tmp_path):
    started: list[subprocess.Popen] = []

    def start(port, metrics_port, name="a", **extra):
        process = _start(port, metrics_port, tmp_path, name, extra)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_serving(url: str, process: subprocess.Popen) -> None:
    def serving() -> bool:
        assert process.poll() is None, process.stdout.read()
        try:
            _status(url)
        except OSError:
            return False
        return True

    wait_until(serving, seconds=60, every=0.2, explain=f"{url} did not answer")


def test_metrics_have_their_own_port_and_a_second_server_is_refused(gunicorn):
    port, metrics_port = free_port(), free_port()
    first = gunicorn(port, metrics_port)
    _wait_serving(f"http://127.0.0.1:{port}/health/", first)

    assert _status(f"http://127.0.0.1:{metrics_port}/metrics") == 200
    # The application's port does not serve them to an address not allowed.
    assert _status(f"http://127.0.0.1:{port}/metrics") == 404

    second = gunicorn(port, free_port(), name="b")
    output, _ = second.communicate(timeout=60)
    assert second.returncode != 0
    assert "is in use" in output, output
    assert first.poll() is None


@pytest.mark.parametrize("setting, logged", [(None, True), ("-", True), ("", False)])
def test_the_access_log_is_on_unless_turned_off(gunicorn, monkeypatch, setting, logged):
    monkeypatch.delenv("GUNICORN_ACCESS_LOG", raising=False)
    extra = {} if setting is None else {"GUNICORN_ACCESS_LOG": setting}
    port = free_port()
    server = gunicorn(port, free_port(), **extra)
    _wait_serving(f"http://127.0.0.1:{port}/health/", server)
    assert _status(f"http://127.0.0.1:{port}/health/?probe=access-log") == 200
    server.terminate()
    output, _ = server.communicate(timeout=30)
    assert ("GET /health/?probe=access-log" in output) == logged, output


def test_each_server_on_a_host_has_a_metrics_folder_of_its_own():
    """By default the folder is named by the server's port: two servers on
    one host neither mix their values nor empty each other's at start."""
    code = ("import os, runpy; runpy.run_path('deploy/gunicorn.conf.py'); "
            "print(os.environ['PROMETHEUS_MULTIPROC_DIR'])")
    folders = []
    for port in ("18101", "18102"):
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                                text=True, timeout=60, env={**env, "PORT": port})
        assert result.returncode == 0, result.stderr
        folders.append(result.stdout.strip())
    assert folders == ["/dev/shm/solitaire-metrics-18101", "/dev/shm/solitaire-metrics-18102"]
