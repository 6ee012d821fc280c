"""The cards as a player reads them: every covered card's rank and suit in
sight in every column and pile, even when one Flower Garden column holds
fifteen cards or more (the board grows and the page scrolls instead); the
four-colour and high-contrast decks, kept across a reload; the dark theme
of the system; a win that celebrates, and no motion at all under reduced
motion. Screenshots of the boards go to test-artifacts/."""

from __future__ import annotations

import datetime as dt
import functools
import re

import pytest
from certified_deals import deal_create
from frontend_steps import api_post, card_slot, certified, start_attempt, version, wait_for_version

import solitaire

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}

# Every covered card of every pile, column and the bouquet: the points of
# its rank and suit (the centre and four points near the glyph's corners)
# must hit that card itself, never the card over it nor its ring. Scrolls
# each card into view first (a long column runs below the window).
UNREADABLE = """
() => {
  const bad = [];
  const groups = [...document.querySelectorAll('.board .stack'), document.querySelector('.board__bouquet')]
    .filter(Boolean);
  for (const group of groups) {
    const cards = [...group.querySelectorAll('.card[data-card]')];
    for (const card of cards.slice(0, -1)) {
      for (const part of card.querySelectorAll('.card__index .card__rank, .card__index .card__suit')) {
        part.scrollIntoView({block: 'center', inline: 'center'});
        const r = part.getBoundingClientRect();
        if (r.width < 4 || r.height < 4) { bad.push(`${card.dataset.card} ${part.className}: no size`); continue; }
        const points = [[.5, .5], [.2, .2], [.8, .2], [.2, .8], [.8, .8]];
        for (const [fx, fy] of points) {
          const x = r.left + r.width * fx, y = r.top + r.height * fy;
          const hit = document.elementFromPoint(x, y);
          if (hit?.closest('.card[data-card]') !== card) {
            bad.push(`${card.dataset.card} ${part.className} at ${fx},${fy}: ${hit?.closest('.card')?.dataset.card ?? hit?.className}`);
          }
        }
      }
    }
  }
  window.scrollTo(0, 0);
  return bad;
}
"""

# Each stack's steps between its cards (px, down for a column, across or
# down for a pile), base to top.
STEPS = """
() => [...document.querySelectorAll('.board .stack')].map((stack) => {
  const boxes = [...stack.querySelectorAll('.card[data-card]')].map((c) => c.getBoundingClientRect());
  return boxes.slice(1).map((b, i) => Math.round(Math.max(b.top - boxes[i].top, b.left - boxes[i].left)));
})
"""


def unreadable(page) -> list[str]:
    """UNREADABLE, once no card is in flight (a sliding card takes no hits)."""
    page.wait_for_function("() => !document.querySelector('.card--moving')")
    return page.evaluate(UNREADABLE)


@functools.cache
def long_column_line(start: str, at_least: int = 15) -> tuple[str, ...]:
    """Moves from `start` (a Flower Garden position) that stack `at_least`
    cards on one column, found by a beam search over the engine's legal moves
    (the longest column first, then a column whose next lower rank is in play)."""
    ranks = "A23456789TJQK"

    def score(position) -> int:
        d = position.to_dict()
        columns, bouquet = d["columns"], d["bouquet"]
        best = -1
        for column in columns:
            if not column:
                continue
            need = ranks.index(column[-1][0]) - 1
            free = [*bouquet, *(o[-1] for o in columns if o and o is not column)]
            ready = any(ranks.index(c[0]) == need for c in free)
            best = max(best, len(column) * 10 + need + (3 if ready else 0))
        return best

    beam = [(solitaire.parse_position(start), ())]
    seen = {start}
    for _ in range(80):
        grown = []
        for position, line in beam:
            for move in position.legal_moves():
                after = position.apply(move)
                if after.notation() not in seen:
                    seen.add(after.notation())
                    grown.append((after, (*line, move.token())))
        grown.sort(key=lambda item: -score(item[0]))
        beam = grown[:300]
        assert beam, "the search ran out of positions"
        if max(len(c) for c in beam[0][0].to_dict()["columns"]) >= at_least:
            return beam[0][1]
    raise AssertionError(f"no line stacks {at_least} cards on a column")


def new_page(browser, live_server, path, *, screen="desktop", locale="en", **options):
    context = browser.new_context(locale=locale, **SCREENS[screen], **options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + path)
    return context, page, errors


