"""The page shows a move the API listed as legal before the answer arrives,
and corrects itself when the server disagrees: a 409 stale_version from a
second tab on the same attempt (the answer carries the current state), and a
422 illegal_move for a listed move (the server simulated with page.route).
Each time the user is told, and no move is lost or doubled."""

from __future__ import annotations

import json

from frontend_steps import (
    SUIT_INDEX,
    api_get,
    card_slot,
    certified,
    click_move,
    drag,
    drawn_board,
    expected_board,
    hold_requests,
    latest_attempt,
    start_attempt,
    target_slot,
    wait_for_version,
    wait_past_double_click,
    wait_until,
)

import solitaire

MOVES_URL = "**/api/v1/attempts/*/moves"


def hold_moves(page) -> list:
    """Hold every move request of the page until the test lets it go."""
    return hold_requests(page, MOVES_URL)


def wait_held(page, held: list, count: int = 1) -> None:
    wait_until(page, lambda: len(held) >= count, "the page sent a move request")


def pick(page, token: str) -> None:
    """Select the card and choose its target by clicks, without waiting for an answer."""
    card, target = token.split(">")
    card_slot(page, card).click()
    target_slot(page, card, target).click()


def other_listed_move(attempt: dict, not_card: str, still_legal_in) -> str:
    """A move the API lists for `attempt`, of another card than `not_card`,
    that is still legal in the position `still_legal_in` (so the server could
    only refuse it for its version)."""
    legal = {m.token() for m in still_legal_in.legal_moves()}
    for entry in attempt["legal"]:
        if entry["card"] == not_card:
            continue
        for target in entry["targets"]:
            token = f"{entry['card']}>{target}"
            if token in legal:
                return token
    raise AssertionError("the certified deal offers no second move to try")


def test_a_move_from_a_stale_tab_is_corrected_to_the_server_s_state(deals, open_page, screenshot):
    tab_a = open_page("/play/cruel/")
    start_attempt(tab_a)
    # The second tab of the same browser (same session) opens the same attempt.
    tab_b = open_page("/play/cruel/", context=tab_a.context)
    tab_b.wait_for_selector('[data-play][data-version="0"][data-busy="false"]')
    assert tab_b.locator('[data-ref="start"]').is_hidden()
    start = latest_attempt(tab_a)
    position, certificate = certified("cruel")
    first, third = certificate.split()[:2]
    after_first = solitaire.parse_position(position).apply(solitaire.Move.parse(first))
    second = other_listed_move(start, first.split(">")[0], after_first)

    click_move(tab_a, first)  # version 1 on the server; tab B still shows version 0

    held = hold_moves(tab_b)
    pick(tab_b, second)
    wait_held(tab_b, held)
    # Tab B shows its move at once (the API listed it) while the request is out.
    tab_b.wait_for_selector('[data-play][data-version="0+"]')
    card, target = second.split(">")
    shown = drawn_board(tab_b)
    if target == "F":
        assert card in shown["foundations"]
    else:
        assert shown["stacks"][int(target) - 1][-1] == card
    held.pop().continue_()

    # The server answers 409 stale_version with its state: tab B shows that state.
    wait_for_version(tab_b, 1)
    message = tab_b.locator('[data-ref="message"]')
    message.wait_for()
    assert "message--error" in message.get_attribute("class")
    assert "The game changed in another tab; this is its current state." in message.inner_text()
    tab_b.wait_for_function(
        "() => document.querySelector('#alert-region').textContent.includes('another tab')",
    )
    server = latest_attempt(tab_b)
    assert server["version"] == 1
    assert drawn_board(tab_b) == expected_board(server["position"])
    assert drawn_board(tab_b) == drawn_board(tab_a)
    assert tab_b.locator('[data-ref="cards-home"]').inner_text() == f"{server['counters']['cards_home']}/52"
    assert api_get(tab_b, f"/attempts/{server['id']}/log")["actions"] == [first]
    screenshot(tab_b, "play-cruel-en-stale-tab-corrected")

    # Both tabs now play the same next move, B still one version behind:
    # the server answers B's retry as the action already made, not twice.
    click_move(tab_a, third)
    tab_b.unroute(MOVES_URL)
    if third == "R":
        tab_b.locator('[data-ref="redeal"]').click()
    else:
        pick(tab_b, third)
    wait_for_version(tab_b, 2)
    assert tab_b.locator('[data-ref="message"]').is_hidden()
    server = latest_attempt(tab_b)
    assert server["version"] == 2
    assert server["counters"]["moves"] == 2
    assert drawn_board(tab_b) == expected_board(server["position"])
    log = api_get(tab_b, f"/attempts/{server['id']}/log")
    assert log["actions"] == [first, third] and log["replay_ok"] is True


