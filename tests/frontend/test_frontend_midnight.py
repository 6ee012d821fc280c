"""Midnight in the daily time zone with the page open: both clocks are
controlled (the server's by patching api.clock.now, the page's by
Playwright's clock). The page says the new deal is ready with one click to
it, the countdown goes on to the next midnight instead of resting at zero,
and yesterday's ranked attempt can still be finished, its record as it
stood at midnight."""

from __future__ import annotations

import datetime as dt
import re

from conftest import deal_create
from frontend_steps import api_get, certified, click_move, latest_attempt, send_move, start_attempt

from api import clock


def test_a_new_day_is_announced_with_a_link_and_yesterdays_attempt_can_be_finished(
    transactional_db, browser, open_page, monkeypatch, screenshot, audit
):
    zone = clock.daily_zone()
    day = clock.day_of(clock.now())
    before = dt.datetime.combine(day, dt.time(23, 59, 0), tzinfo=zone)
    for game in ("cruel", "flower"):
        deal_create(game, day)
        deal_create(game, day + dt.timedelta(days=1))
    moment = {"now": before}
    monkeypatch.setattr(clock, "now", lambda: moment["now"])

    context = browser.new_context(locale="en", viewport={"width": 1280, "height": 900})
    try:
        context.clock.install(time=before)
        page = open_page("/play/cruel/", context=context)
        countdown = page.locator('[data-ref="countdown"]').first
        page.wait_for_function("() => /\\bs$/.test(document.querySelector('[data-ref=\"countdown\"]').textContent)")
        assert re.fullmatch(r"\d+\u00a0s|1\u00a0min 0\u00a0s", countdown.inner_text()), countdown.inner_text()
        start_attempt(page)
        click_move(page, certified("cruel")[1].split()[0])
        ranked = latest_attempt(page)
        record = ranked["counters"]

        # Midnight: the server's day changes, the page's clock passes zero.
        moment["now"] = before + dt.timedelta(seconds=75)
        page.clock.fast_forward(75_000)
        notice = page.locator('[data-ref="new-day"]')
        notice.wait_for()
        tomorrow = day + dt.timedelta(days=1)
        words = tomorrow.strftime(f"{tomorrow.day} %B %Y")
        assert page.locator('[data-ref="new-day-text"]').inner_text() == (
            f"A new day has begun: the deal of {words} is ready.")
        page.clock.fast_forward(2_000)
        left = countdown.inner_text()
        assert re.fullmatch(r"23\u00a0h 5\d\u00a0min", left), f"the countdown goes on: {left}"
        screenshot(page, "play-cruel-en-midnight")
        assert audit(page) == []

        # Yesterday's ranked attempt: no move any more, finished as it stood.
        send_move(page, certified("cruel")[1].split()[1], see_selection=False)
        page.wait_for_function(
            "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('midnight')")
        page.wait_for_selector('[data-play][data-frozen="true"][data-busy="false"]')
        assert page.locator('[data-ref="undo"]').is_disabled()
        page.locator('[data-ref="finish"]').click()  # frozen: no question to answer
        page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
        final = api_get(page, f"/attempts/{ranked['id']}")
        assert final["finished"] and final["ranked"] and final["counters"] == record
        assert page.locator('[data-ref="finish-dialog"]').is_hidden()

        # The results sheet of the finished attempt comes first; closed, one click to the new deal.
        page.locator('[data-ref="end"]').wait_for()
        page.locator('[data-ref="end-close"]').click()
        notice.get_by_role("link", name="Play today's deal").click()
        page.wait_for_selector('[data-ref="start"]:not([hidden])')
        assert page.locator('[data-ref="deal-date"]').inner_text() == words
        assert page.locator('[data-ref="ranked-note"]').is_visible()
    finally:
        context.close()
