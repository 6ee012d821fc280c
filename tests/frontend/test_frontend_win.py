"""A whole daily deal of each game won through clicks in the browser, with
the solver's certificate; then the end of the attempt, the history and the
leaderboard pages as the winner sees them."""

from __future__ import annotations

import re

import pytest
from frontend_steps import certified, click_move, counters, start_attempt


@pytest.mark.parametrize("game, locale", [("cruel", "en"), ("flower", "pt-PT")])
def test_a_whole_daily_deal_is_won_through_clicks(game, locale, deals, today, open_page, screenshot, audit):
    page = open_page(f"/play/{game}/", locale=locale)
    start_attempt(page)
    screenshot(page, f"play-{game}-{locale}-start")
    assert audit(page) == []

    moves = certified(game)[1].split()
    for number, token in enumerate(moves, start=1):
        click_move(page, token)
        if number == 3:
            # A card selected: its legal targets are highlighted from the API's list.
            movable = page.locator(".slot--movable").first
            movable.click()
            assert page.locator(".slot--target").count() >= 1
            screenshot(page, f"play-{game}-{locale}-selected")
            assert audit(page) == []
            page.wait_for_timeout(450)  # a second click sooner would be a double click (home)
            movable.click()  # put it down again
            assert page.locator(".slot--target").count() == 0

    assert page.locator("[data-play]").get_attribute("data-status") == "won"
    assert counters(page)["cards_home"] == "52/52"
    end = page.locator('[data-ref="end"]')
    end.wait_for()
    won_title = "You won!" if locale == "en" else "Ganhou!"
    assert end.locator("h2").inner_text() == won_title
    rank = page.locator('[data-ref="rank"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"rank\"]').textContent.length > 0")
    assert re.search(r"1\D+1", rank.inner_text()), rank.inner_text()
    share = page.locator('[data-ref="share-text"]').input_value()
    assert "52/52" in share and today.isoformat() in share
    for token in moves:  # the share text gives nothing of the deal away
        if token != "R":
            card = token.split(">")[0]
            assert card not in share
    assert not re.search(r"[♣♦♥♠]", share)
    assert re.fullmatch(r"\d\d:\d\d:\d\d", page.locator('[data-ref="countdown"]').last.inner_text())
    screenshot(page, f"play-{game}-{locale}-won")
    assert audit(page) == []

    history = open_page("/history/", context=page.context)
    history.wait_for_selector('[data-ref="days"] tr')
    row = history.locator('[data-ref="days"] tr').first
    assert today.isoformat() in row.inner_text()
    assert "52/52" in row.inner_text()
    assert history.locator('[data-ref="chart"] svg').count() == 1
    screenshot(history, f"history-{locale}")
    assert audit(history) == []

    board = open_page(f"/leaderboard/?game={game}", context=page.context)
    me = board.locator("tr.me")
    me.wait_for()
    assert "52/52" in me.inner_text()
    assert me.get_attribute("aria-current") == "true"
    screenshot(board, f"leaderboard-{game}-{locale}")
    assert audit(board) == []
