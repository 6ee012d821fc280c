"""Fixtures for the daily deals tests: fixed secrets and budgets, replay."""

from __future__ import annotations

import datetime as dt

import pytest

import solitaire
from api import celery_app

# A fixed date far from today, so the deals (and how long solving them takes)
# are the same on every run.
A_DATE = dt.date(2031, 5, 1)


@pytest.fixture(autouse=True)
def deal_settings(settings):
    settings.DEAL_SEED_SECRET = "tests-deal-seed-secret"
    settings.DAILY_TIME_ZONE = "Europe/Lisbon"
    settings.DEALS_DAYS_AHEAD = 7
    settings.DEAL_SOLVE_MAX_SECONDS = 3.0
    settings.DEAL_SOLVE_MAX_NODES = 2_000_000
    settings.DEAL_MAX_CANDIDATES = 40
    settings.DEAL_CLAIM_STALE_SECONDS = 600
    return settings


@pytest.fixture
def eager_celery():
    """Tasks run in this process, as on a laptop with no broker."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield celery_app
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def a_date() -> dt.date:
    return A_DATE


def _replay(position: str, certificate: str) -> solitaire.Board:
    board = solitaire.Board(solitaire.parse_position(position))
    for token in certificate.split():
        board.push(solitaire.Move.parse(token))
    return board


@pytest.fixture
def replay():
    """replay(position, certificate) -> the engine's Board after those moves."""
    return _replay
