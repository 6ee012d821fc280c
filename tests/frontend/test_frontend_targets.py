"""Small things a player's finger and eye meet, in both languages: on a
phone every link-like button and every Settings choice is a 44 px target;
the quiet Finish button reads as live as Undo (only a disabled button
fades); in History the first of a month is marked otherwise than today."""

from __future__ import annotations

import datetime as dt

import pytest
from certified_deals import deal_create
from frontend_steps import DEVICES, api_play, certified, start_attempt


def heights(page, selector: str) -> list[float]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)")


@pytest.mark.parametrize("locale", ["pt-PT", "en"])
def test_a_phone_s_small_buttons_and_settings_are_finger_sized(locale, deals, device_page, live_server):
    page = device_page(locale, "phone", live_server.url + "/")
    page.wait_for_selector('[data-today][data-loaded="true"]')
    found = heights(page, ".linklike")
    assert len(found) >= 3 and min(found) >= 44, found

    page.goto(live_server.url + "/play/cruel/")
    page.locator('[data-ref="start"]').tap()
    page.wait_for_selector('[data-play][data-version="0"][data-busy="false"]')
    page.locator('[data-ref="settings"] summary').tap()
    labels = heights(page, ".settings__body label")
    assert len(labels) >= 6 and min(labels) >= 44, labels
    boxes = page.eval_on_selector_all('.settings__body input[type="checkbox"]',
                                      "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(boxes) == 3 and min(boxes) >= 24, boxes
    # A tap on a choice's words sets it.
    choice = page.locator('.settings__body label:has([data-setting="autoSafe"])')
    before = page.locator('[data-setting="autoSafe"]').is_checked()
    choice.tap(position={"x": 200, "y": 20})
    assert page.locator('[data-setting="autoSafe"]').is_checked() is not before


@pytest.mark.parametrize("view", list(DEVICES))
def test_the_quiet_finish_reads_as_live_and_only_a_disabled_button_fades(view, deals, device_page, live_server):
    page = device_page("pt-PT", view, live_server.url + "/play/flower/")
    start_attempt(page)
    look = page.evaluate("""() => Object.fromEntries(['undo', 'finish'].map(ref => {
      const b = document.querySelector(`[data-ref="${ref}"]`); const s = getComputedStyle(b);
      return [ref, {disabled: b.disabled, opacity: s.opacity, border: s.borderTopStyle, colour: s.color,
                    edge: s.borderTopColor}]; }))""")
    assert look["undo"]["disabled"] and not look["finish"]["disabled"], look
    assert look["finish"]["opacity"] == "1" and look["finish"]["border"] == "solid", look
    assert look["finish"]["edge"] == look["finish"]["colour"], "its edge as strong as its words"
    assert float(look["undo"]["opacity"]) < 1 and look["undo"]["border"] == "dashed", look


@pytest.mark.parametrize("locale", ["pt-PT", "en"])
def test_history_marks_a_month_s_first_day_otherwise_than_today(locale, deals, today, device_page,
                                                               live_server):
    # The grid starts at the service's first deal: one 40 days back puts a
    # month's first day in it, whatever today is.
    position, certificate = certified("cruel")
    deal_create("cruel", today - dt.timedelta(days=40), position=position, certificate=certificate)
    page = device_page(locale, "desktop", live_server.url + "/history/")
    page.wait_for_selector("[data-history][data-loaded]")
    api_play(page, "cruel", certified("cruel")[1].split())
    page.reload()
    page.wait_for_selector("[data-history][data-loaded]")
    look = page.evaluate("""() => Object.fromEntries(['first', 'today'].map(kind => {
      const d = document.querySelector(`.streak-calendar .streak-day--${kind}:not(.streak-day--${kind === 'first' ? 'today' : 'first'})`);
      const s = getComputedStyle(d);
      return [kind, {outline: s.outlineStyle, shadow: s.boxShadow}]; }))""")
    assert look["today"]["outline"] == "solid", look
    assert look["first"]["outline"] == "none" and "inset" in look["first"]["shadow"], look
