"""Play that feels right: one gesture home, the forced finish in one click,
cards that slide (and do not under reduced motion), a board that fits the
window with every covered card's rank and suit in sight, marks that stand
out from the felt, the win brought into view, a mark on slow answers, the
keyboard on the board after Start. Screenshots of each check go to test-artifacts/."""

from __future__ import annotations

import re

import pytest
from frontend_steps import (
    card_slot,
    certified,
    click_move,
    hold_requests,
    latest_attempt,
    start_attempt,
    target_slot,
    version,
    wait_for_version,
    wait_past_double_click,
    wait_until,
)

import solitaire

BOARD_BOX = (
    "() => { const box = (el) => { const r = el.getBoundingClientRect();"
    " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}; };"
    " return {board: box(document.querySelector('.board-scroll')),"
    " counters: box(document.querySelector('.counters')),"
    " foundations: [...document.querySelectorAll('.slot--foundation')].map(box),"
    " slots: [...document.querySelectorAll('.board .slot')].map(box),"
    " movable: [...document.querySelectorAll('.board .slot--movable .card--movable')].map(box),"
    " scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,"
    " innerWidth: innerWidth, innerHeight: innerHeight}; }"
)

# Cards whose index (rank and suit) the next card of their pile or of the
# bouquet covers in part, its solid ring (a box-shadow's spread) included:
# a covered card must still say what it is.
HIDDEN_INDEXES = (
    "() => { const hidden = [];"
    " const ring = (el) => Math.max(0, ...[...getComputedStyle(el).boxShadow"
    "   .matchAll(/(-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px/g)].map((m) => +m[4]));"
    " const groups = [...document.querySelectorAll('.board .stack, .board__bouquet')];"
    " for (const group of groups) {"
    "  const cards = [...group.querySelectorAll('.card[data-card]')];"
    "  for (let i = 0; i + 1 < cards.length; i++) {"
    "   const r = cards[i + 1].getBoundingClientRect(), s = ring(cards[i + 1]);"
    "   const b = {left: r.left - s, right: r.right + s, top: r.top - s, bottom: r.bottom + s};"
    "   for (const part of cards[i].querySelectorAll('.card__rank, .card__suit')) {"
    "    const a = part.getBoundingClientRect();"
    "    if (a.right > b.left + 0.5 && a.left < b.right && a.bottom > b.top + 0.5 && a.top < b.bottom)"
    "     hidden.push(cards[i].dataset.card + ' ' + part.className + ' ' + Math.round(a.right - b.left));"
    "   }"
    "  } }"
    " return hidden; }"
)


def double_click_home(page, card: str) -> None:
    before = version(page)
    card_slot(page, card).dblclick()
    wait_for_version(page, before + 1)


FINISH_WORDS = {
    "en": {"autofinish": "Send all cards home", "finish": "Finish"},
    "pt-PT": {"autofinish": "Levar todas as cartas às fundações", "finish": "Terminar"},
}


def control_boxes(page) -> dict:
    """Where the buttons of the controls row stand."""
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.controls .button')]"
        ".filter(b => !b.hidden).map(b => { const r = b.getBoundingClientRect();"
        " return [b.dataset.ref, [Math.round(r.x), Math.round(r.y)]]; }))"
    )


def play_to_the_forced_finish(page, game: str) -> tuple[int, int]:
    """Play the certificate: moves home by double-click, others by two clicks,
    until the page offers the forced finish. Returns (clicks, moves played)."""
    clicks = 0
    moves = certified(game)[1].split()
    for number, token in enumerate(moves):
        if page.locator('[data-ref="autofinish"]').is_visible():
            return clicks, number
        if token.endswith(">F"):
            double_click_home(page, token.split(">")[0])
        else:
            click_move(page, token)
        clicks += 1 if token == "R" else 2
    raise AssertionError("the forced finish was never offered")


