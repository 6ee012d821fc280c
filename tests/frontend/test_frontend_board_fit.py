"""The board in the window, as a player sees it on a desktop and a phone,
in both languages: a Flower Garden column of seventeen cards keeps its last
card in view (the cards scale down to fit), on a first visit (the board's
help in full) and later (the help folded behind its button); a hint's line
and a refused move's reason appear over the felt and never move the board."""

from __future__ import annotations

import datetime as dt

import pytest
from certified_deals import deal_create
from frontend_steps import DEVICES, api_get, card_slot, start_attempt, target_slot

# All 52 cards on the table, the first column seventeen long; the ace of clubs
# in the bouquet can go home.
SEVENTEEN = ("flower KSQSJSTS9S8S7S6S5S4S3S2SASKHQHJHTH/9H8H7H6H5H/4H3H2HAHKD/QDJDTD9D8D/7D6D5D4D3D/2DADKCQCJC"
             " TC9C8C7C6C5C4C3C2CAC")
CASES = [(locale, view) for locale in ("pt-PT", "en") for view in DEVICES]
HELP = {"en": "Help", "pt-PT": "Ajuda"}


def new_page(browser, live_server, locale: str, view: str, path: str, *, played: bool):
    context = browser.new_context(locale=locale, **DEVICES[view])
    context.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
    if played:
        context.add_init_script("localStorage.setItem('solitaire.played', '1')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + path)
    return context, page, errors


def boxes(page) -> dict:
    """The felt's and the long column's last card's boxes in the window, the page scrolled to its top."""
    return page.evaluate("""() => {
      window.scrollTo(0, 0);
      const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom,
                                                                          left: r.left, right: r.right}; };
      const column = [...document.querySelectorAll('.board .slot[data-kind="stack"]')]
        .sort((a, b) => b.querySelectorAll('.card[data-card]').length - a.querySelectorAll('.card[data-card]').length)[0];
      return {felt: box(document.querySelector('.board-scroll')), last: box(column.querySelector('.card[data-card]:last-child')),
              cards: column.querySelectorAll('.card[data-card]').length, width: innerWidth, height: innerHeight};
    }""")


def tap(page, locator, view: str) -> None:
    if view == "phone":
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_a_seventeen_card_column_stays_in_the_window(locale, view, transactional_db, today, browser, live_server,
                                                    screenshot):
    deal_create("flower", today, position=SEVENTEEN, certificate="AC>F")
    for played in (False, True):
        context, page, errors = new_page(browser, live_server, locale, view, "/play/flower/", played=played)
        try:
            start_attempt(page)
            toggle = page.locator('[data-ref="help-toggle"]')
            assert toggle.is_visible() is played, "the help folds once a game has been played here"
            shown = boxes(page)
            assert shown["cards"] == 17
            felt, last = shown["felt"], shown["last"]
            assert 0 <= felt["top"] and felt["bottom"] <= shown["height"], shown
            assert felt["top"] <= last["top"] and last["bottom"] <= felt["bottom"], shown
            assert 0 <= felt["left"] and felt["right"] <= shown["width"], shown
            if played:
                # The help, opened, lies over the felt: the board stays where it was.
                tap(page, toggle, view)
                assert toggle.inner_text() == HELP[locale]
                page.locator("#board-help").wait_for()
                assert boxes(page)["felt"] == felt
                tap(page, toggle, view)
            screenshot(page, f"board-fit-17-{locale}-{view}-{'later' if played else 'first'}")
            assert not errors, errors
        finally:
            context.close()


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_a_hint_and_a_refused_move_never_move_the_board(locale, view, deals, today, browser, live_server,
                                                       screenshot):
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    context, page, errors = new_page(browser, live_server, locale, view, f"/play/flower/{yesterday}/", played=True)
    try:
        start_attempt(page)  # practice on a past day: hints are offered
        felt = page.locator('[data-ref="board-scroll"]')
        where = felt.bounding_box()
        message = page.locator('[data-ref="message"]')

        tap(page, page.locator('[data-ref="hint"]'), view)
        message.wait_for()
        assert message.inner_text()
        assert felt.bounding_box() == where, "a hint's line moves nothing"
        # The line lies over the felt and lets a tap through to the cards beneath.
        line = message.bounding_box()
        assert where["y"] <= line["y"] and line["y"] + line["height"] <= where["y"] + where["height"]
        assert message.evaluate("m => getComputedStyle(m).pointerEvents") == "none"
        screenshot(page, f"board-fit-hint-{locale}-{view}")

        # A card tapped, then a column it cannot go to: the reason, and the board where it was.
        attempt = api_get(page, f"/attempts/{page.locator('[data-play]').get_attribute('data-attempt')}")
        movable = {e["card"] for e in attempt["legal"]}
        columns = attempt["position"]["columns"]
        card, wrong = next(
            (e["card"], str(i + 1)) for e in attempt["legal"] for i, column in enumerate(columns)
            if str(i + 1) not in e["targets"] and column and column[-1] not in movable)
        tap(page, card_slot(page, card), view)
        page.locator(".slot--selected").wait_for()
        tap(page, target_slot(page, card, wrong), view)
        page.locator('[data-ref="message"].message--error').wait_for()
        assert felt.bounding_box() == where, "a refused move's reason moves nothing"
        screenshot(page, f"board-fit-refused-{locale}-{view}")
        assert not errors, errors
    finally:
        context.close()
