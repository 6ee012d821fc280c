"""Ranked safety and fair ranks in the page: what counts is said before the
first move, finishing a ranked attempt that can still be played asks first
(in an accessible dialog), practice finishes at once, and an untouched ranked
attempt never ranks above a played one."""

from __future__ import annotations

from frontend_steps import api_get, latest_attempt, start_attempt, wait_for_version


def _pile_move(attempt: dict) -> str:
    return next(f"{m['card']}>{t}" for m in attempt["legal"] for t in m["targets"] if t != "F")


def _play(page, token: str) -> None:
    """One move through the API with the page's session, then the page reloaded."""
    attempt = latest_attempt(page)
    page.evaluate(
        "([id, move, version]) => fetch(`/api/v1/attempts/${id}/moves`, {method: 'POST',"
        " headers: {'Content-Type': 'application/json', 'X-CSRFToken': document.cookie.match(/csrftoken=([^;]+)/)[1]},"
        " body: JSON.stringify({move, version})})",
        [attempt["id"], token, attempt["version"]],
    )
    page.reload()


def test_finishing_a_ranked_attempt_asks_first_and_practice_does_not(
    deals, open_page, screenshot, audit
):
    page = open_page("/play/cruel/")
    note = page.locator('[data-ref="ranked-note"]')
    note.wait_for()
    # The rule in one sentence.
    assert note.inner_text().startswith("Your first attempt at today's deal is ranked from its first move")
    assert "most cards home, then fewer undos, redeals and time" in note.inner_text()
    start_attempt(page)
    assert page.locator('[data-ref="attempt-kind"]').inner_text() == "Ranked attempt"

    finish = page.locator('[data-ref="finish"]')
    # Finish is not beside undo: redeal and the hint come between, then a divider.
    undo_box = page.locator('[data-ref="undo"]').bounding_box()
    finish_box = finish.bounding_box()
    assert finish_box["x"] - (undo_box["x"] + undo_box["width"]) >= 100, (undo_box, finish_box)
    finish.click()
    dialog = page.get_by_role("dialog", name="Finish your ranked attempt?")
    dialog.wait_for()
    assert page.evaluate("() => document.activeElement.dataset.ref") == "finish-dialog-keep"
    screenshot(page, "play-cruel-en-finish-dialog")
    assert audit(page) == []
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert latest_attempt(page)["finished"] is False
    assert page.evaluate("() => document.activeElement.dataset.ref") == "finish"

    finish.click()
    dialog.locator('[data-ref="finish-dialog-keep"]').click()
    dialog.wait_for(state="hidden")
    assert latest_attempt(page)["status"] == "playing"

    finish.click()
    dialog.get_by_role("button", name="Finish the ranked attempt").click()
    page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
    assert latest_attempt(page)["finished"] is True

    # Practice: finished at once, no question.
    page.locator('[data-ref="again"]').click()
    page.wait_for_selector('[data-play][data-status="playing"][data-version="0"][data-busy="false"]')
    assert note.is_hidden()
    finish.click()
    page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
    assert dialog.is_hidden()
    mine = next(d for d in api_get(page, "/daily")["deals"] if d["game"] == "cruel")["my_attempts"]
    assert sorted((a["ranked"], a["status"]) for a in mine) == [(False, "abandoned"), (True, "abandoned")]


def test_the_ranked_note_is_said_before_start_in_portuguese(deals, open_page):
    page = open_page("/play/flower/", locale="pt-PT")
    note = page.locator('[data-ref="ranked-note"]')
    note.wait_for()
    assert note.inner_text().startswith(
        "A sua primeira tentativa na distribuição de hoje é classificada a partir da primeira jogada")
    start_attempt(page)
    assert note.is_hidden()
    assert page.locator('[data-ref="attempt-kind"]').inner_text() == "Tentativa classificada"


def test_an_untouched_ranked_attempt_is_not_ranked_above_a_played_one(
    deals, today, open_page, screenshot, audit
):
    idle = open_page("/play/cruel/")
    start_attempt(idle)
    player = open_page("/play/cruel/")
    start_attempt(player)
    _play(player, _pile_move(latest_attempt(player)))
    wait_for_version(player, 1)
    assert latest_attempt(player)["counters"]["cards_home"] == latest_attempt(idle)["counters"]["cards_home"]

    for page in (idle, player):
        page.goto(page.url.replace("/play/cruel/", f"/leaderboard/?game=cruel&date={today.isoformat()}"))
        page.wait_for_function("() => document.querySelector('[data-ref=\"summary\"]').textContent.length > 0")
    rows = player.locator('[data-ref="rows"] tr')
    assert rows.count() == 1 and "you" in rows.first.inner_text()
    assert "1 ranked player" in player.locator('[data-ref="summary"]').inner_text()
    # The idle player is not on the board until a first move, and the page says why.
    assert idle.locator('[data-ref="rows"] tr').count() == 1
    assert "you" not in idle.locator('[data-ref="rows"]').inner_text()
    assert "from its first move" in idle.locator('[data-ref="rule-short"]').inner_text()
    idle.locator(".rule-details summary").click()  # the whole rule, one click away
    assert "at its first move" in idle.locator('[data-ref="rule"]').inner_text()
    screenshot(idle, "leaderboard-cruel-en-rule")
    assert audit(idle) == []
