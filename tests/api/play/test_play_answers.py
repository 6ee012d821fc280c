"""The schema cannot drift from the answers: every answer is built by an
Output (api.play.rest.shapes: its JSON holds its declared fields and nothing
else, tests/api/play/test_play_shapes.py), the Output that builds an
operation's answer is the one the schema documents for it, and each answer
of a session holds to that schema: every key documented, every required
one there, every value of its type."""

from __future__ import annotations

import datetime as dt
import json
import re

import jsonschema
import pytest
from certified_deals import known_loss
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from api import clock
from api.play.attempts import post_mortem, services
from api.play.rest.answers import AttemptOut
from api.play.rest.shapes import Output


@pytest.fixture
def built(monkeypatch):
    """(route, method, status, Output class or None, body) of every DRF
    answer given from now on; None: the answer was not built by an Output."""
    outputs: dict[int, tuple[type, dict]] = {}
    answers: list[tuple[str, str, int, type | None, dict]] = []
    build = Output.build.__func__

    def recorded_build(cls, value, **context):
        answer = build(cls, value, **context)
        outputs[id(answer)] = (cls, answer)  # the answer kept: its id is not reused
        return answer

    finalize = APIView.finalize_response

    def recorded_finalize(self, request, response, *args, **kwargs):
        route = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", request.resolver_match.route)
        data = getattr(response, "data", None)
        if data is not None:
            found = outputs.get(id(data))
            cls = found[0] if found and found[1] is data else None
            answers.append((route, request.method.lower(), response.status_code, cls,
                            json.loads(json.dumps(data, cls=JSONEncoder))))
        elif response.get("Content-Type", "").startswith("application/json") and response.content:
            # Rendered ahead (a cacheable answer, api.play.rest.caching): the
            # Output whose rendering is exactly this body built it.
            body = json.loads(response.content)
            cls = next((c for c, answer in reversed(outputs.values())
                        if json.loads(json.dumps(answer, cls=JSONEncoder)) == body), None)
            answers.append((route, request.method.lower(), response.status_code, cls, body))
        return finalize(self, request, response, *args, **kwargs)

    monkeypatch.setattr(Output, "build", classmethod(recorded_build))
    monkeypatch.setattr(APIView, "finalize_response", recorded_finalize)
    return answers


