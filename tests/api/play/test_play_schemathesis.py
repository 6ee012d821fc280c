"""The OpenAPI schema tells the truth: schemathesis (`st run`) sends a few
hundred generated requests, valid and invalid, to every operation of a live
server and checks each answer: no 5xx, a documented status, the documented
content type and the documented shape."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from api.play.models import Attempt

ST = Path(sys.executable).with_name("st")
CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
])
EXAMPLES_PER_OPERATION = 12


@pytest.fixture
def populated(alice, make_deal, today, settings):
    """Deals today and yesterday, and attempts of alice's on both, so the
    generated requests meet real answers, not only 404s."""
    settings.PLAY_HINT_MAX_SECONDS = 0.2
    yesterday = today - dt.timedelta(days=1)
    deals = {(g, d): make_deal(g, d) for g in ("cruel", "flower") for d in (today, yesterday)}
    return Token.objects.create(user=alice).key, deals


def test_every_answer_matches_the_schema(live_server, populated, as_alice, tmp_path):
    token, deals = populated
    for (game, date) in deals:
        as_alice.start(game, date.isoformat())
    assert Attempt.objects.filter(player__username="alice").count() == 4

    run = subprocess.run(
        [
            str(ST), "run", f"{live_server.url}/api/v1/schema/",
            "--checks", CHECKS,
            "--max-examples", str(EXAMPLES_PER_OPERATION),
            "--seed", "21",
            "--workers", "1",
            "--phases", "examples,coverage,fuzzing",
            "--header", f"Authorization: Token {token}",
            "--header", "Accept-Language: en",
            "--request-timeout", "30",
            "--no-color",
        ],
        capture_output=True, text=True, timeout=540, cwd=tmp_path,
        env={**os.environ, "SCHEMATHESIS_TELEMETRY": "false"},
    )

    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "No issues found" in run.stdout or " passed" in run.stdout, report
