"""No page jumps as it loads: the layout shift Chromium records (the figure
behind Lighthouse's CLS) stays under 0.1 on every page, phone and desktop,
for a player with a history."""

from __future__ import annotations

import pytest
from frontend_steps import certified, click_move, layout_shift, start_attempt

PAGES = ["/", "/history/", "/leaderboard/?game=cruel", "/calendar/cruel/", "/play/cruel/", "/account/"]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_pages_do_not_shift_as_they_load(width, height, deals, open_page, screenshot):
    page = open_page("/play/cruel/", width=width, height=height)
    start_attempt(page)
    click_move(page, certified("cruel")[1].split()[0])
    origin = page.evaluate("() => location.origin")
    shifts = {}
    for path in PAGES:
        page.goto(origin + path)
        page.wait_for_load_state("networkidle")
        shifts[path] = layout_shift(page)
    assert all(value < 0.1 for value in shifts.values()), str(shifts)
    screenshot(page, f"layout-shift-last-page-{width}")