def _tour(api, login, alice, bob, make_deal, today, password):
    """A session that meets every operation's success and some errors."""
    yesterday = today - dt.timedelta(days=1)
    for game in ("cruel", "flower"):
        make_deal(game, today)
        past = make_deal(game, yesterday)
    guest, me, them = api(), login(api, alice), login(api, bob)
    me.patch("/api/v1/me", {"display_name": "Alicia"})
    me.get("/api/v1/daily")
    guest.get(f"/api/v1/daily/{today.isoformat()}")
    attempt = me.post("/api/v1/attempts", {"game": "cruel"}).body
    me.get(f"/api/v1/attempts/{attempt['id']}")
    legal = attempt["legal"][0]
    moved = me.move(attempt, f"{legal['card']}>{legal['targets'][0]}")
    me.post(f"/api/v1/attempts/{attempt['id']}/moves", {"move": "AS>F", "version": 0})  # 409
    me.post(f"/api/v1/attempts/{attempt['id']}/undo", {"version": moved["version"]})
    me.hint(attempt["id"])  # 403
    me.post(f"/api/v1/attempts/{attempt['id']}/finish")
    line, _k = known_loss(past.position, past.certificate)
    practice = me.post("/api/v1/attempts", {"game": "flower", "date": yesterday.isoformat()}).body
    practice = me.post(f"/api/v1/attempts/{practice['id']}/moves",
                       {"moves": line[:3], "version": practice["version"]}).body
    me.hint(practice["id"])
    me.post(f"/api/v1/attempts/{practice['id']}/finish")
    services.attempt_analyse(attempt_id=practice["id"], now=clock.now())
    me.get(f"/api/v1/attempts/{practice['id']}/analysis?steps=true")
    retried = me.post(f"/api/v1/attempts/{practice['id']}/retry", {"move_number": 2}).body
    me.any_move(retried)
    me.get(f"/api/v1/attempts/{retried['id']}/first-move")
    me.get(f"/api/v1/attempts/{practice['id']}/log")
    me.get("/api/v1/attempts?game=flower")
    for path in (f"/api/v1/daily/{yesterday.isoformat()}/flower",
                 f"/api/v1/daily/{yesterday.isoformat()}/flower/solution"):
        me.get(path)
    post_mortem.post_mortem_compute(deal=past, now=clock.now())
    me.get(f"/api/v1/daily/{yesterday.isoformat()}/flower/post-mortem")
    me.get("/api/v1/history")
    me.get("/api/v1/calendar/cruel")
    me.get(f"/api/v1/calendar/cruel/{today.strftime('%Y-%m')}")
    guest.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}")
    league = me.post("/api/v1/leagues", {"name": "Friends"}).body
    guest.get(f"/api/v1/leagues/invites/{league['invite_code']}")
    them.post("/api/v1/leagues/join", {"code": league["invite_code"]})
    me.get("/api/v1/leagues")
    me.get(f"/api/v1/leagues/{league['id']}")
    me.post(f"/api/v1/leagues/{league['id']}/invite")
    me.get(f"/api/v1/leagues/{league['id']}/boards/cruel/{today.isoformat()}")
    them.get(f"/api/v1/leagues/places/{today.isoformat()}")
    them.post(f"/api/v1/leagues/{league['id']}/leave")
    me.request("DELETE", f"/api/v1/leagues/{league['id']}")
    me.request("PUT", "/api/v1/me/calendar-feed", {"reminder": "08:30"})
    me.get("/api/v1/me/calendar-feed")
    me.request("DELETE", "/api/v1/me/calendar-feed")
    me.post("/api/v1/auth/token", {"username": "alice", "password": password})
    me.get("/api/v1/me/data")
    me.get("/api/v1/attempts/999999")  # 404
    newcomer = api()
    newcomer.post("/api/v1/auth/register", {"username": "newbie", "password": password})
    newcomer.post("/api/v1/auth/logout")
    newcomer.post("/api/v1/auth/login", {"username": "newbie", "password": password})
    newcomer.request("DELETE", "/api/v1/me", {"password": password})


def test_every_answer_is_built_by_the_output_its_schema_documents(
        api, login, alice, bob, make_deal, today, password, built):
    schema = api().get("/api/v1/schema/?format=json").body
    built.clear()

    _tour(api, login, alice, bob, make_deal, today, password)

    strict = _strict(schema)
    answered = set()
    for route, method, status, cls, body in built:
        responses = schema["paths"][route][method]["responses"]
        assert str(status) in responses, (route, method, status)
        ref = responses[str(status)]["content"]["application/json"]["schema"]["$ref"]
        assert cls is not None, (route, method, status, "not built by an Output")
        assert ref == f"#/components/schemas/{cls.__name__}", (route, method, status, cls)
        strict.evolve(schema={**strict.schema, "$ref": ref}).validate(body)
        answered.add((route, method))
    with_bodies = {(path, method) for path, operations in schema["paths"].items()
                   for method, operation in operations.items()
                   if any(s.startswith("2") and s != "204" for s in operation["responses"])}
    assert with_bodies <= answered, with_bodies - answered


def _strict(schema) -> jsonschema.Draft202012Validator:
    """The schema's components as JSON Schema, strict: OpenAPI's ``nullable``
    as null allowed, and no property in an object that its schema does not
    name (drf-spectacular allows any)."""

    def convert(node):
        if isinstance(node, list):
            return [convert(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: convert(value) for key, value in node.items() if key != "nullable"}
        if "properties" in out:
            out.setdefault("additionalProperties", False)
        return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out

    return jsonschema.Draft202012Validator({"components": convert(schema["components"])})


def test_the_move_answer_is_built_by_attempt_out(api, todays_deals, built):
    player = api()
    attempt = player.start("cruel")
    legal = attempt["legal"][0]
    player.move(attempt, f"{legal['card']}>{legal['targets'][0]}")

    assert ("/api/v1/attempts/{attempt_id}/moves", "post", 200, AttemptOut) in [
        answer[:4] for answer in built]
