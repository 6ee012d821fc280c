"""Details of the play page on a phone and at the keyboard: the whole menu
(behind its button) and the deal's date on screen, the device's share sheet, the focus kept on
Undo when it turns off, English times of day on a 24-hour clock."""

from __future__ import annotations

import re

import pytest
from frontend_steps import certified, click_move, confirm_finish, start_attempt, wait_for_version

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("locale", ["pt-PT", "en"])
def test_the_phone_shows_the_whole_menu_the_date_and_the_share_sheet(locale, deals, browser, live_server,
                                                                      screenshot, audit):
    context = browser.new_context(locale=locale, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        # A phone's share sheet, recorded.
        page.add_init_script("navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };")
        page.goto(live_server.url + "/play/cruel/")
        start = page.locator('[data-ref="start"]')
        start.wait_for()
        # The menu opens as a sheet below the header: every entry on screen.
        page.locator(".menu-button").tap()
        links = page.evaluate(
            "() => [...document.querySelectorAll('.site-header nav a')].map(a => {"
            " const r = a.getBoundingClientRect(); return [a.textContent.trim(), r.left, r.right, r.height]; })"
        )
        assert len(links) == 7
        assert all(left >= 0 and right <= PHONE["width"] and height >= 44 for _, left, right, height in links), links
        page.locator(".menu-button").tap()
        assert page.locator(".site-header nav").is_hidden()
        date = page.locator('[data-ref="deal-date"]')
        assert date.is_visible() and date.inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"phone-menu-{locale}")
        assert audit(page) == []

        start.tap()
        wait_for_version(page, 0)
        page.locator('[data-ref="finish"]').tap()
        confirm_finish(page)
        page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
        share = page.locator('[data-ref="share"]')
        assert share.is_visible()
        share.tap()
        page.wait_for_function("() => window.__shared")
        shared = page.evaluate("() => window.__shared")
        assert shared["url"].endswith("/play/cruel/" + page.locator('[data-ref="deal-date"]').get_attribute("datetime") + "/")
        assert "52" in shared["text"]
        next_day = page.locator('[data-ref="next-day"]').inner_text()
        assert re.search(r"\b00:00\b|\b\d{2}:\d{2}\b", next_day) and not re.search(r"AM|PM", next_day), next_day
        screenshot(page, f"phone-share-{locale}")
    finally:
        context.close()


def test_focus_stays_on_undo_when_it_turns_off(deals, open_page):
    page = open_page("/play/cruel/")
    start_attempt(page)
    click_move(page, certified("cruel")[1].split()[0])
    undo = page.locator('[data-ref="undo"]')
    undos: list = []
    page.on("request", lambda r: undos.append(r.url) if r.url.endswith("/undo") else None)
    undo.focus()
    page.keyboard.press("Enter")
    wait_for_version(page, 2)
    # Nothing left to undo: the button reads off, and the focus is still on it.
    assert page.evaluate("() => document.activeElement.dataset.ref") == "undo"
    assert undo.get_attribute("aria-disabled") == "true" or undo.is_disabled()
    page.keyboard.press("Enter")  # a press on it now does nothing
    # A move later (input is handled in order, so an undo from that press
    # would have gone first) it is on again, an ordinary button.
    click_move(page, certified("cruel")[1].split()[0])
    assert len(undos) == 1 and page.locator("[data-play]").get_attribute("data-version") == "3"
    assert undo.get_attribute("aria-disabled") is None and undo.is_enabled()
