"""The attempt domain on plain values (no database, no HTTP): the version
protocol, finish, the pace mark and the start rule, checked on random lines."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

import solitaire
from api.errors import AttemptFinished, AttemptLimit, RankedOpen
from api.play import domain
from api.play.attempts import store
from api.play.models import Attempt

START = dt.datetime(2026, 12, 2, 12, tzinfo=dt.timezone.utc)
RULES = domain.Rules(max_actions=3000, stall_nodes=2000, max_attempts=5, pace_ms=150, pace_run=3)


def _state(game="flower", seed=7, ranked=True) -> domain.AttemptState:
    position = solitaire.deal(game, seed=seed)
    return domain.AttemptState(
        id=1, player_id=1, deal_id=1, game=game, date=START.date(),
        day_ends_at=START + dt.timedelta(hours=12), ranked=ranked, status=domain.PLAYING,
        version=0, start_position=position.notation(), position=position.notation(), line="",
        cards_home=position.cards_home(), redeals=0, undos=0, moves=0, elapsed_ms=0,
        started_at=START, last_action_at=START, ended_at=None, last_action="")


def test_the_state_carries_every_column_of_the_attempt_row():
    columns = {field.attname for field in Attempt._meta.concrete_fields}
    assert set(store.ROW_FIELDS) == columns


@hsettings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=25), st.data())
def test_each_action_moves_the_version_by_one_and_finish_ends_it(choices, data):
    state, log = _state(), []
    now = START
    for choice in choices:
        now += dt.timedelta(seconds=1)
        legal = state.parsed_position.legal_moves()
        if choice % 4 == 0 and state.line:
            change = domain.undo(state, now=now, rules=RULES)
        elif legal:
            change = domain.play(state, [legal[choice % len(legal)]], now=now, rules=RULES)
        else:
            break
        assert change.from_version == state.version
        assert [a.number for a in change.actions] == [state.version + 1]
        state = change.state
        log += change.actions
        if state.finished:  # won
            break
    assert domain.log_matches(state, log)
    finished = domain.finish(state, now=now + dt.timedelta(minutes=9))
    if state.finished:
        assert finished is None
        return
    assert finished.state.version == state.version + 1 and finished.state.finished
    # The record stays exactly as it stood: counters and time.
    record = ("cards_home", "redeals", "undos", "moves", "elapsed_ms")
    assert [getattr(finished.state, f) for f in record] == [getattr(state, f) for f in record]
    assert domain.log_matches(finished.state, log + list(finished.actions))
    assert domain.finish(finished.state, now=now) is None
    with pytest.raises(AttemptFinished):
        domain.undo(finished.state, now=now, rules=RULES)
    legal = finished.state.parsed_position.legal_moves()
    if legal:
        with pytest.raises(AttemptFinished):
            domain.play(finished.state, [legal[0]], now=now, rules=RULES)


def test_a_run_of_fast_requests_marks_machine_pace_for_good():
    state, now = _state(), START
    for step_ms in (100, 100, 100, 2000, 2000):
        now += dt.timedelta(milliseconds=step_ms)
        move = state.parsed_position.legal_moves()[0]
        state = domain.play(state, [move], now=now, rules=RULES).state
    assert state.machine_pace is True and state.fast_run == 0


def test_slower_requests_reset_the_run():
    state, now = _state(), START
    for step_ms in (100, 100, 200, 100, 100, 200):
        now += dt.timedelta(milliseconds=step_ms)
        state = domain.play(state, [state.parsed_position.legal_moves()[0]], now=now,
                            rules=RULES).state
    assert state.machine_pace is False


@pytest.mark.parametrize("mine, today, expected", [
    (domain.MyAttempts(total=0, ranked=0, ranked_open=0), True, True),
    (domain.MyAttempts(total=1, ranked=1, ranked_open=0), True, False),
    (domain.MyAttempts(total=0, ranked=0, ranked_open=0), False, False),
    (domain.MyAttempts(total=1, ranked=1, ranked_open=1), False, False),
])
def test_the_start_rule(mine, today, expected):
    assert domain.start_ranked(mine, deal_is_today=today, rules=RULES) is expected


def test_the_start_rule_refuses_practice_beside_an_open_ranked_attempt_and_past_the_cap():
    with pytest.raises(RankedOpen):
        domain.start_ranked(domain.MyAttempts(1, 1, 1), deal_is_today=True, rules=RULES)
    with pytest.raises(AttemptLimit):
        domain.start_ranked(domain.MyAttempts(5, 1, 0), deal_is_today=True, rules=RULES)


def test_a_state_is_a_plain_value():
    state = _state()
    assert dataclasses.replace(state) == state
