"""A phone: touch emulated (has_touch, is_mobile, a 360 px wide viewport).
A move is played by tapping the card then its target; every card and pile
is a touch target of at least 44 x 44 CSS px;
and nothing scrolls sideways: the cards fit the width."""

from __future__ import annotations

import pytest
from frontend_steps import (
    card_slot,
    certified,
    drawn_board,
    expected_board,
    latest_attempt,
    target_slot,
    wait_for_version,
)

PHONE = {"width": 360, "height": 740}
MIN_TARGET_PX = 44
MIN_CARD_WIDTH_PX = 44


@pytest.fixture
def phone(viewport_context):
    """phone(locale) -> a new visitor's context on a phone with touch."""
    return lambda locale="en": viewport_context(locale, PHONE["width"], PHONE["height"], scale=2)


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate(
        "(selector) => [...document.querySelectorAll(selector)].map(el => {"
        " const r = el.getBoundingClientRect();"
        " return {name: el.getAttribute('aria-label') || el.dataset.card || el.className,"
        " width: r.width, height: r.height}; })",
        selector,
    )


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_a_move_by_tapping_on_a_phone(game, deals, phone, open_page, screenshot):
    page = open_page(f"/play/{game}/", context=phone())
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "touch is emulated"
    assert page.evaluate("() => window.innerWidth") == PHONE["width"]
    page.locator('[data-ref="start"]').tap()
    wait_for_version(page, 0)

    # Every pile, column, bouquet card and foundation is big enough to tap;
    # every card stays readable; nothing scrolls sideways.
    small = [b for b in boxes(page, ".board .slot") if b["width"] < MIN_TARGET_PX or b["height"] < MIN_TARGET_PX]
    assert not small, small
    narrow = [b for b in boxes(page, ".board .card") if b["width"] < MIN_CARD_WIDTH_PX]
    assert not narrow, narrow
    tops = boxes(page, ".board .slot--movable .card--movable")
    assert tops and all(b["width"] >= MIN_TARGET_PX and b["height"] >= MIN_TARGET_PX for b in tops), tops
    sizes = page.evaluate(
        "() => { const s = document.querySelector('.board-scroll');"
        " return {scroll: s.scrollWidth, client: s.clientWidth, page: document.documentElement.scrollWidth}; }"
    )
    assert sizes["scroll"] <= sizes["client"], sizes
    assert sizes["page"] <= PHONE["width"], "nothing scrolls sideways"

    # Tap the card, then its target (scrolled into view as a finger would).
    token = certified(game)[1].split()[0]
    card, target = token.split(">")
    card_slot(page, card).tap()
    assert card_slot(page, card).get_attribute("aria-pressed") == "true"
    goal = target_slot(page, card, target)
    assert "slot--target" in goal.get_attribute("class")
    # Exactly the API's targets are highlighted: "F" is the card's own foundation only.
    listed = next(e["targets"] for e in latest_attempt(page)["legal"] if e["card"] == card)
    highlighted = page.evaluate(
        "() => [...document.querySelectorAll('.slot--target')].map(s => `${s.dataset.kind}:${s.dataset.index}`)"
    )
    expected = [
        f"{slot.get_attribute('data-kind')}:{slot.get_attribute('data-index')}"
        for slot in (target_slot(page, card, t) for t in listed)
    ]
    assert sorted(highlighted) == sorted(expected), (card, listed)
    screenshot(page, f"play-{game}-phone-selected")
    goal.tap()
    wait_for_version(page, 1)
    server = latest_attempt(page)
    assert server["last_action"] == token
    assert drawn_board(page) == expected_board(server["position"])
    assert page.locator('[data-ref="message"]').is_hidden()
    screenshot(page, f"play-{game}-phone-after-tap")
