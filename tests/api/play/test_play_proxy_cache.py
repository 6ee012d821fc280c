"""deploy/nginx/default.conf run by a real nginx in front of the live server:
a rush on the day's document reaches Django once, every answer the same
bytes; leaderboards kept for seconds for nobody in particular only."""

from __future__ import annotations

import shutil
import socket
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from prometheus_client import REGISTRY
from test_play_daily_document import fetch
from waiting import wait_until

from api import clock

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CONF = Path(__file__).resolve().parents[3] / "deploy" / "nginx" / "default.conf"

pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="needs nginx (apt-get install nginx)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def proxy(live_server, tmp_path):
    """The repository's server block, pointed at the live server, on a port of its own."""
    upstream = urlsplit(live_server.url)
    port = _free_port()
    conf = CONF.read_text()
    for compose_only, here in (
            ("resolver 127.0.0.11 valid=5s ipv6=off;", ""),
            ("set $web http://web:8000;", f"set $web http://127.0.0.1:{upstream.port};"),
            ("listen 80 default_server;", f"listen 127.0.0.1:{port};"),
            ("/var/cache/nginx/public", str(tmp_path / "cache"))):
        assert compose_only in conf
        conf = conf.replace(compose_only, here)
    (tmp_path / "default.conf").write_text(conf)
    (tmp_path / "nginx.conf").write_text(f"""
user root;
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    include {tmp_path}/default.conf;
}}
""")
    nginx = subprocess.Popen([NGINX, "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                             stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    def listening():
        assert nginx.poll() is None, nginx.stderr.read().decode()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    wait_until(listening, seconds=30, explain="nginx did not start")
    yield base
    nginx.terminate()
    nginx.wait(timeout=30)


def django_answers(view: str, status: str = "200") -> float:
    return REGISTRY.get_sample_value("solitaire_http_request_duration_seconds_count",
                                     {"view": view, "method": "GET", "status": status}) or 0.0


def test_a_rush_on_the_days_document_reaches_django_once(proxy, tmp_path, make_deal, at, today, settings):
    settings.DAILY_DOCUMENT_PROXY_SECONDS = 600  # the rush outlasts no copy on a slow machine
    for game in ("cruel", "flower"):
        make_deal(game, today)
    at(clock.day_start(today) + (clock.day_end(today) - clock.day_start(today)) / 2)
    url = f"{proxy}/api/v1/daily/{today.isoformat()}"
    before = django_answers("play:daily-day")
    with ThreadPoolExecutor(max_workers=32) as pool:
        # Half of them with a session cookie, none of them valid.
        answers = list(pool.map(
            lambda i: fetch(url, **({"Cookie": f"sessionid=stale{i:04}"} if i % 2 else {})),
            range(200)))
    assert {status for status, _h, _b in answers} == {200}
    assert len({body for _s, _h, body in answers}) == 1  # byte-identical
    print("DBG", [(i, h["X-Cache-Status"], h.get("Set-Cookie"), h.get("Cache-Control")) for i, (_s, h, _b) in enumerate(answers) if h["X-Cache-Status"] != "HIT"])
    print("DBG", open(str(Path(tmp_path) / "error.log")).read()[-2000:])
    assert django_answers("play:daily-day") - before == 1
    # A browser asking again with its ETag gets 304 from nginx's copy.
    etag = answers[0][1]["ETag"]
    status, headers, _body = fetch(url, **{"If-None-Match": etag})
    assert status == 304 and headers["X-Cache-Status"] == "HIT"
    assert django_answers("play:daily-day") - before == 1
    # nginx keeps its lifetime to itself.
    assert "X-Accel-Expires" not in headers


def test_a_future_day_is_never_kept(proxy, make_deal, todays_deals, today):
    import datetime as dt

    tomorrow = today + dt.timedelta(days=1)
    for game in ("cruel", "flower"):
        make_deal(game, tomorrow)
    before = django_answers("play:daily-day", "404")
    for _ in range(3):
        status, headers, _body = fetch(f"{proxy}/api/v1/daily/{tomorrow.isoformat()}")
        assert status == 404 and headers["X-Cache-Status"] == "MISS"
    assert django_answers("play:daily-day", "404") - before == 3


def test_leaderboards_are_kept_seconds_for_nobody_in_particular_only(proxy, api, todays_deals, today):
    path = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    first = fetch(proxy + path)
    second = fetch(proxy + path)
    assert first[1]["X-Cache-Status"] == "MISS" and second[1]["X-Cache-Status"] == "HIT"
    assert second[2] == first[2] and b'"me":null' in second[2]

    player = api()
    attempt = player.start("cruel")
    first_move = attempt["legal"][0]
    player.move(attempt, f"{first_move['card']}>{first_move['targets'][0]}")
    cookie = "; ".join(f"{c.name}={c.value}" for c in player.cookies)
    for _ in range(2):
        status, headers, body = fetch(proxy + path, Cookie=cookie)
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS"
        assert b'"me":{' in body  # their own rank, never from a copy
    assert fetch(proxy + path, Authorization="Token x")[1]["X-Cache-Status"] == "BYPASS"
