"""Steps of play through the page, as a person does them: click a card, click
where it goes; drag it; press keys. Each waits for the server's answer."""

from __future__ import annotations

from certified_deals import certified as certified_deal

import solitaire

SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}


DOUBLE_MS = 400  # frontend/static/frontend/js/gestures.js: two clicks closer are a double


def wait_until(page, condition, what: str, seconds: float = 15) -> None:
    """Until ``condition()`` (a test-side fact, such as a route handler having
    run) holds; the page's events are handled meanwhile."""
    for _ in range(int(seconds * 50)):
        if condition():
            return
        page.wait_for_timeout(20)  # the polling step: lets Playwright deliver events
    raise AssertionError(f"never happened: {what}")


def hold_requests(page, url: str) -> list:
    """Holds every request to ``url`` until the test calls ``.continue_()`` on
    it: the list fills with the held routes."""
    held: list = []
    page.route(url, lambda route: held.append(route))
    return held


def wait_past_double_click(page) -> None:
    """Until a click now would not make a double click with the last one
    (the page's own clock past DOUBLE_MS since now)."""
    since = page.evaluate("() => performance.now()")
    page.wait_for_function("(since) => performance.now() - since > %d" % DOUBLE_MS, arg=since)


def version(page) -> int:
    text = page.locator("[data-play]").get_attribute("data-version") or ""
    return int(text.rstrip("+"))


def wait_for_version(page, expected: int) -> None:
    """Wait for the server's answer at this version; if it never comes, fail
    saying what the page shows instead (its version, selection and message)."""
    try:
        page.wait_for_selector(f'[data-play][data-version="{expected}"][data-busy="false"]')
    except Exception as error:  # playwright's TimeoutError: say what the page shows
        shown = page.evaluate(
            "() => { const p = document.querySelector('[data-play]');"
            " const sel = document.querySelector('.slot--selected');"
            " const msg = document.querySelector('[data-ref=\"message\"]');"
            " return {version: p.dataset.version, busy: p.dataset.busy, queued: p.dataset.queued,"
            " selected: sel && sel.dataset.card, message: msg && msg.textContent.trim()}; }"
        )
        raise AssertionError(f"version {expected} never shown; the page shows {shown}") from error


def start_attempt(page) -> None:
    page.locator('[data-ref="start"]').click()
    page.wait_for_selector('[data-play][data-version="0"][data-busy="false"]')


def confirm_finish(page) -> None:
    """Answer the question asked before a ranked attempt that can still be played is finished."""
    dialog = page.locator('[data-ref="finish-dialog"]')
    dialog.wait_for()
    dialog.locator('[data-ref="finish-dialog-confirm"]').click()


def card_slot(page, card: str):
    return page.locator(f'.slot[data-card="{card}"]')


def target_slot(page, card: str, target: str):
    if target == "F":
        return page.locator(f'.slot[data-kind="foundation"][data-index="{SUIT_INDEX[card[1]]}"]')
    return page.locator(f'.slot[data-kind="stack"][data-index="{int(target) - 1}"]')


def send_move(page, token: str, *, see_selection: bool = True) -> None:
    """Play one move by clicks (R by the Redeal button), not waiting for the
    answer. see_selection=False: click the target without waiting to see the
    card selected (under page.clock the page draws no frame to see)."""
    if token == "R":
        page.locator('[data-ref="redeal"]').click()
    else:
        card, target = token.split(">")
        card_slot(page, card).click()
        if see_selection:  # as a person does: the target once the card shows selected
            page.locator(f'.slot--selected[data-card="{card}"]').wait_for()
        target_slot(page, card, target).click()


def click_move(page, token: str) -> None:
    """Play one move by clicks and wait for the answer."""
    before = version(page)
    send_move(page, token)
    wait_for_version(page, before + 1)


def drag(page, card: str, target_locator) -> None:
    source = page.locator(f'.card[data-card="{card}"]').bounding_box()
    goal = target_locator.bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + 12)
    page.mouse.down()
    page.mouse.move(source["x"] + source["width"] / 2 + 10, source["y"] + 20, steps=3)
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    page.mouse.up()


def counters(page) -> dict:
    read = lambda ref: page.locator(f'[data-ref="{ref}"]').inner_text().strip()  # noqa: E731
    return {"cards_home": read("cards-home"), "redeals": read("redeals"), "undos": read("undos")}


