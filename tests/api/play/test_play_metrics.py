"""GET /metrics: Prometheus text with request latency per endpoint, moves,
hints and deal verifications (api.metrics)."""

import datetime as dt
import re
import urllib.request

import pytest


def scrape(live_server) -> str:
    with urllib.request.urlopen(live_server.url + "/metrics") as reply:
        assert reply.status == 200
        assert reply.headers["Content-Type"].startswith("text/plain")
        return reply.read().decode()


def value(text: str, name: str, **labels) -> float:
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


@pytest.mark.django_db(transaction=True)
def test_moves_requests_and_hints_are_counted(api, todays_deals, certificate_of, live_server,
                                              make_deal, today):
    before = scrape(live_server)
    player = api()
    attempt = player.start("cruel")
    moves = certificate_of("cruel")[1].split()[:3]
    for move in moves:
        attempt = player.move(attempt, move)
    assert player.post(f"/api/v1/attempts/{attempt['id']}/finish").status == 200
    past = today - dt.timedelta(days=3)  # hints are for deals whose day is over
    make_deal("cruel", past)
    practice = player.start("cruel", past.isoformat())
    for _ in range(2):  # the solver, then the attempt's hint line
        assert player.hint(practice["id"]).status == 200
    after = scrape(live_server)

    def grew(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("solitaire_moves_total", game="cruel") == len(moves)
    assert grew("solitaire_http_request_duration_seconds_count",
                view="play:attempt-moves", method="POST", status="200") == len(moves)
    assert grew("solitaire_hints_total", game="cruel", source="solver") == 1
    assert grew("solitaire_hints_total", game="cruel", source="line") == 1
    assert grew("solitaire_solver_seconds_count", game="cruel", kind="hint") == 1
    assert re.search(r'solitaire_http_request_duration_seconds_bucket\{.*le="0.1".*\}', after)


def test_served_by_names_the_answering_host_only_when_asked(api, settings):
    import socket

    assert "X-Served-By" not in api().get("/api/v1/nothing-here").headers
    settings.SERVED_BY_HEADER = True
    reply = api().get("/api/v1/nothing-here")
    assert reply.status == 404 and reply.headers["X-Served-By"] == socket.gethostname()
