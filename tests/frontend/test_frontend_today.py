"""The today page at /: both of today's deals side by side (stacked on a
phone) with the player's state on each, the streaks, the countdown to the
next day, and how each game is played: shown on the first visit, skipped and
remembered, opened again from the help link. Desktop and phone (touch), in
both languages."""

from __future__ import annotations

import re

import pytest
from frontend_steps import DEVICES, api_get, api_post, certified, layout_shift

CASES = [(locale, view) for locale in ("en", "pt-PT") for view in DEVICES]

WORDS = {
    "en": {"title": "How to play Cruel", "flower": "How to play Flower Garden", "new": "Not started yet.",
           "playing": "In play: {n} of 52 cards home.", "won": "Won: 52/52", "finished": "Finished: ",
           "redeal": "redeal", "skip": "Skip", "help": "How to play", "next_flower": "Next: Flower Garden", "done": "Done",
           "rule": "Your first game of each deal counts", "practising": "Practice in play: 0 of 52 cards home.",
           "see": "See your game", "continue": "Continue practice"},
    "pt-PT": {"title": "Como se joga Cruel", "flower": "Como se joga Flower Garden", "new": "Ainda não começou.",
              "playing": "Em jogo: {n} de 52 cartas nas fundações.", "won": "Ganhou: 52/52",
              "finished": "Terminou: ", "redeal": "redistribui", "skip": "Saltar", "help": "Como se joga",
              "next_flower": "A seguir: Flower Garden", "done": "Concluído", "rule": "O seu primeiro jogo de cada distribuição conta",
              "practising": "Treino em jogo: 0 de 52 cartas nas fundações.", "see": "Ver o seu jogo",
              "continue": "Continuar o treino"},
}

