"""Every message the API can send comes in the request's language, the
framework's own included (DRF's field checks, its authentication, paging,
parsing and throttling): the error paths swept in pt-PT and in English."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from rest_framework import fields, serializers

from api.play.rest import calendar_feed, framework_messages, inputs, leagues

# Words of the messages in one language that the other never uses.
ENGLISH = re.compile(
    r"\b(the|is|are|not|valid|must|this|field|required|may|expected|ensure|request|seconds?|"
    r"invalid|method|allowed|please|try|again|found|value|wrong|only|too|many|body|page|give|"
    r"once|provided|characters?|elements?|integer|boolean|string|list|null|blank)\b", re.I)
PORTUGUESE = re.compile(
    r"\b(não|é|campo|pedido|tente|segundos?|válid[oa]s?|obrigatório|encontrad[oa]|página|"
    r"este|esta|tem|pelo|menos|caracteres|vez|corpo|método|nulo|lista|inteiro)\b", re.I)


def _texts(reply) -> list[str]:
    error = reply.body["error"]
    texts = [error["message"]]
    for messages in error["fields"].values():
        texts.extend(messages if isinstance(messages, list) else [str(messages)])
    return texts


def _in_its_language(replies: dict) -> None:
    pt, en = _texts(replies["pt-PT"]), _texts(replies["en"])
    assert [t for t in pt if ENGLISH.search(t)] == [], pt
    assert [t for t in en if PORTUGUESE.search(t)] == [], en
    assert pt != en


# (what, method, path, body or raw bytes, headers, status, code)
CASES = [
    ("bad JSON", "POST", "/api/v1/attempts", b'{"game": ', {}, 400, "bad_request"),
    ("a body that is not an object", "POST", "/api/v1/attempts", [], {}, 400, "bad_request"),
    ("a wrong type of text", "PATCH", "/api/v1/me", {"display_name": 12}, {}, 400, "bad_request"),
    ("a wrong type of number", "POST", "/api/v1/attempts/1/moves", {"move": "R", "version": "7"},
     {}, 400, "bad_request"),
    ("a wrong type of boolean", "DELETE", "/api/v1/me", {"confirm": "yes"}, {}, 400, "bad_request"),
    ("a missing field", "POST", "/api/v1/auth/login", {}, {}, 400, "bad_request"),
    ("a null", "POST", "/api/v1/auth/login", {"username": None, "password": "x"}, {}, 400,
     "bad_request"),
    ("a blank", "PATCH", "/api/v1/me", {"display_name": ""}, {}, 400, "bad_request"),
    ("too long", "PATCH", "/api/v1/me", {"display_name": "x" * 41}, {}, 400, "bad_request"),
    ("too small", "POST", "/api/v1/attempts/1/retry", {"move_number": 0}, {}, 400, "bad_request"),
    ("an empty list", "POST", "/api/v1/attempts/1/moves", {"moves": [], "version": 0}, {}, 400,
     "bad_request"),
    ("not a list", "POST", "/api/v1/attempts/1/moves", {"moves": "R", "version": 0}, {}, 400,
     "bad_request"),
    ("a long list", "POST", "/api/v1/attempts/1/moves", {"moves": ["R"] * 53, "version": 0}, {},
     400, "bad_request"),
    ("a pattern", "POST", "/api/v1/auth/register", {"username": "a b", "password": "x"}, {}, 400,
     "bad_request"),
    ("an unknown choice", "POST", "/api/v1/attempts", {"game": "poker"}, {}, 400, "bad_request"),
    ("a bad date in a body", "POST", "/api/v1/attempts", {"game": "cruel", "date": "2026-1-5"}, {},
     400, "bad_request"),
    ("a bad query", "GET", "/api/v1/attempts?page=x", None, {}, 400, "bad_request"),
    ("a query over its bound", "GET", "/api/v1/leaderboard/cruel/2026-12-01?limit=101", None, {},
     400, "bad_request"),
    ("a repeated query", "GET", "/api/v1/history?game=cruel&game=cruel", None, {}, 400,
     "bad_request"),
    ("a bad date in a path", "GET", "/api/v1/daily/2026-13-01/cruel", None, {}, 400, "bad_date"),
    ("a bad month in a path", "GET", "/api/v1/calendar/cruel/2026-13", None, {}, 400, "bad_month"),
    ("an unknown attempt", "GET", "/api/v1/attempts/999999", None, {}, 404, "not_found"),
    ("a page past the last", "GET", "/api/v1/attempts?page=9", None, {}, 404, "not_found"),
    ("an unknown path", "GET", "/api/v1/nowhere", None, {}, 404, "not_found"),
    ("an unknown path, posted", "POST", "/api/nowhere", {}, {}, 404, "not_found"),
    ("an id that is not a number", "GET", "/api/v1/attempts/null,null", None, {}, 404,
     "not_found"),
    ("an unknown game", "GET", "/api/v1/calendar/poker", None, {}, 404, "unknown_game"),
    ("a wrong method", "DELETE", "/api/v1/daily", None, {}, 405, "method_not_allowed"),
    ("a body that is not JSON", "POST", "/api/v1/attempts", b"game=cruel",
     {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    ("an answer that cannot be JSON", "GET", "/api/v1/me", None, {"Accept": "text/html"}, 406,
     "not_acceptable"),
    ("a bad token", "GET", "/api/v1/me", None, {"Authorization": "Token nope"}, 401,
     "not_authenticated"),
    ("a token header with spaces", "GET", "/api/v1/me", None, {"Authorization": "Token a b"}, 401,
     "not_authenticated"),
    ("a token header without a token", "GET", "/api/v1/me", None, {"Authorization": "Token"}, 401,
     "not_authenticated"),
    ("wrong credentials", "POST", "/api/v1/auth/login", {"username": "nobody", "password": "x"},
     {}, 400, "bad_credentials"),
]


@pytest.mark.parametrize("what, method, path, body, headers, status, code", CASES,
                         ids=[case[0] for case in CASES])
def test_each_error_path_answers_in_the_request_s_language(
        api, what, method, path, body, headers, status, code):
    replies = {}
    for language in ("pt-PT", "en"):
        client = api(language=language)
        raw = body if isinstance(body, bytes) else None
        reply = client.request(method, path, None if raw is not None else body, raw=raw,
                               headers=headers)
        assert (reply.status, reply.error_code) == (status, code), (language, reply.body)
        replies[language] = reply

    _in_its_language(replies)


def test_a_throttled_request_says_how_long_to_wait_in_the_request_s_language(api, rates):
    rates(login_address="1/min")
    pt, en = api(language="pt-PT"), api(language="en")
    credentials = {"username": "nobody", "password": "x"}
    assert pt.post("/api/v1/auth/login", credentials).error_code == "bad_credentials"

    replies = {"pt-PT": pt.post("/api/v1/auth/login", credentials),
               "en": en.post("/api/v1/auth/login", credentials)}

    for reply in replies.values():
        assert (reply.status, reply.error_code) == (429, "throttled"), reply.body
        wait = int(reply.headers["Retry-After"])
        assert 0 < wait <= 60 and str(wait) in reply.body["error"]["message"], reply.body
    _in_its_language(replies)
    assert "Tente outra vez daqui a" in replies["pt-PT"].body["error"]["message"]


def _input_classes():
    found, todo = [], [inputs.Input]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    assert {leagues.LeagueIn, calendar_feed.FeedIn} <= set(found)
    return found


def _field_messages(field) -> set[str]:
    messages = set(field.error_messages.values())
    if isinstance(field, serializers.ListField):
        messages |= _field_messages(field.child)
    return messages


def _drf_messages() -> set[str]:
    found = set()
    for module in (fields, serializers):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, fields.Field):
                found |= {str(m) for m in value.default_error_messages.values()}
    return found


def test_every_framework_message_our_inputs_can_send_is_ours_in_pt_pt():
    """A DRF message our inputs can send that our catalog does not carry
    would come in DRF's Brazilian wording, or in English."""
    with translation.override("en"):
        sent = set()
        for cls in _input_classes():
            serializer = cls()
            sent |= {str(m) for m in serializer.error_messages.values()}
            for field in serializer.fields.values():
                sent |= {str(m) for m in _field_messages(field)}
        drf = _drf_messages()

    assert sent & drf <= set(framework_messages.FIELD_MESSAGES)
    with translation.override("pt-pt"):
        assert {m for m in sent if translation.gettext(m) == m} == set()


def test_an_api_path_that_names_nothing_is_json_with_debug_on_too(api, settings):
    client = api()
    settings.DEBUG = True  # Django's own 404 is then a page

    for method in ("GET", "POST", "DELETE"):
        reply = client.request(method, "/api/v1/leagues/null,null")
        assert (reply.status, reply.error_code) == (404, "not_found"), (method, reply.body)
