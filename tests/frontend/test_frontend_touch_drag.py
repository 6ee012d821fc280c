"""Real touch events (CDP Input.dispatchTouchEvent, as a finger sends them):
a drag, then at once a tap, on a card and on a button. No tap after a drag
is lost."""

from __future__ import annotations

import pytest
from frontend_steps import card_slot, certified, latest_attempt, target_slot, wait_for_version

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone_page(browser, live_server, deals):
    context = browser.new_context(locale="en", viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/play/cruel/")
    yield page
    context.close()
    assert not errors, errors


class Finger:
    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4, "force": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def centre(self, locator) -> tuple[float, float]:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 30)

    def drag(self, source, goal, steps: int = 8) -> None:
        x0, y0 = self.centre(source)
        x1, y1 = self.centre(goal)
        self.send("touchStart", x0, y0)
        for i in range(1, steps + 1):
            self.send("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.send("touchEnd")

    def tap(self, locator) -> None:
        x, y = self.centre(locator)
        self.send("touchStart", x, y)
        self.send("touchEnd")


def test_a_tap_right_after_a_touch_drag_is_not_lost(phone_page, deals, screenshot):
    page = phone_page
    page.locator('[data-ref="start"]').tap()
    wait_for_version(page, 0)
    finger = Finger(page)
    first, second = certified("cruel")[1].split()[:2]

    card, target = first.split(">")
    finger.drag(page.locator(f'.card[data-card="{card}"]'), target_slot(page, card, target))
    wait_for_version(page, 1)
    assert latest_attempt(page)["last_action"] == first

    # At once a tap on a card selects it, and a tap on its target plays it.
    card, target = second.split(">")
    finger.tap(card_slot(page, card))
    page.locator(f'.slot--selected[data-card="{card}"]').wait_for(timeout=1500)
    finger.tap(target_slot(page, card, target))
    wait_for_version(page, 2)
    screenshot(page, "touch-drag-then-tap-card")

    # A drag, then at once a tap on Redeal.
    third = certified("cruel")[1].split()[2]
    if third != "R" and ">" in third:
        card, target = third.split(">")
        finger.drag(page.locator(f'.card[data-card="{card}"]'), target_slot(page, card, target))
        wait_for_version(page, 3)
    before = int(page.locator("[data-play]").get_attribute("data-version"))
    sent: list = []
    page.on("request", lambda r: sent.append(r.post_data) if r.url.endswith("/moves") else None)
    finger.tap(page.locator('[data-ref="redeal"]'))
    wait_for_version(page, before + 1)
    screenshot(page, "touch-drag-then-tap-redeal")
    # A late native click of that tap would act a second time. Touches are
    # handled in order: once a later tap on a card has selected it, any
    # click of the first tap has been handled too.
    finger.tap(page.locator(".board .slot--movable").first)
    page.wait_for_selector(".board .slot--selected")
    assert len(sent) == 1 and '"R"' in sent[0], sent
    server = latest_attempt(page)
    assert server["last_action"] == "R" and server["version"] == before + 1
