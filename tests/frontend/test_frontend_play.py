"""Playing in the browser: a rejected drop, keyboard play and undo, a redeal,
both languages, a small screen, the rules, the replay of a past day, and an
accessibility audit of each page."""

from __future__ import annotations

import datetime as dt
import json

from frontend_steps import (
    card_slot,
    certified,
    click_move,
    counters,
    drag,
    drawn_board,
    expected_board,
    start_attempt,
    target_slot,
    version,
    wait_for_version,
)

import solitaire


def laid_out(notation: str) -> dict:
    """A position the API sent in notation, as the engine lays it out."""
    return solitaire.parse_position(notation).to_dict()


def legal_list(page) -> list[dict]:
    """The legal moves the page received from the API (read back from the API)."""
    attempt_id = page.evaluate(
        "() => fetch('/api/v1/daily').then(r => r.json()).then(d => d.deals.find(x => x.game === document"
        ".querySelector('[data-play]').dataset.game).my_attempts.at(-1).id)"
    )
    attempt = page.evaluate(f"() => fetch('/api/v1/attempts/{attempt_id}').then(r => r.json())")
    return attempt


def test_an_illegal_drop_is_rejected_and_the_card_goes_back(deals, open_page, screenshot):
    page = open_page("/play/cruel/")
    start_attempt(page)
    attempt = legal_list(page)
    entry = attempt["legal"][0]
    card = entry["card"]
    home = next(i for i, pile in enumerate(attempt["position"]["piles"]) if pile and pile[-1] == card)
    wrong = next(
        str(i + 1) for i in range(12) if str(i + 1) not in entry["targets"] and i != home
    )
    drag(page, card, target_slot(page, card, wrong))
    message = page.locator('[data-ref="message"]')
    message.wait_for()
    assert "message--error" in message.get_attribute("class")
    assert "not allowed" in message.inner_text()
    page.wait_for_selector('[data-play][data-version="0"][data-busy="false"]')
    # The card is back on top of its own pile, nothing counted.
    assert page.locator(f'.slot[data-kind="stack"][data-index="{home}"]').get_attribute("data-card") == card
    assert counters(page)["cards_home"] == "4/52"
    screenshot(page, "play-cruel-en-rejected")

    # A legal drop goes through.
    target = entry["targets"][0]
    drag(page, card, target_slot(page, card, target))
    wait_for_version(page, 1)
    assert page.locator('[data-ref="message"]').is_hidden()


def test_a_rejected_move_is_explained_in_portuguese(deals, open_page):
    page = open_page("/play/cruel/", locale="pt-PT")
    start_attempt(page)
    attempt = legal_list(page)
    entry = attempt["legal"][0]
    card = entry["card"]
    home = next(i for i, pile in enumerate(attempt["position"]["piles"]) if pile and pile[-1] == card)
    wrong = next(
        i + 1 for i in range(12)
        if str(i + 1) not in entry["targets"] and i != home and attempt["position"]["piles"][i]
    )
    top = attempt["position"]["piles"][wrong - 1][-1]
    drag(page, card, target_slot(page, card, str(wrong)))
    message = page.locator('[data-ref="message"]')
    message.wait_for()
    symbols = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    show = lambda code: code[0].replace("T", "10") + symbols[code[1]]  # noqa: E731
    assert (
        f"A pilha {wrong} mostra o {show(top)}; o {show(card)} só vai para cima da carta do mesmo naipe"
        in message.inner_text()
    )


def test_keyboard_play_and_undo(deals, open_page):
    page = open_page("/play/flower/")
    start_attempt(page)
    token = certified("flower")[1].split()[0]
    card, target = token.split(">")
    card_slot(page, card).focus()
    page.keyboard.press("Enter")
    assert card_slot(page, card).get_attribute("aria-pressed") == "true"
    target_slot(page, card, target).focus()
    assert "Legal target" in target_slot(page, card, target).get_attribute("aria-label")
    page.keyboard.press(" ")
    wait_for_version(page, 1)
    live = page.locator("#live-region")
    page.wait_for_function("() => document.querySelector('#live-region').textContent.includes('52')")
    assert "of 52 cards home" in live.inner_text()

    page.keyboard.press("ArrowRight")  # arrows move between piles
    assert page.evaluate("() => document.activeElement.classList.contains('slot')")
    page.keyboard.press("u")
    wait_for_version(page, 2)
    assert counters(page)["undos"] == "1"
    assert page.locator('[data-ref="undo"]').is_disabled()
    assert card_slot(page, card).count() == 1


def test_a_redeal_through_the_button(deals, open_page, screenshot):
    page = open_page("/play/cruel/")
    start_attempt(page)
    moves = certified("cruel")[1].split()
    redeal = page.locator('[data-ref="redeal"]')
    for token in moves:
        if redeal.is_enabled():
            break
        click_move(page, token)
    assert redeal.is_enabled(), "the redeal button is offered once the API says can_redeal"
    before = version(page)
    page.keyboard.press("r")
    wait_for_version(page, before + 1)
    assert counters(page)["redeals"] == "1"
    screenshot(page, "play-cruel-en-after-redeal")