@pytest.mark.parametrize("game, locale", [("cruel", "en"), ("flower", "pt-PT")])
def test_a_daily_deal_is_won_by_double_clicks_and_the_finish_button(
    game, locale, deals, open_page, screenshot, audit
):
    page = open_page(f"/play/{game}/", locale=locale)
    start_attempt(page)
    controls_before = control_boxes(page)
    clicks, played = play_to_the_forced_finish(page, game)
    attempt = latest_attempt(page)
    assert attempt["forced"], "the API says the rest is forced"
    # Giving up and sending the cards home read differently, and the offer
    # moves no other button.
    words = FINISH_WORDS[locale]
    assert page.locator('[data-ref="autofinish"]').inner_text() == words["autofinish"]
    assert page.locator('[data-ref="finish"]').inner_text() == words["finish"]
    assert words["finish"] not in words["autofinish"]
    assert control_boxes(page) == controls_before
    screenshot(page, f"feel-{game}-{locale}-forced")
    assert audit(page) == []
    page.locator('[data-ref="autofinish"]').click()
    page.wait_for_selector('[data-play][data-status="won"][data-busy="false"]')
    won = latest_attempt(page)
    assert won["status"] == "won" and won["counters"]["moves"] == played + len(attempt["forced"])
    log = page.evaluate(f"() => fetch('/api/v1/attempts/{won['id']}/log').then(r => r.json())")
    assert log["replay_ok"] and log["actions"][-len(attempt["forced"]):] == attempt["forced"]
    # The result comes into view, takes focus, and is announced.
    end = page.locator('[data-ref="end"]')
    end.wait_for()
    page.wait_for_function(
        "() => { const r = document.querySelector('[data-ref=\"end\"]').getBoundingClientRect();"
        " return r.top >= 0 && r.top < innerHeight - 40; }"
    )
    assert page.evaluate("() => document.activeElement.dataset.ref") == "end"
    page.wait_for_function("() => document.getElementById('live-region').textContent.length > 0")
    assert "52" in page.locator("#live-region").inner_text()
    screenshot(page, f"feel-{game}-{locale}-won")
    assert audit(page) == []
    total = clicks + 1
    moves = len(certified(game)[1].split())
    print(f"\n{game}: {total} clicks to win with gestures ({moves} moves)")
    assert total < 2 * moves


def sample_motion(page, action, answered) -> dict:
    """Every card's drawn left/top at each animation frame from `action` until
    1.5 s after `answered()` returns (the server's answer, however slow)."""
    page.evaluate(
        "() => { window.__frames = []; window.__stopAt = Infinity;"
        " const step = () => { const f = {};"
        " for (const c of document.querySelectorAll('.board .card[data-card]')) {"
        " const r = c.getBoundingClientRect(); f[c.dataset.card] = `${Math.round(r.left)},${Math.round(r.top)}`; }"
        " window.__frames.push(f); if (performance.now() < window.__stopAt) requestAnimationFrame(step);"
        " else window.__framesDone = true; };"
        " window.__framesDone = false; requestAnimationFrame(step); }"
    )
    action()
    answered()
    page.evaluate("() => { window.__stopAt = performance.now() + 1500; }")
    page.wait_for_function("() => window.__framesDone", timeout=10_000)
    places: dict[str, set] = {}
    for frame in page.evaluate("() => window.__frames"):
        for card, where in frame.items():
            places.setdefault(card, set()).add(where)
    return places


def redeal_sampled(page) -> dict:
    """Play the certificate's first move (the layout leaves groups of four),
    then redeal, sampling the cards' places frame by frame."""
    first = certified("cruel")[1].split()[0]
    click_move(page, first)
    button = page.locator('[data-ref="redeal"]')
    assert button.is_enabled()
    before = version(page)
    return sample_motion(page, button.click, lambda: wait_for_version(page, before + 1))


def test_a_redeal_is_animated(deals, open_page, screenshot):
    page = open_page("/play/cruel/")
    start_attempt(page)
    places = redeal_sampled(page)
    # Cards travel through places between their old and new ones (a
    # teleport shows two places at most).
    moving = [card for card, seen in places.items() if len(seen) >= 3]
    assert len(moving) >= 20, places
    screenshot(page, "feel-cruel-redealt")


def test_a_card_in_flight_takes_no_click_when_slides_overlap(deals, open_page):
    """A redraw in the middle of a slide starts a second slide on the same
    cards (here a new window width during a redeal's gather). Until the
    last of them ends, a card in flight lets clicks through to the pile
    under it: it must not catch a click meant for that pile."""
    page = open_page("/play/cruel/")
    start_attempt(page)
    first = certified("cruel")[1].split()[0]
    click_move(page, first)
    before = version(page)
    page.evaluate(
        "() => { window.__caught = new Set(); window.__flying = 0; window.__stopAt = Infinity;"
        " const step = () => { for (const c of document.querySelectorAll('.board .card[data-card]')) {"
        " if (!c.getAnimations().some((a) => a.playState === 'running')) continue;"
        " window.__flying += 1;"
        " if (getComputedStyle(c).pointerEvents !== 'none') window.__caught.add(c.dataset.card); }"
        " if (performance.now() < window.__stopAt) requestAnimationFrame(step); else window.__done = true; };"
        " window.__done = false; requestAnimationFrame(step); }")
    page.locator('[data-ref="redeal"]').click()
    page.set_viewport_size({"width": 1100, "height": 800})  # the board redrawn at another size
    wait_for_version(page, before + 1)
    page.evaluate("() => { window.__stopAt = performance.now() + 1500; }")
    page.wait_for_function("() => window.__done", timeout=10_000)
    flying, caught = page.evaluate("() => [window.__flying, [...window.__caught]]")
    assert flying > 0, "no card was seen in flight"
    assert caught == [], f"cards in flight that would catch a click: {caught}"


