"""GET /api/v1/daily/{date}: the day's public document, the same bytes for
everyone, cacheable until (never past) the day's turn; and leaderboards
public only when asked by nobody in particular."""

import datetime as dt
import re
import urllib.error
import urllib.request

import pytest

from api import clock


def fetch(url: str, **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": "en", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def max_age(headers: dict) -> int:
    found = re.fullmatch(r"public, max-age=(\d+)", headers["Cache-Control"])
    assert found, headers["Cache-Control"]
    return int(found.group(1))


def test_the_days_document_is_public_cacheable_and_the_same_for_everyone(
        api, live_server, todays_deals, today, settings):
    player = api()
    player.start("cruel")
    url = f"{live_server.url}/api/v1/daily/{today.isoformat()}"
    seconds_left = (clock.day_end(today) - clock.now()).total_seconds()  # at most, when answered
    status, headers, body = fetch(url)
    assert status == 200
    assert headers["Content-Type"] == "application/json"
    assert "Set-Cookie" not in headers
    assert 0 <= max_age(headers) <= seconds_left - settings.DAILY_DOCUMENT_PROXY_SECONDS
    assert int(headers["X-Accel-Expires"]) == settings.DAILY_DOCUMENT_PROXY_SECONDS
    assert re.fullmatch(r'"[0-9a-f]{32}"', headers["ETag"])

    # A player with an attempt, signed in by session or by token, gets the same bytes.
    cookie = "; ".join(f"{c.name}={c.value}" for c in player.cookies)
    assert fetch(url, Cookie=cookie)[2] == body
    # Even a stale session's cookie is left alone: no cookie rides on a public answer.
    stale = fetch(url, Cookie="sessionid=stale-session-key-0123456789")
    assert stale[2] == body and "Set-Cookie" not in stale[1]
    assert fetch(url, **{"Accept-Language": "pt-PT"})[2] == body
    document = player.get(f"/api/v1/daily/{today.isoformat()}").body
    assert document["date"] == today.isoformat() and document["time_zone"] == "Europe/Lisbon"
    assert dt.datetime.fromisoformat(document["next_day_starts_at"]) == clock.day_end(today)
    assert [deal["game"] for deal in document["deals"]] == ["cruel", "flower"]
    for deal in document["deals"]:
        assert "my_attempts" not in deal and "position" not in deal and "solution" not in deal
        assert deal["ready"] is True and deal["day_over"] is False

    # The personal part stays where it was: /api/v1/daily, never cached.
    personal = player.get("/api/v1/daily")
    assert personal.headers["Cache-Control"] == "no-store"
    assert len({d["game"]: d for d in personal.body["deals"]}["cruel"]["my_attempts"]) == 1


def test_the_documents_etag_answers_304_with_the_same_headers(live_server, todays_deals, today):
    url = f"{live_server.url}/api/v1/daily/{today.isoformat()}"
    _status, headers, _body = fetch(url)
    status, again, body = fetch(url, **{"If-None-Match": headers["ETag"]})
    assert status == 304 and body == b""
    assert again["ETag"] == headers["ETag"] and again["Cache-Control"].startswith("public")
    assert fetch(url, **{"If-None-Match": '"something-else"'})[0] == 200


def test_a_day_not_begun_or_without_a_verified_deal_is_404_and_never_cached(
        api, live_server, make_deal, todays_deals, today):
    tomorrow = today + dt.timedelta(days=1)
    make_deal("cruel", tomorrow)
    make_deal("flower", tomorrow)
    status, headers, _body = fetch(f"{live_server.url}/api/v1/daily/{tomorrow.isoformat()}")
    assert status == 404 and headers["Cache-Control"] == "no-store"
    assert "X-Accel-Expires" not in headers and "ETag" not in headers
    assert api().get(f"/api/v1/daily/{tomorrow.isoformat()}").error_code == "future_date"
    assert api().get("/api/v1/daily/2001-01-01").error_code == "deal_not_ready"
    assert api().get("/api/v1/daily/01-01-2001").error_code == "bad_date"


@pytest.mark.parametrize("before_the_turn", [3600, 11, 10, 4, 1])
def test_no_copy_outlives_the_days_turn(live_server, make_deal, at, today, before_the_turn):
    """Near midnight in Lisbon: the proxy keeps it at most until the turn,
    and a browser given the proxy's oldest copy keeps it no longer either."""
    for game in ("cruel", "flower"):
        make_deal(game, today)
    turn = clock.day_end(today)
    at(turn - dt.timedelta(seconds=before_the_turn, microseconds=300_000))
    _status, headers, body = fetch(f"{live_server.url}/api/v1/daily/{today.isoformat()}")
    proxy = int(headers["X-Accel-Expires"])
    assert proxy <= before_the_turn
    # The proxy's copy, handed out at the end of its life, then kept by a browser.
    assert proxy + max_age(headers) <= before_the_turn
    assert b'"solution"' not in body

    # From the turn on, the same date's document says the day is over.
    at(turn)
    _status, after, body = fetch(f"{live_server.url}/api/v1/daily/{today.isoformat()}")
    assert b'"day_over":true' in body and after["ETag"] != headers["ETag"]


def test_a_leaderboard_is_public_only_when_asked_by_nobody_in_particular(
        api, live_server, todays_deals, today):
    path = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    status, headers, body = fetch(live_server.url + path)
    assert status == 200 and headers["Cache-Control"] == "public, max-age=5"
    assert b'"me":null' in body and "Set-Cookie" not in headers

    player = api()
    player.start("cruel")
    assert player.get(path).headers["Cache-Control"] == "no-store"  # a guest's session
    token = api().post("/api/v1/auth/token", {"username": "nobody", "password": "x"})
    assert token.status in (400, 401)
    assert fetch(live_server.url + path, Authorization="Token abc")[1]["Cache-Control"] == "no-store"
