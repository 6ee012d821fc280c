"""One clock for the day's decisions: two web servers whose clocks are 8 s
apart (faketime) around midnight agree on when a day's solution becomes
public and when its ranked attempts stop taking moves, because both read
the time off PostgreSQL (api.clock).

Midnight is brought to the test: a time zone of the test's own (compiled
with zic, and read first through PYTHONTZPATH under a name the system knows,
which Django checks) starts a new day a few seconds after the servers are up."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from private_redis import free_port
from shared_database import shared_database_url
from waiting import wait_until

# PostgreSQL's clock is the one shared: not the embedded default's test.
# Serial: the servers' publication is timed to within 1.5 s of midnight.
pytestmark = [pytest.mark.production, pytest.mark.serial]

ROOT = Path(__file__).resolve().parents[3]
SKEW_SECONDS = 4  # one server this much behind the real time, the other ahead
MIDNIGHT_AFTER_SECONDS = 25  # time for both servers to start


# A name /usr/share/zoneinfo has (Django checks TIME_ZONE there); the servers
# read the test's own rules under it.
ZONE = "Etc/GMT-14"


def _zone_with_midnight_at(moment: dt.datetime, folder: Path) -> ZoneInfo:
    """A zone named ZONE whose day starts at ``moment`` (UTC, whole seconds)."""
    seconds = moment.hour * 3600 + moment.minute * 60 + moment.second
    offset = -seconds % 86_400
    if offset > 43_200:
        offset -= 86_400
    sign, offset = ("-" if offset < 0 else ""), abs(offset)
    source = folder / "midnight.zi"
    source.write_text(f"Zone {ZONE} {sign}{offset // 3600}:{offset % 3600 // 60:02d}:"
                      f"{offset % 60:02d} - TMID\n")
    subprocess.run(["zic", "-d", str(folder), str(source)], check=True)
    with open(folder / ZONE, "rb") as compiled:
        return ZoneInfo.from_file(compiled)


def _status(url: str, data: bytes | None = None, headers: dict | None = None) -> int:
    request = urllib.request.Request(url, data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def skewed_servers(tmp_path, transactional_db):
    """start(zone_folder) -> (behind_url, ahead_url): two runservers on the
    test database, one SKEW_SECONDS behind the real clock, one ahead."""
    if shutil.which("faketime") is None:
        pytest.fail("faketime is needed: apt-get install faketime (scripts/test installs it)")
    processes: list[subprocess.Popen] = []

    def start(zone_folder: Path) -> tuple[str, str]:
        urls = []
        for skew in (-SKEW_SECONDS, SKEW_SECONDS):
            port = free_port()
            env = {
                **os.environ, "DEBUG": "true", "DATABASE_URL": shared_database_url("the one-clock test"),
                "DAILY_TIME_ZONE": ZONE, "PYTHONTZPATH": str(zone_folder),
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "CLOCK_SYNC_SECONDS": "1",
                # The test asks ten times a second; the anonymous rate would refuse it.
                "API_THROTTLE_ANON": "100000/min",
            }
            env.pop("CACHE_URL", None)
            log = open(tmp_path / f"server{skew:+d}.log", "w")
            processes.append(subprocess.Popen(
                ["faketime", "-f", f"{skew:+d}", sys.executable, "manage.py", "runserver",
                 f"127.0.0.1:{port}", "--noreload"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # faketime runs the server as its child
            ))
            urls.append(f"http://127.0.0.1:{port}")
        for url, process in zip(urls, processes):
            def serving(url=url, process=process) -> bool:
                assert process.poll() is None, (tmp_path / "server-4.log").read_text()
                try:
                    _status(url + "/health/")
                except OSError:
                    return False
                return True

            wait_until(serving, seconds=60, every=0.2, explain=f"{url} did not start")
        return urls[0], urls[1]

    yield start
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_two_servers_with_skewed_clocks_agree_at_midnight(
    skewed_servers, tmp_path, make_deal, bare_api
):
    midnight = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=MIDNIGHT_AFTER_SECONDS)).replace(
        microsecond=0)
    zone = _zone_with_midnight_at(midnight, tmp_path)
    day = (midnight - dt.timedelta(seconds=1)).astimezone(zone).date()
    make_deal("cruel", day)
    behind, ahead = skewed_servers(tmp_path)

    # A ranked attempt on the day, started on the server that is behind.
    player = bare_api()
    player.base_url = behind
    assert player.get("/api/v1/me").status == 200  # the guest and its CSRF cookie
    attempt = player.start("cruel")
    assert attempt["ranked"] is True, attempt

    solution = f"/api/v1/daily/{day.isoformat()}/cruel/solution"
    public_since: dict[str, float] = {}
    midnight_at = time.time() + (midnight - dt.datetime.now(dt.UTC)).total_seconds()
    assert midnight_at - time.time() > SKEW_SECONDS + 1, "the servers took too long to start"
    while time.time() < midnight_at + SKEW_SECONDS + 2:
        for url in (behind, ahead):
            if url not in public_since and _status(url + solution) == 200:
                public_since[url] = time.time()
        time.sleep(0.1)

    # Both published it at midnight by the database's clock (the same
    # machine's real clock here), not 8 s apart.
    assert set(public_since) == {behind, ahead}
    for url, since in public_since.items():
        assert abs(since - midnight_at) < 1.5, (url, since - midnight_at)
    # And the server that is behind takes no more ranked moves.
    legal = attempt["legal"][0]
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": f"{legal['card']}>{legal['targets'][0]}", "version": 0})
    assert (reply.status, reply.error_code) == (409, "day_over"), reply.body