def start(page, screen):
    if screen == "phone":
        page.locator('[data-ref="start"]').tap()
        wait_for_version(page, 0)
    else:
        start_attempt(page)


def post_moves(page, moves) -> dict:
    """Play `moves` on the page's current attempt through the API, as one batch."""
    return page.evaluate(
        """async (moves) => {
          const p = document.querySelector('[data-play]');
          const daily = await (await fetch('/api/v1/daily')).json();
          const date = p.dataset.date;
          const id = date
            ? (await (await fetch(`/api/v1/daily/${date}/${p.dataset.game}`)).json()).my_attempts.at(-1).id
            : daily.deals.find((d) => d.game === p.dataset.game).my_attempts.at(-1).id;
          const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken='))?.split('=')[1];
          const r = await fetch(`/api/v1/attempts/${id}/moves`, {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
            body: JSON.stringify({moves, version: Number(p.dataset.version)})});
          return {status: r.status, body: await r.json()};
        }""",
        list(moves),
    )


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_long_flower_garden_game_keeps_every_covered_card_readable(
    screen, locale, deals, today, browser, live_server, artifacts, audit
):
    yesterday = today - dt.timedelta(days=1)
    line = long_column_line(certified("flower")[0])
    context, page, errors = new_page(browser, live_server, f"/play/flower/{yesterday.isoformat()}/",
                                     screen=screen, locale=locale)
    try:
        start(page, screen)
        played = post_moves(page, line)
        assert played["status"] == 200, played
        assert played["body"]["ranked"] is False, "a past day's attempt is practice"
        page.reload()
        page.wait_for_selector(f'[data-play][data-version="{len(line)}"][data-busy="false"]')
        lengths = page.evaluate("() => [...document.querySelectorAll('.board .stack')]"
                                ".map((s) => s.querySelectorAll('.card').length)")
        assert max(lengths) >= 15, lengths
        assert unreadable(page) == []
        # Each column has its own step: a short one keeps the usual spacing
        # while the long one fans closer, never below its index's height.
        steps = page.evaluate(STEPS)
        longest = max(steps, key=len)
        short = [s for s in steps if 1 <= len(s) <= 3]
        assert short and min(s[0] for s in short) > min(longest), steps
        index_h = page.evaluate(
            "() => document.querySelector('.board .stack .card__index').getBoundingClientRect().height")
        assert min(longest) >= index_h, (longest, index_h)
        # The board grows and the page scrolls down, never sideways.
        sizes = page.evaluate("() => ({width: document.documentElement.scrollWidth, height:"
                              " document.documentElement.scrollHeight, inner: innerWidth, innerH: innerHeight})")
        assert sizes["width"] <= sizes["inner"], sizes
        page.screenshot(path=str(artifacts / f"cards-flower-long-{screen}-{locale}.png"), full_page=True)
        if screen == "desktop":
            assert audit(page) == []
            # A taller window gives the long column room: it fans wider.
            page.set_viewport_size({"width": 1280, "height": 1400})
            page.wait_for_function("(before) => { const s = (%s)(); const long = s.reduce((a, b) => b.length > a.length ? b : a);"
                                   " return Math.min(...long) > before; }" % STEPS.strip(), arg=min(longest))
            assert unreadable(page) == []
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("game", ["cruel", "flower"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_the_dealt_board_shows_every_card_whole(game, screen, locale, deals, browser, live_server, artifacts):
    context, page, errors = new_page(browser, live_server, f"/play/{game}/", screen=screen, locale=locale)
    try:
        start(page, screen)
        assert unreadable(page) == []
        # Court cards carry their figure; every card its face.
        assert page.locator(".board .card--court use[href^='#card-court-']").count() >= 4
        assert page.locator(".board .card[data-card] .card__face").count() == page.locator(
            ".board .card[data-card]").count()
        page.screenshot(path=str(artifacts / f"cards-{game}-{screen}-{locale}.png"), full_page=screen == "desktop")
        assert not errors, errors
    finally:
        context.close()


def test_a_long_cruel_pile_goes_on_below_its_indexes(transactional_db, today, browser, live_server, artifacts):
    """A pile of nine cards (a constructed deal): it stays within its width on
    a phone, in a second row under the first row's indexes, all readable."""
    deal_create("cruel", today, position="cruel 2C3C4C5C6C7C8C9CTC/JCQCKC/-/-/-/-/-/-/-/-/-/-", certificate="TC>F")
    for screen in ("desktop", "phone"):
        context, page, errors = new_page(browser, live_server, "/play/cruel/", screen=screen)
        try:
            start(page, screen)
            assert unreadable(page) == []
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= SCREENS[screen]["viewport"]["width"]
            page.screenshot(path=str(artifacts / f"cards-cruel-long-pile-{screen}.png"))
            assert not errors, errors
        finally:
            context.close()


SUIT_COLOURS = (
    "() => Object.fromEntries(['C', 'D', 'H', 'S'].map((s) => [s,"
    " getComputedStyle(document.querySelector(`.board .card[data-card$=\"${s}\"] .card__rank`)).color]))"
)


def test_four_colours_and_high_contrast_are_chosen_in_settings_and_kept(deals, open_page, screenshot):
    page = open_page("/play/flower/", width=1280, height=800)
    start_attempt(page)
    two = page.evaluate(SUIT_COLOURS)
    assert two["D"] == two["H"] and two["C"] == two["S"] and two["D"] != two["S"], two
    page.locator('[data-ref="settings"] summary').click()
    page.locator('[data-setting="deck"]').select_option("four")
    four = page.evaluate(SUIT_COLOURS)
    assert len(set(four.values())) == 4, four
    assert four["H"] == two["H"] and four["S"] == two["S"]
    edge = page.evaluate("() => getComputedStyle(document.querySelector('.board .card[data-card]')).borderTopWidth")
    page.locator('[data-setting="highContrast"]').check()
    high = page.evaluate(SUIT_COLOURS)
    assert len(set(high.values())) == 4 and high != four, high
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.board .card[data-card]')).borderTopWidth") != edge
    page.locator('[data-ref="settings"] summary').click()
    screenshot(page, "cards-flower-four-colours-high-contrast")
    # Kept in this browser: a reload shows the same deck.
    page.reload()
    page.wait_for_selector('[data-play][data-busy="false"] .board .card[data-card]')
    assert page.evaluate(SUIT_COLOURS) == high
    assert page.locator('[data-setting="deck"]').input_value() == "four"
    assert page.locator('[data-setting="highContrast"]').is_checked()
    page.locator('[data-ref="settings"] summary').click()
    page.locator('[data-setting="deck"]').select_option("two")
    page.locator('[data-setting="highContrast"]').uncheck()
    assert page.evaluate(SUIT_COLOURS) == two


def _luminance(css: str) -> float:
    r, g, b = (int(float(x)) for x in re.findall(r"[\d.]+", css)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_the_dark_theme_follows_the_system(game, deals, browser, live_server, artifacts, audit):
    looks = {}
    for scheme in ("light", "dark"):
        context, page, errors = new_page(browser, live_server, f"/play/{game}/", color_scheme=scheme)
        try:
            start_attempt(page)
            looks[scheme] = page.evaluate(
                "() => ({page: getComputedStyle(document.body.parentElement).backgroundColor,"
                " felt: getComputedStyle(document.querySelector('.board-scroll')).backgroundColor,"
                " face: getComputedStyle(document.querySelector('.board .card[data-card]')).backgroundColor})")
            page.screenshot(path=str(artifacts / f"cards-{game}-{scheme}.png"))
            assert audit(page) == [], scheme
            assert not errors, errors
        finally:
            context.close()
    assert _luminance(looks["dark"]["page"]) < 0.2 < _luminance(looks["light"]["page"]), looks
    assert looks["dark"]["felt"] != looks["light"]["felt"]
    assert _luminance(looks["dark"]["face"]) > 0.85, "the cards stay light to read"


# Today's Flower Garden: the queen of spades in the bouquet, the king on a
# column; every other card home. QS>F then KS>F wins.
NEARLY_WON = "flower KS/-/-/-/-/- QS"


def _win_sampling_animations(page) -> dict:
    """Play QS>F and KS>F by double-clicks, sampling the running animations and the cascade."""
    page.evaluate(
        "() => { window.__seen = {animations: 0, cascade: 0}; const t0 = performance.now();"
        " const step = () => { const s = window.__seen;"
        "  s.animations = Math.max(s.animations, document.getAnimations().length);"
        "  s.cascade = Math.max(s.cascade, document.querySelectorAll('.cascade .card').length);"
        "  if (performance.now() - t0 < 4000) requestAnimationFrame(step); };"
        " requestAnimationFrame(step); }")
    for card in ("QS", "KS"):
        before = version(page)
        card_slot(page, card).dblclick()
        wait_for_version(page, before + 1)
    page.wait_for_selector('[data-play][data-status="won"]')
    page.wait_for_timeout(1500)
    return page.evaluate("() => window.__seen")


def test_a_win_cascades_the_cards(transactional_db, today, browser, live_server, artifacts):
    deal_create("flower", today, position=NEARLY_WON, certificate="QS>F KS>F")
    context, page, errors = new_page(browser, live_server, "/play/flower/")
    try:
        start_attempt(page)
        seen = _win_sampling_animations(page)
        assert seen["cascade"] >= 8 and seen["animations"] >= 8, seen
        page.screenshot(path=str(artifacts / "cards-flower-win-cascade.png"))
        page.wait_for_function("() => !document.querySelector('.cascade')", timeout=10_000)
        assert not errors, errors
    finally:
        context.close()


def test_reduced_motion_moves_nothing(transactional_db, today, browser, live_server):
    deal_create("flower", today, position=NEARLY_WON, certificate="QS>F KS>F")
    context, page, errors = new_page(browser, live_server, "/play/flower/", reduced_motion="reduce")
    try:
        start_attempt(page)
        seen = _win_sampling_animations(page)
        assert seen == {"animations": 0, "cascade": 0}, seen
        assert page.evaluate("() => getComputedStyle(document.querySelector('.board')).animationName") == "none"
        assert not errors, errors
    finally:
        context.close()


# The cascade's length, the card's flight included: animate.js's CELEBRATION_MS.
CELEBRATION_MS = 2000


def _win_by_the_last_move(page, screen) -> None:
    """QS>F through the API, then the winning KS>F in the page: a double click, or a tap and a tap on its foundation."""
    attempt = api_post(page, f"/attempts/{page.locator('[data-play]').get_attribute('data-attempt')}/moves",
                       {"move": "QS>F", "version": 0})
    assert attempt["version"] == 1, attempt
    page.reload()
    wait_for_version(page, 1)
    # While any card of the cascade is on the table, the sheet stays shut.
    page.evaluate(
        "() => { window.__both = 0; const step = () => {"
        " if (document.querySelector('.cascade') && document.querySelector('[data-ref=\"end\"]').open) window.__both++;"
        " requestAnimationFrame(step); }; requestAnimationFrame(step); }")
    if screen == "phone":
        card_slot(page, "KS").tap()
        page.locator('.slot--selected[data-card="KS"]').wait_for()
        page.locator('.slot[data-kind="foundation"][data-index="3"]').tap()
    else:
        card_slot(page, "KS").dblclick()
    page.locator(".cascade .card").first.wait_for(state="attached")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_win_is_celebrated_in_sight_then_the_results_open(screen, locale, transactional_db, today, browser,
                                                          live_server, artifacts):
    """The cascade plays over an uncovered board for about two seconds, then
    the results sheet opens; a second win's cascade ends at a tap or click,
    and the sheet opens at once."""
    deal_create("flower", today, position=NEARLY_WON, certificate="QS>F KS>F")
    context, page, errors = new_page(browser, live_server, "/play/flower/", screen=screen, locale=locale)
    try:
        page.evaluate("() => localStorage.setItem('solitaire.howto.seen', '1')")
        start(page, screen)
        _win_by_the_last_move(page, screen)
        planned = page.evaluate(
            "() => Math.max(...document.getAnimations().filter(a => a.effect?.target?.closest?.('.cascade'))"
            ".map(a => a.effect.getComputedTiming().endTime))")
        assert 1000 <= planned <= CELEBRATION_MS, planned
        page.screenshot(path=str(artifacts / f"cards-win-celebration-{screen}-{locale}.png"))
        sheet = page.locator('[data-ref="end"]')
        sheet.wait_for()
        assert page.locator(".cascade").count() == 0
        assert page.evaluate("() => window.__both") == 0, "the sheet covered the cascade"

        # Again, as practice: a tap or click during the cascade skips it and opens the sheet.
        page.locator('[data-ref="again"]').click()
        page.wait_for_selector('[data-play][data-status="playing"][data-version="0"][data-busy="false"]')
        _win_by_the_last_move(page, screen)
        felt = page.locator('[data-ref="board-scroll"]')
        felt.tap(position={"x": 10, "y": 10}) if screen == "phone" else felt.click(position={"x": 10, "y": 10})
        assert page.locator(".cascade").count() == 0, "the tap ended the cascade"
        sheet.wait_for()
        assert not errors, errors
    finally:
        context.close()
