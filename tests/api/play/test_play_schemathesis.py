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
# Every check: the answers above, and that the schema is as strict as the
# API (valid data accepted, invalid data refused).
CHECKS = "all"
EXAMPLES_PER_OPERATION = 12
# schemathesis.toml for the run. Some refusals of schema-valid data depend on
# what no schema can say, so those statuses are expected answers there:
# credentials of the right shape may be wrong (400 bad_credentials); a new
# password may fail Django's password checks (400); a display name may hold
# an invisible character or look like another player's or a guest's (400,
# 409); a move's text is read by the engine's lenient parser and may be
# illegal in the attempt's position (400 invalid_move, 422 illegal_move); a
# league's name is cleaned as a display name is (400); a retry's move number
# must be within the attempt's line (400).
# Logging out revokes the run's token, which would leave every later
# operation a 401: it is tested in test_play_sessions_and_tokens.
SCHEMATHESIS_CONFIG = """
[[operations]]
include-path = ["/api/v1/auth/login", "/api/v1/auth/token", "/api/v1/auth/register", "/api/v1/me",
                "/api/v1/leagues", "/api/v1/attempts/{attempt_id}/retry"]
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]

[[operations]]
include-path = "/api/v1/attempts/{attempt_id}/moves"
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "422", "429", "5xx",
]

[[operations]]
include-path = "/api/v1/auth/logout"
enabled = false
"""


@pytest.fixture
def populated(alice, make_deal, today, settings):
    """Deals today and yesterday, and attempts of alice's on both, so the
    generated requests meet real answers, not only 404s."""
    settings.PLAY_HINT_MAX_SECONDS = 0.2
    yesterday = today - dt.timedelta(days=1)
    deals = {(g, d): make_deal(g, d) for g in ("cruel", "flower") for d in (today, yesterday)}
    return Token.objects.create(user=alice).key, deals


# The schema and the answers' shapes are the same on every database engine.
@pytest.mark.any_database
def test_every_answer_matches_the_schema(live_server, populated, as_alice, tmp_path):
    token, deals = populated
    for (game, date) in deals:
        as_alice.start(game, date.isoformat())
    assert Attempt.objects.filter(player__username="alice").count() == 4

    (tmp_path / "schemathesis.toml").write_text(SCHEMATHESIS_CONFIG)
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
