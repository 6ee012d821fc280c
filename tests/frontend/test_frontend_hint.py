"""A hint in the page: offered on practice attempts only, from the API's solver."""

from __future__ import annotations

import datetime as dt
import json

from frontend_steps import api_get, confirm_finish, latest_attempt, start_attempt

import solitaire


def shown(token: str, locale: str) -> str:
    """How a hint names a move, in words: "10\u2666 onto column 3.", "5\u2663 to
    its foundation." (cards named as solitaire.card_name names them)."""
    card, target = token.split(">")
    name = solitaire.card_name(solitaire.parse_card(card))
    if locale == "en":
        return f"{name} to its foundation." if target == "F" else f"{name} onto column {target}."
    return f"{name} para a sua fundação." if target == "F" else f"{name} sobre a coluna {target}."


def test_a_past_day_s_practice_offers_a_hint_and_today_s_deal_does_not(
        deals, open_page, screenshot, today):
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    for locale, word, width in (("en", "Hint: ", 1280), ("pt-PT", "Dica: ", 390)):
        page = open_page("/play/flower/", locale=locale, width=width, height=844)  # a new visitor
        start_attempt(page)  # the ranked attempt
        hint = page.locator('[data-ref="hint"]')
        assert latest_attempt(page)["ranked"] is True
        assert hint.is_hidden(), "no hint on a ranked attempt in play"
        page.locator('[data-ref="finish"]').click()
        confirm_finish(page)
        page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
        page.locator('[data-ref="again"]').click()
        page.wait_for_selector('[data-play][data-status="playing"][data-version="0"][data-busy="false"]')
        today_s = next(d for d in api_get(page, "/daily")["deals"] if d["game"] == "flower")
        practice = next(a for a in today_s["my_attempts"] if not a["ranked"])
        # Today's deal is sealed until its day ends: no button, and the API agrees.
        assert hint.is_hidden(), "no hint on today's deal while its day lasts"
        refused = page.evaluate(
            "(id) => fetch(`/api/v1/attempts/${id}/hint`).then(r => r.json())", practice["id"])
        assert refused["error"]["code"] == "hints_sealed"

        # A past day's deal, in practice: the hint is offered.
        page.goto(f"{page.url.split('/play/')[0]}/play/flower/{yesterday}/")
        start_attempt(page)
        mine = api_get(page, f"/daily/{yesterday}/flower")["my_attempts"]
        attempt = api_get(page, f"/attempts/{mine[0]['id']}")
        assert attempt["ranked"] is False
        assert attempt["status"] == "playing" and attempt["version"] == 0
        hint.wait_for()
        hint.click()
        message = page.locator('[data-ref="message"]')
        # "Looking for a hint…" while the solver searches; then the hint.
        page.wait_for_function(
            "(word) => document.querySelector('[data-ref=\"message\"]')?.textContent.startsWith(word)",
            arg=word)
        text = message.inner_text()
        answer = api_get(page, f"/attempts/{attempt['id']}/hint")
        assert answer["status"] == "solved"
        listed = {f"{e['card']}>{t}" for e in attempt["legal"] for t in e["targets"]}
        assert answer["move"] in listed
        assert text == word + shown(answer["move"], locale)
        # On the board: the card's place and where it goes light up.
        card, target = answer["move"].split(">")
        lit = page.evaluate(
            "() => [...document.querySelectorAll('.board .slot--hint')].map(s => s.dataset.kind + ':' + s.dataset.index)"
        )
        goal = "foundation:" + str("CDHS".index(card[1])) if target == "F" else f"stack:{int(target) - 1}"
        source = page.evaluate(
            "(card) => { const s = document.querySelector(`.board .slot[data-card=\"${card}\"]`);"
            " return s.dataset.kind + ':' + s.dataset.index; }", card,
        )
        assert sorted(lit) == sorted({source, goal}), (lit, source, goal)
        screenshot(page, f"hint-on-board-{locale}-{width}")
        page.wait_for_function(
            "(text) => document.querySelector('#live-region').textContent.includes(text)", arg=text,
        )


def test_a_hint_the_api_refuses_takes_the_button_away(deals, open_page, today):
    """When the API refuses a hint the page offered (the rules changed under
    it, say): the page says why once and stops offering the button for that
    attempt."""
    page = open_page(f"/play/flower/{(today - dt.timedelta(days=1)).isoformat()}/")
    start_attempt(page)  # practice on a past day's deal: hints are offered
    hint = page.locator('[data-ref="hint"]')
    assert hint.is_visible()
    refusal = {"error": {"code": "hint_not_for_ranked", "fields": {},
                         "message": "No hints on this deal while your ranked attempt on it is being played."}}
    page.route("**/api/v1/attempts/*/hint", lambda route: route.fulfill(
        status=403, content_type="application/json", body=json.dumps(refusal)))
    hint.click()
    message = page.locator('[data-ref="message"]')
    message.wait_for()
    assert "ranked attempt" in message.inner_text()
    hint.wait_for(state="hidden")
    # Still the same attempt, still playable.
    assert page.locator('[data-play]').get_attribute("data-status") == "playing"


def test_a_hint_the_solver_still_searches_for_is_asked_for_again(deals, open_page, today):
    """202 pending: the page says it is looking, stays playable, and asks
    again after a moment until the hint comes."""
    for locale, looking, word, width in (("pt-PT", "À procura de uma dica…", "Dica: ", 390),
                                         ("en", "Looking for a hint…", "Hint: ", 1280)):
        page = open_page(f"/play/flower/{(today - dt.timedelta(days=1)).isoformat()}/",
                         locale=locale, width=width, height=844)
        start_attempt(page)
        asked = []

        def first_pending(route):
            asked.append(route.request.url)
            if len(asked) == 1:
                route.fulfill(status=202, content_type="application/json", headers={"Retry-After": "2"},
                              body=json.dumps({"status": "pending", "move": None, "version": 0}))
            else:
                route.fallback()

        page.route("**/api/v1/attempts/*/hint", first_pending)
        page.locator('[data-ref="hint"]').click()
        message = page.locator('[data-ref="message"]')
        page.wait_for_function(
            "(text) => document.querySelector('[data-ref=\"message\"]')?.textContent === text",
            arg=looking)
        assert page.locator('[data-play]').get_attribute("data-status") == "playing"
        page.wait_for_function(
            "(word) => document.querySelector('[data-ref=\"message\"]')?.textContent.startsWith(word)",
            arg=word)
        assert len(asked) >= 2 and message.inner_text().startswith(word)