def test_a_redeal_is_not_animated_under_reduced_motion(deals, browser, live_server, screenshot):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/play/cruel/")
        start_attempt(page)
        places = redeal_sampled(page)
        assert all(len(seen) <= 2 for seen in places.values()), {
            c: s for c, s in places.items() if len(s) > 2}
        assert any(len(seen) == 2 for seen in places.values()), "the cards were redealt"
        screenshot(page, "feel-cruel-redealt-reduced-motion")
    finally:
        context.close()


@pytest.mark.parametrize("game", ["cruel", "flower"])
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_the_whole_board_fits_a_laptop_screen(game, locale, deals, open_page, screenshot):
    page = open_page(f"/play/{game}/", locale=locale, width=1280, height=800)
    start_attempt(page)
    boxes = page.evaluate(BOARD_BOX)
    assert boxes["board"]["bottom"] <= 800, boxes["board"]
    assert boxes["counters"]["top"] >= 0 and boxes["counters"]["bottom"] <= 800
    for box in boxes["foundations"] + boxes["slots"]:
        assert 0 <= box["top"] and box["bottom"] <= 800 and box["right"] <= 1280, box
    assert boxes["scrollHeight"] <= 800 and boxes["scrollWidth"] <= 1280, boxes
    # Cards use the room: wider than the old 80 px.
    card = page.locator(".board .card[data-card]").first.bounding_box()
    assert card["width"] >= 84, card
    assert page.evaluate(HIDDEN_INDEXES) == [], "every covered card shows its rank and suit"
    screenshot(page, f"feel-{game}-{locale}-1280x800")


@pytest.mark.parametrize("game", ["cruel", "flower"])
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_phone_shows_the_board_high_without_sideways_scroll(game, locale, deals, browser, live_server, artifacts):
    context = browser.new_context(
        locale=locale, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
        device_scale_factor=2,
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + f"/play/{game}/")
        page.locator('[data-ref="start"]').tap()
        wait_for_version(page, 0)
        boxes = page.evaluate(BOARD_BOX)
        # What the phone shows (a full-page capture would drop the touch emulation).
        page.screenshot(path=str(artifacts / f"feel-{game}-{locale}-390x844.png"))
        assert boxes["scrollWidth"] <= 390, boxes["scrollWidth"]
        assert boxes["board"]["top"] <= 844 / 3, boxes["board"]
        small = [b for b in boxes["slots"] if b["width"] < 44 or b["height"] < 44]
        assert not small, small
        assert boxes["movable"] and all(b["width"] >= 44 and b["height"] >= 44 for b in boxes["movable"])
        assert all(b["right"] <= 390 for b in boxes["slots"])
        assert page.evaluate(HIDDEN_INDEXES) == [], "every covered card shows its rank and suit"
        assert page.locator(".hint--keys").is_hidden(), "no keyboard help on a touch screen"
    finally:
        context.close()


@pytest.mark.parametrize("size", [(1920, 1080), (768, 1024)])
def test_other_screens_show_the_board_without_sideways_scroll(size, deals, open_page, screenshot):
    width, height = size
    for game in ("cruel", "flower"):
        page = open_page(f"/play/{game}/", width=width, height=height)
        start_attempt(page)
        boxes = page.evaluate(BOARD_BOX)
        assert boxes["scrollWidth"] <= width, boxes
        assert all(b["bottom"] <= height for b in boxes["foundations"]), boxes["foundations"]
        assert page.evaluate(HIDDEN_INDEXES) == [], "every covered card shows its rank and suit"
        screenshot(page, f"feel-{game}-{width}x{height}")


