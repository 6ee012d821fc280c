"""A player's leagues where the day is played: under each deal on the today
page ("1st of 1 in Os da Sé", or how many have played) and in the results
sheet after a ranked game, in both languages, on a desktop and a phone."""

from __future__ import annotations

import pytest
from frontend_steps import api_play, api_post, certified

PASSWORD = "a long enough pass phrase 42"
WORDS = {
    "en": {"first": "1st of 1 in Os da Sé", "none": "Os da Sé: 0 of 2 have played",
           "one": "Os da Sé: 1 of 2 have played"},
    "pt-PT": {"first": "1.º de 1 em Os da Sé", "none": "Os da Sé: jogaram 0 de 2",
              "one": "Os da Sé: jogaram 1 de 2"},
}


@pytest.fixture
def people(device_page, live_server):
    """people(name, locale, view) -> a Page of a newly registered player on the today page."""

    def make(name: str, locale: str = "en", view: str = "desktop"):
        page = device_page(locale, view, live_server.url + "/")
        page.wait_for_selector('[data-today][data-loaded="true"]')
        me = api_post(page, "/auth/register", {"username": name.lower(), "password": PASSWORD,
                                              "display_name": name})
        assert me.get("display_name") == name, me
        return page

    return make


def leagues_under(page, game: str) -> list[str]:
    return page.locator(f'[data-deal="{game}"] [data-ref="leagues"] li').all_inner_texts()


@pytest.mark.parametrize(("locale", "view"), [("en", "desktop"), ("pt-PT", "phone")])
def test_the_today_page_and_the_results_sheet_give_the_place_in_each_league(
        locale, view, deals, people, screenshot, audit):
    words = WORDS[locale]
    alice = people("Alice", locale, view)
    league = api_post(alice, "/leagues", {"name": "Os da Sé"})
    bob = people("Bob")
    assert api_post(bob, "/leagues/join", {"code": league["invite_code"]})["member_count"] == 2
    # Bob's ranked Flower Garden: one move, then finished; Cruel: nobody yet.
    api_play(bob, "flower", certified("flower")[1].split()[:1])

    alice.reload()
    alice.wait_for_selector('[data-today][data-loaded="true"]')
    assert leagues_under(alice, "cruel") == [words["none"]]
    assert leagues_under(alice, "flower") == [words["one"]]
    link = alice.locator('[data-deal="cruel"] [data-ref="leagues"] a')
    assert link.get_attribute("href") == f"/leagues/?league={league['id']}"
    screenshot(alice, f"today-leagues-{locale}-{view}")
    assert audit(alice) == []

    # Alice wins her ranked Cruel: the first of the members who played, in the sheet.
    alice.goto(alice.url.rstrip("/") + "/play/cruel/")
    alice.wait_for_selector('[data-play][data-loaded="true"]')
    attempt = api_post(alice, "/attempts", {"game": "cruel"})
    for token in certified("cruel")[1].split():
        attempt = api_post(alice, f"/attempts/{attempt['id']}/moves",
                           {"move": token, "version": attempt["version"]})
        if attempt["forced"]:
            break
    alice.reload()
    finish = alice.locator('[data-ref="autofinish"]')
    finish.tap() if view == "phone" else finish.click()
    sheet = alice.locator('[data-ref="end"]')
    alice.wait_for_selector('[data-ref="end"][data-ready]')
    assert sheet.locator('[data-ref="leagues"] li').all_inner_texts() == [words["first"]]
    screenshot(alice, f"results-leagues-{locale}-{view}")

    bob.reload()
    bob.wait_for_selector('[data-today][data-loaded="true"]')
    assert leagues_under(bob, "cruel") == [WORDS["en"]["one"]]
    assert leagues_under(bob, "flower") == [WORDS["en"]["first"]]


def test_a_practice_game_and_a_player_without_leagues_show_none(deals, people, analysis_in_process):
    carol = people("Carol")
    assert carol.locator('[data-ref="leagues"]').evaluate_all("ls => ls.every(l => l.hidden)")
    api_post(carol, "/leagues", {"name": "Solo"})
    api_play(carol, "cruel", certified("cruel")[1].split()[:2],
             date=deals["cruel-yesterday"].date.isoformat())
    carol.goto(carol.url.rstrip("/") + "/play/cruel/" + deals["cruel-yesterday"].date.isoformat() + "/")
    carol.wait_for_selector('[data-play][data-loaded="true"]')
    carol.locator('[data-ref="show-end"]').click()
    carol.wait_for_selector('[data-ref="end"][data-ready]')
    assert carol.locator('[data-ref="end"] [data-ref="leagues"]').is_hidden()
