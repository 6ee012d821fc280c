"""Sketches of the move endpoint as a plain Django view, for
``request_cpu.py --plain-view`` only: the service's URLs plus these,
so that DRF's ``MoveView`` and the sketches take the same guest's moves
side by side. The first two answer a legal move as the service does (the
same services, the same answer); none is the service, and none answers an
error in its shape.

- ``plain-drf-parts``: no ``APIView``, but DRF's own authenticators (token,
  then session with its CSRF check), the API's JSON parser and its rates,
  called in the order ``APIView`` calls them; what it leaves out is DRF's
  dispatch around them: content negotiation, the ``Response`` and its
  rendering, ``finalize_response``.
- ``plain-django``: Django's middleware alone decides (the session's user,
  the CSRF middleware); the user's rate, ``MoveIn`` and ``json``. No token
  authentication: a token client would need a copy of DRF's rule that
  exempts it from CSRF, which is why this one is the ceiling, not a design.
- ``bare``: what no move can do without: Django's middleware decides (the
  session's user, CSRF), then the attempt read, the engine's step and the
  conditional write (``move_apply``); no rate, no validation beyond
  ``json``, and an answer of the new version alone: the floor under any
  design that keeps sessions, CSRF and a committed write. ``bare-with-``
  one piece of the service (``rates``, ``movein``: the body validated by
  ``MoveIn``, ``answer``: the service's answer) shows what that piece
  costs a move.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from api import clock
from api.play.attempts import services as attempts
from api.play.rest import answers, throttles
from api.play.rest import inputs as s
from api.play.rest.auth import user_or_guest
from api.play.rest.views import _valid
from api.urls import handler400, handler403, handler404, handler500  # noqa: F401
from api.urls import urlpatterns as service_urls


def _answer(user, attempt_id: int, data: dict) -> HttpResponse:
    state, replayed = attempts.move_apply(
        user=user, attempt_id=attempt_id, move=data["move"], version=data["version"],
        now=clock.now())
    body = answers.attempt_out(state, clock.now(), replayed=replayed)
    return HttpResponse(json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                        content_type="application/json")


def _rates(request) -> None:
    for throttle in (throttles.PlayAnonThrottle(), throttles.PlayUserThrottle()):
        if not throttle.allow_request(request, None):
            raise exceptions.Throttled(throttle.wait())


@csrf_exempt  # DRF's SessionAuthentication checks CSRF, as under APIView
def plain_drf_parts(request, attempt_id: int) -> HttpResponse:
    drf = Request(request, parsers=[p() for p in api_settings.DEFAULT_PARSER_CLASSES],
                  authenticators=[a() for a in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
    drf.user  # noqa: B018 (authenticates: token, else session and CSRF)
    _rates(drf)
    data = _valid(s.MoveIn, drf.data)
    return _answer(user_or_guest(drf), attempt_id, data)


def plain_django(request, attempt_id: int) -> HttpResponse:
    _rates(request)
    data = _valid(s.MoveIn, json.loads(request.body))
    return _answer(request.user, attempt_id, data)


def bare(request, attempt_id: int, piece: str = "") -> HttpResponse:
    if piece == "rates":
        _rates(request)
    data = json.loads(request.body)
    if piece == "movein":
        data = _valid(s.MoveIn, data)
    if piece == "answer":
        return _answer(request.user, attempt_id, data)
    state, _ = attempts.move_apply(user=request.user, attempt_id=attempt_id, move=data["move"],
                                   version=data["version"], now=clock.now())
    return HttpResponse(f'{{"id":{state.id},"version":{state.version}}}',
                        content_type="application/json")


urlpatterns = [
    path("bench/plain-drf-parts/attempts/<int:attempt_id>/moves", plain_drf_parts),
    path("bench/plain-django/attempts/<int:attempt_id>/moves", plain_django),
    path("bench/bare/attempts/<int:attempt_id>/moves", bare),
    *(path(f"bench/bare-with-{piece}/attempts/<int:attempt_id>/moves", bare, {"piece": piece})
      for piece in ("rates", "movein", "answer")),
    *service_urls,
]