def test_a_slow_answer_shows_a_pending_mark_and_queues_input(deals, open_page, screenshot):
    page = open_page("/play/cruel/")
    start_attempt(page)
    first, second = certified("cruel")[1].split()[:2]

    held = hold_requests(page, "**/api/v1/attempts/*/moves")
    card, target = first.split(">")
    card_slot(page, card).click()
    target_slot(page, card, target).click()
    page.wait_for_selector('[data-ref="pending"]:not([hidden])', timeout=1000)
    assert page.locator("[data-play]").get_attribute("data-pending") == "true"
    screenshot(page, "feel-pending")
    # A click meanwhile is queued, not dropped: it selects when the answer is in.
    if second != "R":
        card2 = second.split(">")[0]
        card_slot(page, card2).click()
        assert page.locator("[data-play]").get_attribute("data-queued") == "1"
    wait_until(page, lambda: len(held) == 1, "the move's request was held")
    held[0].continue_()  # the answer comes in
    wait_for_version(page, 1)
    assert page.locator('[data-ref="pending"]').is_hidden()
    if second != "R":
        page.wait_for_function(
            f"() => document.querySelector('.slot[data-card=\"{card2}\"]')?.getAttribute('aria-pressed') === 'true'"
        )


@pytest.mark.parametrize("game", ["cruel", "flower"])
def test_focus_lands_on_the_board_after_start_and_the_board_is_one_tab_stop(game, deals, open_page, audit):
    page = open_page(f"/play/{game}/")
    start_attempt(page)
    assert page.evaluate("() => !!document.activeElement.closest('.board .slot')")
    assert page.locator('.board .slot[tabindex="0"]').count() == 1
    first = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") != first
    assert page.locator('.board .slot[tabindex="0"]').count() == 1
    # Tab leaves the board at once.
    page.keyboard.press("Tab")
    assert page.evaluate("() => !document.activeElement.closest('.board')")
    help_line = page.locator("#board-help").inner_text()
    if game == "flower":
        assert "R redeals" not in help_line and "columns" in help_line
    else:
        assert "R redeals" in help_line and "piles" in help_line
    assert audit(page) == []


def test_the_f_key_sends_the_focused_card_home(deals, open_page):
    page = open_page("/play/flower/")
    start_attempt(page)
    attempt = latest_attempt(page)
    home = next((e["card"] for e in attempt["legal"] if "F" in e["targets"]), None)
    if home is None:
        click_move(page, certified("flower")[1].split()[0])
        attempt = latest_attempt(page)
        home = next(e["card"] for e in attempt["legal"] if "F" in e["targets"])
    before = version(page)
    card_slot(page, home).focus()
    page.keyboard.press("f")
    wait_for_version(page, before + 1)
    assert latest_attempt(page)["last_action"] == f"{home}>F"


def test_settings_are_kept_and_play_safe_moves_and_single_gestures(deals, open_page, screenshot):
    page = open_page("/play/flower/")
    start_attempt(page)
    # Play along the certificate until the API lists safe moves home.
    moves = certified("flower")[1].split()
    played = 0
    while not latest_attempt(page)["safe"]:
        click_move(page, moves[played])
        played += 1
    attempt = latest_attempt(page)
    page.locator('[data-ref="settings"] summary').click()
    screenshot(page, "feel-settings")
    page.locator('[data-setting="autoSafe"]').check()
    wait_for_version(page, attempt["version"] + len(attempt["safe"]))
    log = page.evaluate(f"() => fetch('/api/v1/attempts/{attempt['id']}/log').then(r => r.json())")
    assert log["actions"][-len(attempt["safe"]):] == attempt["safe"] and log["replay_ok"]

    # One gesture: a card with exactly one listed target plays on one click.
    page.locator('[data-setting="oneGesture"]').check()
    page.locator('[data-ref="settings"] summary').click()
    now = latest_attempt(page)
    single = next((e for e in now["legal"] if len(e["targets"]) == 1), None)
    assert single, now["legal"]
    card_slot(page, single["card"]).click()
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-play]').dataset.version) > v"
        " && document.querySelector('[data-play]').dataset.busy === 'false'", arg=now["version"])
    log = page.evaluate(f"() => fetch('/api/v1/attempts/{attempt['id']}/log').then(r => r.json())")
    assert f"{single['card']}>{single['targets'][0]}" in log["actions"][now["version"]:]

    # Kept in this browser: a reload shows them set.
    page.reload()
    page.wait_for_selector('[data-play][data-busy="false"]')
    assert page.locator('[data-setting="autoSafe"]').is_checked()
    assert page.locator('[data-setting="oneGesture"]').is_checked()


