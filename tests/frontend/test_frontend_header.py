"""The site's header: on a phone one compact line whose Menu button opens a
sheet with every entry on screen; the language as one control that
switches it (a form, so it works without scripts too); no keyboard help on
a touch screen."""

from __future__ import annotations

import pytest
from frontend_steps import start_attempt

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ENTRIES = {
    "en": ["Cruel", "Flower Garden", "Calendar", "History", "Leaderboard", "Leagues", "Account"],
    "pt-PT": ["Cruel", "Flower Garden", "Calendário", "Histórico", "Classificação", "Ligas", "Conta"],
}
LANG = {"en": "en", "pt-PT": "pt-pt"}
OTHER = {"en": ("pt-pt", "PT Português"), "pt-PT": ("en", "EN English")}
GROUP = {"en": "Language", "pt-PT": "Idioma"}


def new_page(browser, live_server, locale, view, *, touch=False, scripts=True, path="/history/"):
    context = browser.new_context(locale=locale, viewport=view, has_touch=touch, is_mobile=touch,
                                  java_script_enabled=scripts)
    page = context.new_page()
    page.goto(live_server.url + path)
    return context, page


def link_boxes(page) -> list[dict]:
    return page.evaluate(
        "() => [...document.querySelectorAll('.site-header nav a')].map(a => {"
        " const r = a.getBoundingClientRect(); return {text: a.textContent.trim(), left: r.left, right: r.right,"
        " top: r.top, bottom: r.bottom, height: r.height, visible: !!a.offsetParent}; })"
    )


def switch_language(page, locale):
    """The one language control: the page's language pressed, the other switches to it."""
    group = page.get_by_role("group", name=GROUP[locale])
    assert page.locator(".site-header select").count() == 0
    buttons = group.get_by_role("button")
    assert buttons.count() == 2
    pressed = [buttons.nth(i).get_attribute("aria-pressed") for i in range(2)]
    assert pressed.count("true") == 1
    current = group.locator('[aria-pressed="true"]')
    assert current.get_attribute("value") == LANG[locale]
    code, name = OTHER[locale]
    group.get_by_role("button", name=name).click()
    page.wait_for_selector(f"html[lang='{code}']")
    page.get_by_role("group", name=GROUP["en" if code == "en" else "pt-PT"]) \
        .locator(f'[value="{code}"][aria-pressed="true"]').wait_for()


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_the_phone_menu_opens_as_a_sheet_with_every_entry_on_screen(locale, deals, browser, live_server,
                                                                   screenshot, audit):
    context, page = new_page(browser, live_server, locale, PHONE, touch=True)
    try:
        page.wait_for_selector("[data-history][data-loaded]")
        header = page.locator(".site-header").bounding_box()
        assert header["height"] <= 64, header
        button = page.locator(".menu-button")
        assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
        assert all(not box["visible"] for box in link_boxes(page))
        screenshot(page, f"header-phone-closed-{locale}")

        button.tap()
        assert button.get_attribute("aria-expanded") == "true"
        boxes = link_boxes(page)
        assert [box["text"] for box in boxes] == ENTRIES[locale]
        for box in boxes:
            assert box["visible"] and box["left"] >= 0 and box["right"] <= PHONE["width"], box
            assert box["bottom"] <= PHONE["height"] and box["height"] >= 44, box
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"header-phone-open-{locale}")
        assert audit(page) == []

        # Escape closes it and gives the focus back to the button; a tap outside closes it too.
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
        assert page.evaluate("() => document.activeElement.classList.contains('menu-button')")
        button.tap()
        page.touchscreen.tap(PHONE["width"] // 2, PHONE["height"] - 20)
        assert button.get_attribute("aria-expanded") == "false"

        # The last entry, Account, is reached with one tap after the button.
        button.tap()
        page.locator(".site-header nav a").last.tap()
        page.wait_for_url("**/account/")
        switch_language(page, locale)
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_wide_screen_shows_the_menu_in_one_line_and_one_language_control(locale, deals, browser, live_server,
                                                                         screenshot, audit):
    context, page = new_page(browser, live_server, locale, DESKTOP)
    try:
        page.wait_for_selector("[data-history][data-loaded]")
        assert page.locator(".menu-button").is_hidden()
        boxes = link_boxes(page)
        assert [box["text"] for box in boxes] == ENTRIES[locale]
        assert all(box["visible"] and box["right"] <= DESKTOP["width"] for box in boxes)
        assert len({round(box["top"]) for box in boxes}) == 1, "one line"
        assert page.locator(".site-header").bounding_box()["height"] <= 64
        screenshot(page, f"header-desktop-{locale}")
        assert audit(page) == []
        switch_language(page, locale)
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_without_scripts_the_phone_shows_the_menu_and_the_language_switches(locale, deals, browser, live_server):
    context, page = new_page(browser, live_server, locale, PHONE, touch=True, scripts=False, path="/rules/cruel/")
    try:
        assert page.locator(".menu-button").is_hidden()
        for box in link_boxes(page):
            assert box["visible"] and box["left"] >= 0 and box["right"] <= PHONE["width"], box
        switch_language(page, locale)
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_touch_screen_shows_no_keyboard_help(locale, deals, browser, live_server):
    context, page = new_page(browser, live_server, locale, PHONE, touch=True, path="/play/cruel/")
    try:
        start_attempt(page)
        shown = page.evaluate(
            "() => [...document.querySelectorAll('.hint--keys, kbd')].filter(el => el.offsetParent !== null)"
            ".map(el => el.textContent)")
        assert shown == []
        assert page.locator(".hint--keys").count() > 0, "the help is in the page, for keyboards"
    finally:
        context.close()
    context, page = new_page(browser, live_server, locale, DESKTOP, path="/play/cruel/")
    try:
        start_attempt(page)
        assert page.locator("kbd").first.is_visible()
    finally:
        context.close()
