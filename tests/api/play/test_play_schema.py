"""The schema describes what the API really takes and answers; dates and
query parameters are read strictly."""

from __future__ import annotations

import pytest

ISO_BUT_NOT_A_DAY = ["2026-W49-2", "20261201", "2026-W49", "2026-335", "2026-1-05"]


@pytest.mark.parametrize("text", ISO_BUT_NOT_A_DAY)
def test_a_date_in_a_path_is_strictly_yyyy_mm_dd(api, todays_deals, text):
    player = api()

    for path in (f"/api/v1/daily/{text}/cruel", f"/api/v1/daily/{text}/cruel/solution",
                 f"/api/v1/leaderboard/cruel/{text}"):
        reply = player.get(path)
        assert (reply.status, reply.error_code) == (400, "bad_date"), (path, reply.body)


@pytest.mark.parametrize("text", ISO_BUT_NOT_A_DAY)
def test_a_date_in_a_body_or_query_is_strictly_yyyy_mm_dd(api, todays_deals, text):
    player = api()

    reply = player.post("/api/v1/attempts", {"game": "cruel", "date": text})
    assert reply.status == 400 and "date" in reply.body["error"]["fields"], reply.body
    reply = player.get(f"/api/v1/attempts?date={text}")
    assert reply.status == 400 and "date" in reply.body["error"]["fields"], reply.body


@pytest.mark.parametrize("path", ["/api/v1/attempts?game=", "/api/v1/history?game=",
                                  "/api/v1/attempts?date="])
def test_an_empty_query_parameter_is_an_error_not_left_out(api, path):
    reply = api().get(path)

    assert reply.status == 400, reply.body
    assert reply.error_code == "bad_request"
    assert set(reply.body["error"]["fields"]) == {path.rsplit("?", 1)[1].rstrip("=")}


@pytest.fixture
def schema(api):
    reply = api().get("/api/v1/schema/?format=json")
    assert reply.status == 200
    return reply.body


def test_patch_me_declares_display_name_required(schema):
    body = schema["paths"]["/api/v1/me"]["patch"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]

    assert "display_name" in schema["components"]["schemas"][name]["required"]


def test_every_operation_documents_its_answer_and_its_errors_in_the_one_shape(schema):
    components = schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            successes = [s for s in responses if s.startswith("2")]
            assert successes, (method, path)
            for status in successes:
                if status != "204":
                    ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
                    assert components[ref.rsplit("/", 1)[1]]["properties"], (method, path)
            for status in ("403", "429", "503"):
                ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorOut"), (method, path, status)
            if "requestBody" in operation:
                assert "400" in responses, (method, path)
    assert set(components["ErrorDetailOut"]["required"]) == {"code", "message", "fields"}


def test_the_privacy_operations_and_the_registered_board_are_described(schema):
    components = schema["components"]["schemas"]
    delete = schema["paths"]["/api/v1/me"]["delete"]
    assert "204" in delete["responses"] and "400" in delete["responses"]
    body = delete["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(components[body]["properties"]) == {"password", "confirm"}
    data = schema["paths"]["/api/v1/me/data"]["get"]["responses"]["200"]
    shape = components[data["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert {"account", "attempts", "records", "sessions", "token"} <= set(shape["properties"])
    board = schema["paths"]["/api/v1/leaderboard/{game}/{date}"]["get"]
    registered = next(p for p in board["parameters"] if p["name"] == "registered")
    assert registered["in"] == "query" and registered["schema"]["type"] == "boolean"
    assert "registered" in components["LeaderboardOut"]["properties"]


def test_the_retry_and_the_days_figures_are_described(schema):
    components = schema["components"]["schemas"]
    retry = schema["paths"]["/api/v1/attempts/{attempt_id}/retry"]["post"]
    assert set(retry["responses"]) >= {"201", "400", "403", "404", "409"}
    body = retry["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert components[body]["required"] == ["move_number"]
    assert components[body]["properties"]["move_number"]["minimum"] == 1
    assert "cards_home" in components["LeaderboardOut"]["required"]
    assert set(components["TotalsOut"]["properties"]) == {"played", "won"}
    assert "totals" in components["HistoryOut"]["required"]


# Query values the schema does not describe: each a 400 naming its parameter.
MALFORMED_QUERIES = [
    ("/api/v1/attempts?page=false", "page"),
    ("/api/v1/attempts?page=", "page"),
    ("/api/v1/attempts?page=0", "page"),
    ("/api/v1/attempts?page=1.0", "page"),
    ("/api/v1/attempts?page=%201", "page"),
    ("/api/v1/attempts?page=01", "page"),
    ("/api/v1/attempts?page=1&page=2", "page"),
    ("/api/v1/attempts?page=false&page=&date=2000-01-01", "page"),
    ("/api/v1/attempts?game=cruel&game=flower", "game"),
    ("/api/v1/attempts?date=2026-12-01&date=2026-12-01", "date"),
    ("/api/v1/history?game=cruel&game=cruel", "game"),
    ("/api/v1/leaderboard/cruel/{today}?limit=7.0", "limit"),
    ("/api/v1/leaderboard/cruel/{today}?limit=", "limit"),
    ("/api/v1/leaderboard/cruel/{today}?limit=%2B7", "limit"),
    ("/api/v1/leaderboard/cruel/{today}?limit=101", "limit"),
    ("/api/v1/leaderboard/cruel/{today}?registered=", "registered"),
    ("/api/v1/leaderboard/cruel/{today}?registered=yes", "registered"),
    ("/api/v1/leaderboard/cruel/{today}?registered=1", "registered"),
    ("/api/v1/leaderboard/cruel/{today}?registered=True", "registered"),
    ("/api/v1/leaderboard/cruel/{today}?registered=true&registered=false", "registered"),
    ("/api/v1/attempts/1/analysis?steps=", "steps"),
    ("/api/v1/attempts/1/analysis?steps=0", "steps"),
    ("/api/v1/attempts/1/analysis?steps=true&steps=true", "steps"),
]


@pytest.mark.parametrize("path, field", MALFORMED_QUERIES)
def test_a_query_value_the_schema_does_not_describe_is_refused(api, today, path, field):
    reply = api().get(path.format(today=today.isoformat()))

    assert (reply.status, reply.error_code) == (400, "bad_request"), (path, reply.body)
    assert list(reply.body["error"]["fields"]) == [field], reply.body


def test_the_query_values_the_schema_describes_are_taken(api, todays_deals, today):
    player = api()
    player.start("cruel")

    assert player.get("/api/v1/attempts?page=1&game=cruel").body["count"] == 1
    assert player.get("/api/v1/attempts?page=2").error_code == "not_found"
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?limit=100&registered=true")
    assert (board.status, board.body["registered"]) == (200, True), board.body
    board = player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?registered=false&limit=1")
    assert (board.status, board.body["registered"]) == (200, False), board.body


def test_the_schema_says_how_the_page_is_written(schema):
    listing = schema["paths"]["/api/v1/attempts"]["get"]
    page = [p for p in listing["parameters"] if p["name"] == "page"]

    assert len(page) == 1 and page[0]["schema"] == {"type": "integer", "minimum": 1}, page