def test_the_card_goes_back_when_the_server_refuses_a_listed_move(deals, open_page, screenshot):
    page = open_page("/play/flower/")
    start_attempt(page)
    start = latest_attempt(page)
    before = drawn_board(page)
    token = certified("flower")[1].split()[0]
    card, target = token.split(">")
    assert target in next(e["targets"] for e in start["legal"] if e["card"] == card), "the API lists it"
    reason = f"Simulated: the server does not allow {card} there."

    held = hold_moves(page)
    pick(page, token)
    wait_held(page, held)
    page.wait_for_selector('[data-play][data-version="0+"]')
    assert drawn_board(page) != before, "the listed move is shown before the answer"
    held.pop().fulfill(
        status=422,
        content_type="application/json",
        body=json.dumps({"error": {
            "code": "illegal_move", "message": reason, "fields": {}, "move": token,
            "reason": "not_one_rank_lower",
        }}),
    )

    # The card is back where it was, and the page says why.
    wait_for_version(page, 0)
    message = page.locator('[data-ref="message"]')
    message.wait_for()
    assert "message--error" in message.get_attribute("class")
    text = message.inner_text()
    assert "That move is not allowed." in text and reason in text
    assert drawn_board(page) == before == expected_board(start["position"])
    assert page.locator('[data-ref="cards-home"]').inner_text() == f"{start['counters']['cards_home']}/52"
    page.wait_for_function(
        "(text) => document.querySelector('#alert-region').textContent.includes(text)", arg=reason,
    )
    assert page.locator(".slot--movable").count() > 0, "the board is playable again"
    screenshot(page, "play-flower-en-server-disagrees")
    assert latest_attempt(page)["version"] == 0

    # With the real server the same move goes through.
    page.unroute(MOVES_URL)
    click_move(page, token)
    server = latest_attempt(page)
    assert server["version"] == 1
    assert drawn_board(page) == expected_board(server["position"])
    assert message.is_hidden()


def test_a_card_dropped_on_another_suit_s_foundation_goes_back(deals, open_page):
    page = open_page("/play/flower/", locale="pt-PT")
    start_attempt(page)
    start = latest_attempt(page)
    card = next(e["card"] for e in start["legal"] if "F" in e["targets"])
    other = next(i for suit, i in SUIT_INDEX.items() if suit != card[1])
    wrong = page.locator(f'.slot[data-kind="foundation"][data-index="{other}"]')
    sent: list = []
    page.on("request", lambda request: sent.append(request.url) if request.url.endswith("/moves") else None)

    card_slot(page, card).click()
    assert "slot--target" in target_slot(page, card, "F").get_attribute("class")
    assert "slot--target" not in wrong.get_attribute("class"), "only the card's own foundation is highlighted"
    wait_past_double_click(page)  # a second click sooner would send it home
    card_slot(page, card).click()  # put it down

    drag(page, card, wrong)
    message = page.locator('[data-ref="message"]')
    message.wait_for()
    assert "message--error" in message.get_attribute("class")
    assert "só vai para a fundação do seu naipe" in message.inner_text()
    assert drawn_board(page) == expected_board(start["position"])
    assert not sent, "nothing to ask the server: F names the card's own foundation"

    drag(page, card, target_slot(page, card, "F"))
    wait_for_version(page, 1)
    assert latest_attempt(page)["last_action"] == f"{card}>F"