def test_a_double_click_on_a_card_one_click_sends_home_moves_nothing_else(deals, open_page):
    """With one-gesture moves, the first click of a double click already
    sends a card whose only move is home; the second lands on the card that
    lay beneath it, and must neither move nor select that one."""
    page = open_page("/play/cruel/")
    start_attempt(page)
    moves = certified("cruel")[1].split()

    def only_home_on_a_pile():
        attempt = latest_attempt(page)
        piles = attempt["position"]["piles"]
        for entry in attempt["legal"]:
            pile = next(p for p in piles if p and p[-1] == entry["card"])
            if entry["targets"] == ["F"] and len(pile) >= 2:
                # ...and the card beneath can move once it is the top.
                after = solitaire.parse_position(attempt["position"]["notation"]).apply(
                    solitaire.Move.parse(f"{entry['card']}>F"))
                if any(m.token().startswith(pile[-2] + ">") for m in after.legal_moves()):
                    return attempt, entry["card"], pile[-2]
        return attempt, None, None

    played = 0
    attempt, card, beneath = only_home_on_a_pile()
    while card is None:
        click_move(page, moves[played])
        played += 1
        attempt, card, beneath = only_home_on_a_pile()
    page.locator('[data-ref="settings"] summary').click()
    page.locator('[data-setting="oneGesture"]').check()
    page.locator('[data-ref="settings"] summary').click()

    # A double click whose second half comes once the first one's move is
    # drawn, as from a quick server: the browser counts it the second click.
    box = page.locator(f'.card[data-card="{card}"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    wait_for_version(page, attempt["version"] + 1)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    wait_past_double_click(page)
    page.wait_for_selector('[data-play][data-busy="false"][data-queued="0"]')
    after = latest_attempt(page)
    assert after["version"] == attempt["version"] + 1 and after["last_action"] == f"{card}>F"
    selected = page.evaluate("() => document.querySelector('.slot--selected')?.dataset.card ?? null")
    assert selected is None, f"the second click selected {selected}"
    assert any(pile[-1:] == [beneath] for pile in after["position"]["piles"])

    # A click of its own then plays the card, or selects it if it has a choice.
    targets = next(e["targets"] for e in after["legal"] if e["card"] == beneath)
    page.mouse.click(x, y)
    if len(targets) == 1:
        wait_for_version(page, after["version"] + 1)
        assert latest_attempt(page)["last_action"] == f"{beneath}>{targets[0]}"
    else:
        page.locator(f'.slot--selected[data-card="{beneath}"]').wait_for()


def _rgba(text: str) -> tuple[float, float, float, float]:
    parts = [float(p) for p in re.findall(r"[\d.]+", text)[:4]]
    return (*parts[:3], parts[3] if len(parts) == 4 else 1.0)


def _over(colour, ground) -> tuple[float, float, float]:
    r, g, b, a = colour
    return tuple(a * c + (1 - a) * d for c, d in zip((r, g, b), ground))


def _contrast(one, two) -> float:
    """WCAG 2 contrast ratio of two opaque sRGB colours (0-255)."""
    def luminance(rgb):
        lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


MARK_COLOURS = (
    "() => { const style = (q) => { const el = document.querySelector(q); return el && getComputedStyle(el); };"
    " const ring = (q) => { const s = style(q); if (!s) return null;"
    "   const shadows = s.boxShadow.split(/,(?![^(]*\\))/).filter((x) => / 0px 0px 0px /.test(x));"
    "   return shadows.length ? shadows.at(-1).trim().replace(/\\)\\s.*$/, ')') : null; };"
    " return {felt: style('.board-scroll').backgroundColor,"
    "  movable: ring('.slot--movable:not(.slot--selected) .card--movable'),"
    "  selected: ring('.slot--selected .card:last-child'),"
    "  target: style('.slot--target') && style('.slot--target').borderTopColor,"
    "  empty: style('.card--empty') && style('.card--empty').borderTopColor}; }"
)


def test_the_marks_on_the_felt_stand_out_from_it(deals, open_page):
    """Non-text contrast (WCAG 1.4.11, at least 3:1 against the felt): the
    ring of a card that can move, of the selected card, a target's border,
    an empty place's border, as the browser computes them."""
    page = open_page("/play/flower/", width=1280, height=800)
    start_attempt(page)
    movable = page.locator(".slot--movable").first
    movable.click()
    page.locator(".slot--selected").wait_for()
    page.locator(".slot--target").first.wait_for()
    colours = page.evaluate(MARK_COLOURS)
    assert all(colours.values()), colours
    felt = _rgba(colours["felt"])[:3]
    for mark in ("movable", "selected", "target", "empty"):
        ratio = _contrast(_over(_rgba(colours[mark]), felt), felt)
        assert ratio >= 3, (mark, colours[mark], round(ratio, 2))
