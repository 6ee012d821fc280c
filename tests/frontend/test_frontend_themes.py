"""Every page in both colour schemes: with the system dark, each surface
(the home page's game cards, the calendar's days, History's grid, table and
chart, the results sheet's share box, the phone's Menu button, a league's
"owner" badge, the dialogs) takes the page's dark colours, and axe-core's
colour-contrast rule finds nothing on any page, light or dark, in both
languages on a desktop and a phone."""

from __future__ import annotations

import datetime as dt

import pytest
from frontend_steps import DEVICES, api_play, api_post, certified

PASSWORD = "a long enough pass phrase 42"
CASES = [(locale, view, scheme) for locale in ("pt-PT", "en") for view in DEVICES for scheme in ("dark", "light")]


def luminance(colour: str) -> float:
    """The relative luminance of a computed `rgb(...)` colour."""
    channels = [float(part) / 255 for part in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(page) -> list[dict]:
    """axe-core's colour-contrast rule over the page as shown: its violations."""
    return page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'rule', values: ['color-contrast']}})"
        ".then(r => r.violations.flatMap(v => v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '),"
        " summary: n.failureSummary}))))")


def background(page, selector: str) -> str:
    """The first shown element's own background colour (one that draws none: its nearest ancestor's)."""
    return page.eval_on_selector(selector, """el => {
      for (let node = el; node; node = node.parentElement) {
        const colour = getComputedStyle(node).backgroundColor;
        if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
      }
      return getComputedStyle(document.documentElement).backgroundColor;
    }""")


@pytest.mark.parametrize(("locale", "view", "scheme"), CASES)
def test_every_page_reads_in_both_schemes(locale, view, scheme, deals, today, browser, live_server, axe_source,
                                          screenshot):
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    context = browser.new_context(locale=locale, color_scheme=scheme, **DEVICES[view])
    context.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
    errors: list[str] = []
    surfaces: dict[str, str] = {}
    found: dict[str, list] = {}

    def visit(path: str, ready: str, name: str) -> object:
        page.goto(live_server.url + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        return check(name)

    def check(name: str) -> None:
        page.evaluate(axe_source)
        found[name] = contrast(page)
        screenshot(page, f"theme-{scheme}-{locale}-{view}-{name}")

    def surface(name: str, selector: str) -> None:
        surfaces[name] = background(page, selector)

    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + "/")
        page.wait_for_selector('[data-today][data-loaded="true"]')
        # A registered player who owns a league, won today's Cruel, gave up yesterday's Flower Garden.
        me = api_post(page, "/auth/register", {"username": "alice", "password": PASSWORD, "display_name": "Alice"})
        assert me.get("display_name") == "Alice", me
        league = api_post(page, "/leagues", {"name": "Os da Sé"})
        api_play(page, "cruel", certified("cruel")[1].split())
        api_play(page, "flower", certified("flower")[1].split()[:3], date=yesterday)

        visit("/", '[data-today][data-loaded="true"]', "home")
        surface("home game card", '.deal-card[data-deal="flower"]')
        page.locator('[data-ref="how"][data-game="flower"]').click()
        page.locator("dialog.howto[open]").wait_for()
        check("howto")
        surface("how to play", "dialog.howto[open]")
        page.keyboard.press("Escape")

        visit("/play/flower/", '[data-play][data-loaded="true"]', "play-new")
        visit(f"/play/flower/{yesterday}/", '[data-play][data-loaded="true"]', "play-past-day")
        visit("/play/cruel/", '[data-play][data-loaded="true"]', "play-won")
        sheet = page.locator('[data-ref="end"]')
        if not sheet.is_visible():
            page.locator('[data-ref="show-end"]').click()
        page.wait_for_selector('[data-ref="end"][data-ready]')
        check("results")
        surface("results sheet", '[data-ref="end"]')
        surface("share box", '[data-ref="share-text"]')

        visit("/calendar/cruel/", "[data-loaded]", "calendar")
        surface("calendar day", ".calendar td a")
        visit("/history/", "[data-history][data-loaded]", "history")
        surface("history grid day", ".streak-calendar .streak-day:not(.streak-day--won)")
        surface("history table date", ".days-table tbody th")
        surface("history chart", "svg.chart")
        visit("/leaderboard/", "[data-leaderboard]", "leaderboard")
        visit(f"/leagues/?league={league['id']}", ".badge", "leagues")  # the badge: ink on the page's colour
        visit(f"/replay/cruel/{today.isoformat()}/", "[data-replay]", "replay")
        visit("/account/", "[data-account]", "account")
        visit("/privacy/", "main h1", "privacy")
        visit("/rules/flower/", "main h1", "rules")
        visit("/no-such-page/", ".error-page", "not-found")
        if view == "phone":
            surface("menu button", ".menu-button")
            page.locator(".menu-button").tap()
            check("menu")
            surface("menu", ".site-header nav")
    finally:
        context.close()

    assert not errors, f"JavaScript errors: {errors}"
    assert {name: hits for name, hits in found.items() if hits} == {}
    dark = {name: round(luminance(colour), 3) for name, colour in surfaces.items()}
    if scheme == "dark":
        assert {name: value for name, value in dark.items() if value > 0.05} == {}, surfaces
    else:
        assert {name: value for name, value in dark.items() if value < 0.3} == {}, surfaces
