"""A move whose answer never arrives: the page asks again with the same
version (the API answers what it already has as `replayed`), or takes the
attempt as the server has it, without a word about other tabs; another tab
brings itself up to date when it comes back to the front."""

from __future__ import annotations

import re

from frontend_steps import (
    certified,
    click_move,
    hold_requests,
    latest_attempt,
    send_move,
    start_attempt,
    wait_for_version,
    wait_until,
)

ATTEMPT = re.compile(r"/api/v1/attempts/\d+$")


def message(page) -> str:
    box = page.locator('[data-ref="message"]')
    return "" if box.is_hidden() else box.inner_text().strip()


def test_a_lost_answer_is_asked_for_again_and_applied_once(deals, open_page, screenshot):
    page = open_page("/play/cruel/", locale="pt-PT")
    start_attempt(page)
    first = certified("cruel")[1].split()[0]
    lost = []

    def lose_the_first_answer(route):
        if not lost:
            lost.append(route.fetch().status)  # the server applies it; the page never hears
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/attempts/*/moves", lose_the_first_answer)
    send_move(page, first)
    wait_for_version(page, 1)
    assert lost == [200]
    server = latest_attempt(page)
    assert server["version"] == 1 and server["counters"]["moves"] == 1 and server["last_action"] == first
    assert message(page) == ""
    screenshot(page, "lost-answer-retried-pt-PT")


def test_a_move_after_every_answer_was_lost_goes_on_silently(deals, open_page, screenshot):
    page = open_page("/play/cruel/", locale="pt-PT")
    start_attempt(page)
    first = certified("cruel")[1].split()[0]
    cut = {"on": True}

    def moves(route):
        if cut["on"]:
            route.fetch()  # applied on the server; every retry lost as well
            route.abort("connectionreset")
        else:
            route.continue_()

    def attempt(route):
        if cut["on"] and route.request.method == "GET":
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/attempts/*/moves", moves)
    page.route(ATTEMPT, attempt)
    send_move(page, first)
    page.wait_for_selector('[data-play][data-version="0"][data-busy="false"]')
    assert "separador" not in message(page)

    # The connection is back; the player plays the move again, from the old
    # version: the server has it already, and the page just goes on.
    cut["on"] = False
    send_move(page, first)
    wait_for_version(page, 1)
    assert message(page) == ""
    server = latest_attempt(page)
    assert server["version"] == 1 and server["counters"]["moves"] == 1
    second = certified("cruel")[1].split()[1]
    click_move(page, second)
    assert message(page) == ""
    screenshot(page, "lost-answer-recovered-pt-PT")


def test_another_tab_refreshes_when_it_comes_back(deals, browser, live_server, screenshot):
    context = browser.new_context(locale="en", viewport={"width": 1280, "height": 900})
    try:
        first_tab = context.new_page()
        first_tab.goto(live_server.url + "/play/cruel/")
        start_attempt(first_tab)
        second_tab = context.new_page()
        second_tab.goto(live_server.url + "/play/cruel/")
        wait_for_version(second_tab, 0)
        click_move(first_tab, certified("cruel")[1].split()[0])
        second_tab.bring_to_front()
        second_tab.evaluate("() => window.dispatchEvent(new Event('focus'))")
        wait_for_version(second_tab, 1)
        assert message(second_tab) == ""
        screenshot(second_tab, "second-tab-refreshed-en")
    finally:
        context.close()


def test_the_other_movable_cards_keep_their_ring_while_an_answer_is_slow(deals, open_page, screenshot):
    page = open_page("/play/cruel/")
    start_attempt(page)
    first = certified("cruel")[1].split()[0]
    rung = page.evaluate("() => [...document.querySelectorAll('.board .slot--movable')].map(s => s.dataset.card)")
    held = hold_requests(page, "**/api/v1/attempts/*/moves")
    send_move(page, first)
    page.wait_for_selector('[data-play][data-pending="true"]')
    ringed = page.evaluate("() => [...document.querySelectorAll('.board .slot--ring')].map(s => s.dataset.card)")
    moved = first.split(">")[0]
    assert ringed and set(ringed) <= set(rung) - {moved}, (ringed, rung)
    screenshot(page, "pending-rings-kept")
    wait_until(page, lambda: len(held) == 1, "the move's request was held")
    held[0].continue_()  # the answer comes in
    wait_for_version(page, 1)
    assert page.locator(".board .slot--ring").count() == 0
