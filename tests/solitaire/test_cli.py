"""The command line, run as a script would run it."""

import json
import subprocess
import sys

from example_positions import CRUEL_EXAMPLE, FLOWER_EXAMPLE


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_deal_prints_the_position_for_a_seed():
    out = run("deal", "cruel", "--seed", "42")
    assert out.returncode == 0
    assert out.stdout.startswith("cruel KD2C4HJS/")


def test_moves_prints_sorted_legal_moves_one_a_line():
    out = run("moves", CRUEL_EXAMPLE)
    assert out.stdout.split("\n")[:-1] == ["2C>9", "2C>F", "2H>3", "2H>F", "3H>12", "4D>2", "4H>4"]


def test_moves_batch_answers_one_line_per_position_in_order():
    out = run("moves", "-", stdin=f"{CRUEL_EXAMPLE}\n{FLOWER_EXAMPLE}\n")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == 2
    assert lines[0] == "2C>9 2C>F 2H>3 2H>F 3H>12 4D>2 4H>4"
    assert lines[1].startswith("2S>5 3D>4")


def test_play_prints_the_resulting_position():
    out = run("play", CRUEL_EXAMPLE, "4D>2", "R")
    assert out.returncode == 0
    assert out.stdout.startswith("cruel 5C9H2DKD/3S8C5D4D/9C9S7D3H/")


def test_play_names_the_first_illegal_move_and_exits_1():
    out = run("play", CRUEL_EXAMPLE, "4D>2", "4H>3", "R")
    assert out.returncode == 1
    assert "illegal move 2 (4H>3)" in out.stderr and out.stdout == ""


def test_bad_input_exits_2_with_a_message_and_no_traceback():
    for args in (
        ("play", "cruel nonsense"),
        ("play", CRUEL_EXAMPLE, "4D>"),
        ("moves", "flower -/-"),
        ("deal", "klondike", "--seed", "1"),
        ("deal", "cruel", "--seed", "-5"),
        ("frobnicate",),
    ):
        out = run(*args)
        assert out.returncode == 2, args
        assert "error" in out.stderr and "Traceback" not in out.stderr


def test_batch_reports_the_bad_line_number():
    out = run("moves", "-", stdin=f"{CRUEL_EXAMPLE}\ncruel oops\n")
    assert out.returncode == 2 and "line 2" in out.stderr


def test_solve_json_on_a_won_in_one_position():
    out = run("solve", "cruel KS/-/-/-/-/-/-/-/-/-/-/-", "--json")
    data = json.loads(out.stdout)
    assert data["status"] == "solved" and data["moves"] == "KS>F"
    assert {"status", "moves", "nodes", "seconds"} <= set(data)
