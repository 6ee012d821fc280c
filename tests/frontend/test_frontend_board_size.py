"""The cards' size does not depend on what stands above the board: a past
day's panel, a hint or a message leave the cards as large as on today's
page at the same window."""

from __future__ import annotations

import datetime as dt

import pytest
from frontend_steps import start_attempt

VIEWPORTS = [(1280, 800), (1920, 1080), (768, 1024), (390, 844)]


def card_width(page) -> float:
    return page.evaluate("() => document.querySelector('.board .card[data-card]').getBoundingClientRect().width")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_past_days_and_messages_keep_the_cards_of_todays_board(width, height, deals, today, open_page, screenshot):
    today_page = open_page("/play/cruel/", width=width, height=height)
    start_attempt(today_page)
    today_width = card_width(today_page)

    yesterday = today - dt.timedelta(days=1)
    past = open_page(f"/play/cruel/{yesterday.isoformat()}/", width=width, height=height)
    past.locator('[data-ref="archive"]').wait_for()
    start_attempt(past)
    assert past.locator('[data-ref="archive"]').is_visible()
    assert card_width(past) == today_width

    # A message above the board (as a hint's) leaves the cards as they are.
    past.clock.install()  # the page re-renders 100 ms after a resize: run that timer
    past.evaluate(
        "() => { const m = document.querySelector('[data-ref=\"message\"]');"
        " m.hidden = false; m.textContent = 'Hint: 7♦ to pile 11'; window.dispatchEvent(new Event('resize')); }"
    )
    past.clock.run_for(1000)
    assert card_width(past) == today_width
    if width >= 1280:
        assert today_width >= 90, "a desktop window gets large cards"
    screenshot(past, f"board-size-past-day-{width}x{height}")