def test_the_page_follows_the_browser_language_and_can_be_switched(deals, open_page):
    page = open_page("/play/cruel/", locale="pt-PT")
    assert page.locator("html").get_attribute("lang") == "pt-pt"
    assert page.get_by_role("link", name="Classificação").count() == 1
    start_attempt(page)
    assert "Cartas nas fundações" in page.locator(".counters").inner_text()
    # Card labels come from the JavaScript catalog.
    assert "de " in page.locator('.slot[data-kind="stack"]').first.get_attribute("aria-label")
    page.get_by_role("group", name="Idioma").get_by_role("button", name="EN English").click()
    page.wait_for_selector("html[lang='en']")
    page.wait_for_selector('[data-play][data-busy="false"][data-version="0"]')
    assert "Cards home" in page.locator(".counters").inner_text()
    assert " of " in page.locator('.slot[data-kind="stack"]').first.get_attribute("aria-label")

    english = open_page("/history/", locale="en-GB")
    assert english.locator("h1").inner_text() == "Your history"
    other = open_page("/history/", locale="de-DE")
    assert other.locator("h1").inner_text() == "O seu histórico"


def test_a_small_screen_fits_the_table_without_sideways_scroll(deals, open_page, screenshot):
    for game in ("cruel", "flower"):
        page = open_page(f"/play/{game}/", width=360, height=740)
        start_attempt(page)
        sizes = page.evaluate(
            "() => { const s = document.querySelector('.board-scroll');"
            " const c = document.querySelector('.board .card[data-card]').getBoundingClientRect();"
            " return {scroll: s.scrollWidth, client: s.clientWidth, card: c.width,"
            " page: document.documentElement.scrollWidth}; }"
        )
        assert sizes["card"] >= 44, sizes
        assert sizes["scroll"] <= sizes["client"], sizes
        assert sizes["page"] <= 360, sizes
        screenshot(page, f"play-{game}-small-screen")


def test_the_rules_are_one_click_away_in_each_language(deals, open_page, audit):
    page = open_page("/play/flower/", locale="pt-PT")
    page.locator("details.rules summary").click()
    assert "Qualquer carta disponível pode ocupar coluna vazia" in page.locator(".rules__text").inner_text()
    english = open_page("/rules/cruel/", locale="en")
    assert "An empty pile stays empty" in english.locator(".rules__text").inner_text()
    assert audit(english) == []


def test_a_past_day_s_solution_replays_step_by_step(deals, today, open_page, screenshot, audit):
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    moves = certified("flower")[1].split()
    page = open_page(f"/replay/flower/{yesterday}/")
    page.wait_for_selector('[data-ref="moves"] li')
    assert page.locator('[data-ref="moves"] li').count() == len(moves)
    step = page.locator('[data-ref="step"]')
    assert step.inner_text().startswith(f"Step 0 of {len(moves)}")
    page.locator('[data-ref="forward"]').click()
    page.locator('[data-ref="forward"]').click()
    assert step.inner_text().startswith(f"Step 2 of {len(moves)}")
    solution = page.evaluate(f"() => fetch('/api/v1/daily/{yesterday}/flower/solution').then(r => r.json())")
    assert solution["moves"] == moves
    page.wait_for_selector('[data-replay][data-step="2"]')
    after_two = drawn_board(page)
    assert after_two == expected_board(laid_out(solution["positions"][2]))
    page.locator('[data-ref="first"]').click()
    page.wait_for_selector('[data-replay][data-step="0"]')
    start = drawn_board(page)
    assert start == expected_board(laid_out(solution["positions"][0]))
    assert start != after_two, "a later step shows a different board"
    assert page.locator('[data-ref="no-positions"]').is_hidden()
    page.locator('[data-ref="forward"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step.inner_text().startswith(f"Step 2 of {len(moves)}")
    page.locator('[data-ref="back"]').click()
    assert step.inner_text().startswith(f"Step 1 of {len(moves)}")
    assert drawn_board(page) == expected_board(laid_out(solution["positions"][1]))
    page.locator('[data-ref="last"]').click()
    assert drawn_board(page) == expected_board(laid_out(solution["positions"][-1]))
    assert page.locator('[data-ref="forward"]').is_disabled()
    assert page.locator(".board .slot").count() > 0
    screenshot(page, "replay-flower-en")
    assert audit(page) == []

    today_replay = open_page(f"/replay/cruel/{today.isoformat()}/")
    today_replay.wait_for_selector('[data-ref="message"]:not([hidden])')
    assert "once the day is over" in today_replay.locator('[data-ref="message"]').inner_text()


def test_past_days_are_selectable_on_the_leaderboard(deals, today, open_page, audit):
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    page = open_page("/leaderboard/?game=flower")
    page.wait_for_function("() => document.querySelector('[data-ref=\"summary\"]').textContent.length > 0")
    page.fill("input[name=date]", yesterday)  # applies at once: no button to press
    page.wait_for_selector('[data-ref="replay"]:not([hidden])')
    assert f"date={yesterday}" in page.url
    assert "Nobody" in page.locator('[data-ref="summary"]').inner_text()
    assert audit(page) == []
    assert json.loads(json.dumps(page.locator('[data-ref="replay"]').get_attribute("href"))).endswith(f"/flower/{yesterday}/")