@pytest.fixture
def visitor(browser, live_server):
    """visitor(locale, view) -> a Page of a new visitor, touch emulated on the phone; JS errors fail."""
    contexts, errors = [], []

    def make(locale: str, view: str):
        context = browser.new_context(locale=locale, first_visit=True, **DEVICES[view])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.base = live_server.url
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def card_state(page, game: str) -> tuple[str, str]:
    card = page.locator(f'[data-deal="{game}"]')
    return card.get_attribute("data-state"), card.locator('[data-ref="state"]').inner_text()


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_the_today_page_shows_both_deals_above_the_fold_and_how_to_play_on_asking(
        locale, view, deals, today, visitor, screenshot, audit):
    words = WORDS[locale]
    page = visitor(locale, view)
    page.goto(page.base + "/")
    page.wait_for_selector('[data-today][data-loaded="true"]')
    # First visit: nothing to read before the deals (each game teaches itself when first opened).
    howto = page.locator('[data-ref="howto"]')
    page.wait_for_timeout(300)  # the guide, if it opened, would open at once
    assert howto.is_hidden()
    # Both deals' Play within the first screen, on the phone too.
    for game in ("cruel", "flower"):
        box = page.locator(f'[data-deal="{game}"] [data-ref="play"]').bounding_box()
        assert box["y"] + box["height"] <= DEVICES[view]["viewport"]["height"], (game, box)

    # Both deals, not started; the streaks; the countdown; the rule in one sentence.
    for game in ("cruel", "flower"):
        assert card_state(page, game) == ("new", words["new"])
        assert page.locator(f'[data-deal="{game}"] [data-ref="play"]').get_attribute("href") == f"/play/{game}/"
    countdown = page.locator('[data-ref="countdown"]').inner_text()
    assert re.fullmatch(r"\d+\u00a0h \d+\u00a0min|\d+\u00a0min \d+\u00a0s|\d+\u00a0s", countdown), countdown
    assert page.locator('[data-ref="rule"]').inner_text().startswith(words["rule"])
    assert "Semicolon" not in page.locator("main").inner_text()
    boxes = [page.locator(f'[data-deal="{game}"]').bounding_box() for game in ("cruel", "flower")]
    if view == "desktop":
        assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]  # side by side
    else:
        assert boxes[1]["y"] >= boxes[0]["y"] + boxes[0]["height"]  # stacked
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, f"today-{locale}-{view}-new")
    assert audit(page) == []

    # Play: Cruel a few moves (in play), Flower Garden won; the page says so.
    cruel = api_post(page, "/attempts", {"game": "cruel"})
    for token in certified("cruel")[1].split()[:3]:
        cruel = api_post(page, f"/attempts/{cruel['id']}/moves", {"move": token, "version": cruel["version"]})
    flower = api_post(page, "/attempts", {"game": "flower"})
    for token in certified("flower")[1].split():
        flower = api_post(page, f"/attempts/{flower['id']}/moves", {"move": token, "version": flower["version"]})
    assert flower["status"] == "won"
    page.reload()
    page.wait_for_selector('[data-today][data-loaded="true"]')
    assert card_state(page, "cruel") == ("playing", words["playing"].format(n=cruel["counters"]["cards_home"]))
    state, text = card_state(page, "flower")
    assert state == "won" and text.startswith(words["won"]), text
    assert words["redeal"] not in text.lower()  # Flower Garden has no redeals
    assert page.locator('[data-ref="streak"]').inner_text().startswith("1")
    assert page.locator('[data-ref="win-streak"]').inner_text().startswith("1")
    screenshot(page, f"today-{locale}-{view}-played")
    assert audit(page) == []
    # Cruel finished: its record, with its redeals.
    api_post(page, f"/attempts/{cruel['id']}/finish", {})
    page.reload()
    page.wait_for_selector('[data-today][data-loaded="true"]')
    state, text = card_state(page, "cruel")
    assert state == "finished" and text.startswith(words["finished"]), text
    assert api_get(page, "/daily")["date"] == today.isoformat()

    # The help link brings the guide back; a game's own link opens that game's.
    page.get_by_role("button", name=words["help"], exact=True).click()
    howto.wait_for()
    assert page.locator('[data-ref="howto-title"]').inner_text() == words["title"]
    page.keyboard.press("Escape")
    assert howto.is_hidden()
    page.locator('[data-deal="flower"] [data-ref="how"]').click()
    howto.wait_for()
    assert page.locator('[data-ref="howto-title"]').inner_text() == words["flower"]
    screenshot(page, f"today-{locale}-{view}-howto-flower")
    assert audit(page) == []


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_the_days_ranked_result_stays_the_headline_while_practice_is_open(
        locale, view, deals, visitor, screenshot, audit):
    words = WORDS[locale]
    page = visitor(locale, view)
    page.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
    page.goto(page.base + "/")
    page.wait_for_selector('[data-today][data-loaded="true"]')
    ranked = api_post(page, "/attempts", {"game": "flower"})
    for token in certified("flower")[1].split():
        ranked = api_post(page, f"/attempts/{ranked['id']}/moves", {"move": token, "version": ranked["version"]})
    assert ranked["status"] == "won" and ranked["ranked"] is True
    practice = api_post(page, "/attempts", {"game": "flower"})
    assert practice["ranked"] is False and not practice["finished"]
    page.reload()
    page.wait_for_selector('[data-today][data-loaded="true"]')
    # The win is the card's headline; the practice game is a line under it.
    state, text = card_state(page, "flower")
    assert state == "won" and text.startswith(words["won"]), text
    card = page.locator('[data-deal="flower"]')
    play = card.locator('[data-ref="play"]')
    assert play.inner_text() == words["see"]
    assert card.locator('[data-ref="practice-text"]').inner_text() == words["practising"]
    assert card.locator('[data-ref="practice-link"]').inner_text() == words["continue"]
    assert card_state(page, "cruel")[0] == "new"
    screenshot(page, f"today-{locale}-{view}-won-and-practising")
    assert audit(page) == []
    # "See your game" opens the won game, not the practice; the practice is one click on.
    play.click()
    page.wait_for_selector('[data-play][data-loaded="true"]')
    assert page.locator("[data-play]").get_attribute("data-attempt") == str(ranked["id"])
    assert page.locator("[data-play]").get_attribute("data-status") == "won"
    start = page.locator('[data-ref="start"]')
    assert start.inner_text() == words["continue"]
    start.click()
    page.wait_for_selector(f'[data-play][data-attempt="{practice["id"]}"]')
    assert start.is_hidden()
    # The card's practice link opens the practice game.
    page.goto(page.base + "/")
    page.wait_for_selector('[data-today][data-loaded="true"]')
    card.locator('[data-ref="practice-link"]').click()
    page.wait_for_selector(f'[data-play][data-loaded="true"][data-attempt="{practice["id"]}"]')


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_each_game_teaches_itself_when_first_opened_in_a_box_that_keeps_its_height(
        locale, view, deals, visitor, screenshot, audit):
    words = WORDS[locale]
    page = visitor(locale, view)
    page.goto(page.base + "/play/cruel/")
    howto = page.locator('[data-ref="howto"]')
    howto.wait_for()
    page.wait_for_selector('[data-play][data-loaded="true"]')
    assert page.locator('[data-ref="howto-title"]').inner_text() == words["title"]
    assert howto.locator("svg .howto-card").count() >= 8
    screenshot(page, f"howto-{locale}-{view}-cruel-1")
    assert audit(page) == []
    # Cruel's frames only, Next where it was on each; the redeal, Cruel's one idea, among them.
    next_button = page.locator('[data-ref="howto-next"]')
    def place():  # its top and its right edge: where the finger is
        box = next_button.bounding_box()
        return round(box["y"], 1), round(box["x"] + box["width"], 1)

    first = place()
    captions = []
    while next_button.inner_text() != words["done"]:
        next_button.click()
        assert place() == first
        captions.append(page.locator('[data-ref="howto-caption"] span:not([aria-hidden])').inner_text())
    assert any(words["redeal"] in caption.lower() for caption in captions), captions
    assert page.locator('[data-ref="howto-title"]').inner_text() == words["title"]
    next_button.click()
    assert howto.is_hidden()
    page.reload()
    page.wait_for_selector('[data-play][data-loaded="true"]')
    page.wait_for_timeout(300)  # the guide would open at once
    assert howto.is_hidden()
    # Flower Garden's, the first time it is opened.
    page.goto(page.base + "/play/flower/")
    howto.wait_for()
    assert page.locator('[data-ref="howto-title"]').inner_text() == words["flower"]
    page.locator('[data-ref="howto-skip"]').click()
    assert howto.is_hidden()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_the_today_page_does_not_shift_as_it_loads(view, deals, visitor):
    page = visitor("en", view)
    page.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
    page.goto(page.base + "/")
    page.wait_for_load_state("networkidle")
    assert layout_shift(page) < 0.1
