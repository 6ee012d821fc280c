"""A whole daily deal of each game won through clicks in the browser, with
the solver's certificate; then the end of the attempt, the history and the
leaderboard pages as the winner sees them."""

from __future__ import annotations

import re

import pytest
from frontend_steps import certified, click_move, counters, start_attempt, wait_past_double_click


def board_origin(page) -> str:
    return page.evaluate("() => location.origin")


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
            wait_past_double_click(page)  # a second click sooner would send it home
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
    assert "52/52" in share
    # The link to the day's page (ISO in the address only), the date in words.
    assert share.splitlines()[-1] == f"{board_origin(page)}/play/{game}/{today.isoformat()}/"
    assert today.isoformat() not in share.splitlines()[0]
    for token in moves:  # the share text gives nothing of the deal away
        if token != "R":
            card = token.split(">")[0]
            assert card not in share
    assert not re.search(r"[♣♦♥♠]", share)
    left = page.locator('[data-ref="countdown"]').last.inner_text()
    assert re.fullmatch(r"\d+\u00a0h \d+\u00a0min|\d+\u00a0min \d+\u00a0s|\d+\u00a0s", left), left
    screenshot(page, f"play-{game}-{locale}-won")
    assert audit(page) == []

    history = open_page("/history/", context=page.context)
    history.wait_for_selector('[data-ref="days"] tr')
    row = history.locator('[data-ref="days"] tr').first
    assert row.locator(f'time[datetime="{today.isoformat()}"]').count() == 1
    assert "52/52" in row.inner_text()
    assert history.locator('[data-ref="chart"] svg').count() == 1
    # The streak calendar marks today won; the win rate and the spread of cards home count it.
    assert history.locator(f'.streak-day[data-date="{today.isoformat()}"]').get_attribute("data-kind") == "won"
    rate = {"en": "Won 1 of 1 ranked day (100%).", "pt-PT": "Ganhou 1 de 1 dia classificado (100%)."}[locale]
    assert history.locator(f'[data-ref="win-rate-{game}"]').inner_text() == rate
    top_bin = history.locator(".per-game__game").nth(0 if game == "cruel" else 1).locator("tbody tr").first
    assert top_bin.inner_text().split() == ["52", "1", {"en": "day", "pt-PT": "dia"}[locale]]
    screenshot(history, f"history-{locale}")
    assert audit(history) == []

    board = open_page(f"/leaderboard/?game={game}", context=page.context)
    me = board.locator("tr.me")
    me.wait_for()
    assert "52/52" in me.inner_text()
    assert me.get_attribute("aria-current") == "true"
    screenshot(board, f"leaderboard-{game}-{locale}")
    assert audit(board) == []
