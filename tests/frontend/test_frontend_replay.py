"""The solution's replay can be watched: piles fanned as in play, a move list
in clean cells, play and pause at a speed, cards sliding between steps
(none under reduced motion), and a step named in the address."""

from __future__ import annotations

import datetime as dt

import pytest
from frontend_steps import certified


def _overlaps(boxes: list[dict]) -> list:
    hits = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1 \
                    and a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1:
                hits.append((a["t"], b["t"]))
    return hits


@pytest.mark.parametrize(("locale", "width", "height"), [("en", 1280, 800), ("pt-PT", 390, 844)])
def test_the_replay_can_be_watched(locale, width, height, deals, today, open_page, screenshot, audit):
    yesterday = today - dt.timedelta(days=1)
    total = len(certified("cruel")[1].split())
    page = open_page(f"/replay/cruel/{yesterday.isoformat()}/#step=3", locale=locale, width=width, height=height)
    page.wait_for_selector('[data-replay][data-step="3"]')

    # Each pile fans its cards as in play: every card of a pile at its own x.
    piles = page.evaluate(
        "() => [...document.querySelectorAll('.board .slot[data-kind=stack]')].map(s =>"
        " [...s.querySelectorAll('.card')].map(c => Math.round(c.getBoundingClientRect().left)))"
    )
    assert any(len(p) > 1 for p in piles)
    assert all(len(set(p)) == len(p) for p in piles), piles

    # The move list lays out cleanly: no item over another, numbers included.
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('[data-ref=moves] li')].map(li => {"
        " const r = li.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height, t: li.textContent}; })"
    )
    assert len(boxes) == total and not _overlaps(boxes)
    assert all(b["x"] >= 0 and b["x"] + b["w"] <= width for b in boxes)
    spill = page.evaluate(
        "() => [...document.querySelectorAll('[data-ref=moves] li')].filter(li => {"
        " const r = li.getBoundingClientRect(); const range = document.createRange(); range.selectNodeContents(li);"
        " const t = range.getBoundingClientRect(); return t.right > r.right + 1 || t.left < r.left - 40; })"
        ".map(li => li.textContent)"
    )
    assert spill == [], spill
    screenshot(page, f"replay-step-3-{locale}-{width}")
    assert audit(page) == []

    # Cards slide between steps.
    page.locator('[data-ref="forward"]').click()
    assert page.evaluate("() => document.getAnimations().length") > 0
    assert page.url.endswith("#step=4")

    # Play runs the steps by itself, fast; pause stops it.
    # Under a paused fake clock: the steps' timer runs only as far as the test
    # says (an installed clock also flows with real time, which on a slow
    # machine could step past 6 before the check below looks).
    page.clock.install()
    page.clock.pause_at(dt.datetime.fromtimestamp(page.evaluate("Date.now()") / 1000 + 1, dt.timezone.utc))
    page.locator('[data-ref="speed"]').select_option("400")
    page.locator('[data-ref="play"]').click()
    page.clock.run_for(2 * 400 + 50)
    page.wait_for_selector('[data-replay][data-step="6"]')
    page.locator('[data-ref="play"]').click()
    stopped = page.locator("[data-replay]").get_attribute("data-step")
    page.clock.run_for(10 * 400)
    assert page.locator("[data-replay]").get_attribute("data-step") == stopped
    assert page.url.endswith(f"#step={stopped}")


def test_the_replay_respects_reduced_motion(deals, today, browser, live_server):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(live_server.url + f"/replay/cruel/{(today - dt.timedelta(days=1)).isoformat()}/")
        page.wait_for_selector('[data-replay][data-step="0"]')
        page.locator('[data-ref="forward"]').click()
        assert page.evaluate("() => document.getAnimations().length") == 0
    finally:
        context.close()