def api_get(page, path: str) -> dict:
    """GET an API path with the page's own session (its player)."""
    return page.evaluate(f"() => fetch('/api/v1{path}', {{headers: {{Accept: 'application/json'}}}}).then(r => r.json())")


def latest_attempt(page) -> dict:
    """The player's latest attempt on today's deal of the page's game, as the API has it now."""
    game = page.locator("[data-play]").get_attribute("data-game")
    daily = api_get(page, "/daily")
    summary = next(d for d in daily["deals"] if d["game"] == game)["my_attempts"][-1]
    return api_get(page, f"/attempts/{summary['id']}")


def drawn_board(page) -> dict:
    """What the board shows: each pile or column base to top, the bouquet, the foundations' tops."""
    return page.evaluate(
        "() => ({stacks: [...document.querySelectorAll('.board .slot[data-kind=stack]')]"
        ".map(s => [...s.querySelectorAll('.stack .card')].map(c => c.dataset.card)),"
        " bouquet: [...document.querySelectorAll('.board .slot[data-kind=bouquet]')].map(s => s.dataset.card),"
        " foundations: [...document.querySelectorAll('.board .slot[data-kind=foundation] .card[data-card]')]"
        ".map(c => c.dataset.card)})"
    )


def expected_board(position: dict) -> dict:
    stacks = position.get("piles") or position.get("columns")
    return {
        "stacks": stacks,
        "bouquet": position.get("bouquet", []),
        "foundations": [f["top"] for f in position["foundations"] if f["top"]],
    }


def certified(game: str) -> tuple[str, str]:
    """The certified deal the page tests play (tests/certified_deals.py):
    for Cruel one whose solution redeals, so that a win through clicks uses
    the Redeal button too."""
    return certified_deal(game, with_redeal=True)


def api_play(page, game: str, moves: list[str], *, date: str | None = None, batch: bool = False) -> int:
    """An attempt played through the API with the page's session (today's
    ranked one, or a practice one on a past ``date``), one move a call or
    all in one ``batch``, then finished: its id."""
    return page.evaluate(
        """async ([game, moves, date, batch]) => {
          const token = () => document.cookie.split('; ').find((c) => c.startsWith('csrftoken='))?.slice(10);
          const call = async (path, body) => {
            const r = await fetch('/api/v1' + path, {method: 'POST', body: JSON.stringify(body), headers: {
              'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRFToken': token()}});
            if (!r.ok) throw new Error(path + ' ' + r.status + ' ' + await r.text());
            return r.json();
          };
          let attempt = await call('/attempts', date ? {game, date} : {game});
          if (batch) attempt = await call(`/attempts/${attempt.id}/moves`, {moves, version: attempt.version});
          else for (const move of moves) attempt = await call(`/attempts/${attempt.id}/moves`, {move, version: attempt.version});
          if (!attempt.finished) await call(`/attempts/${attempt.id}/finish`, {});
          return attempt.id;
        }""",
        [game, moves, date, batch],
    )


# Two kinds of device: a desktop, and a phone with touch (as a phone reports itself).
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}


def api_post(page, path: str, body: dict) -> dict:
    """POST to an API path with the page's own session and CSRF token."""
    return page.evaluate(
        """([path, body]) => fetch('/api/v1' + path, {method: 'POST', body: JSON.stringify(body),
             headers: {'Content-Type': 'application/json', 'Accept': 'application/json',
                       'X-CSRFToken': document.cookie.match(/csrftoken=([^;]+)/)[1]}}).then(r => r.json())""",
        [path, body])


def layout_shift(page) -> float:
    """The page's cumulative layout shift so far and over 1.5 s more, the
    shifts that follow an input left out (as Lighthouse counts them)."""
    return page.evaluate("""() => new Promise((resolve) => {
      let total = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
      }).observe({type: 'layout-shift', buffered: true});
      setTimeout(() => resolve(total), 1500);
    })""")


def move_words(token: str, words: dict) -> str:
    """How the page writes a move: 10\u2666 \u2192 3, 5\u2663 \u2192 foundation, redeal
    (``words``: the page's "redeal" and "foundation" in its language)."""
    if token == "R":
        return words["redeal"]
    card, target = token.split(">")
    name = solitaire.card_name(solitaire.parse_card(card))
    return f"{name} \u2192 {words['foundation'] if target == 'F' else target}"
