"""The end of a game as a results sheet: after a win and after a loss, on a
desktop and a phone (touch), in both languages. The record (redeals for Cruel
only), rank and share beaten, the streaks and win rate, the day's
distribution of cards home, par; after a loss the losing move and "try again
from here", which starts a practice attempt at the position before that move.
The share text is shown whole."""

from __future__ import annotations

import re

import pytest
from certified_deals import known_loss
from frontend_steps import (
    DEVICES,
    api_get,
    api_post,
    certified,
    confirm_finish,
    hold_requests,
    send_move,
    start_attempt,
    wait_until,
)

WORDS = {
    "en": {"won": "You won!", "over": "Attempt over", "rank": "Rank 1 of 1", "retry": "Try again from here",
           "practice": "Practice attempt", "moves": "Moves", "redeals": "Redeals", "redeal": "redeal",
           "par_is": "par is", "win_rate": "Win rate", "stats": "{game}: your statistics",
           "day_record": "Cruel, {date}: your record", "not_won": "Not won", "cards_home": "Cards home",
           "not_played": "You did not play this deal.", "your_record": "Your record (practice)",
           "lesson": "Position before move {k}: find the move that keeps the win.",
           "loses": "this loses the win again", "keeps": "this keeps the win"},
    "pt-PT": {"won": "Ganhou!", "over": "Fim da tentativa", "rank": "1.º lugar em 1",
              "retry": "Tentar de novo a partir daqui", "practice": "Tentativa de treino", "moves": "Jogadas",
              "redeals": "Redistribuições", "redeal": "redistribu", "par_is": "o par é",
              "win_rate": "Taxa de vitórias", "stats": "{game}: as suas estatísticas",
              "day_record": "Cruel, {date}: o seu registo", "not_won": "Não ganhou",
              "cards_home": "Cartas nas fundações", "not_played": "Não jogou esta distribuição.",
              "your_record": "O seu registo (treino)",
              "lesson": "Posição antes da jogada {k}: encontre a jogada que mantém a vitória.",
              "loses": "esta volta a perder a vitória", "keeps": "esta mantém a vitória"},
}
CASES = [(locale, view) for locale in ("en", "pt-PT") for view in DEVICES]


@pytest.fixture
def player(device_page, live_server):
    """player(locale, view, path) -> a play Page of a new player who has seen how to play."""

    def make(locale: str, view: str, path: str):
        page = device_page(locale, view, live_server.url + path)
        page.wait_for_selector('[data-play][data-loaded="true"]')
        return page

    return make


def tap(page, locator, view):
    if view == "phone":
        locator.tap()
    else:
        locator.click()


def record(sheet) -> dict:
    return dict(sheet.evaluate(
        "s => [...s.querySelectorAll('[data-ref=\"record\"] div')]"
        ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])"))


def share_fits(page) -> None:
    """Every line of the share text is shown: the box is as tall as its text."""
    box = page.locator('[data-ref="share-text"]')
    assert box.evaluate("b => b.scrollHeight <= b.clientHeight + 2"), box.input_value()
    assert len(box.input_value().splitlines()) >= 4


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_after_a_win_the_sheet_gives_the_record_rank_streaks_and_the_days_spread(
        locale, view, deals, player, screenshot, audit):
    words = WORDS[locale]
    game = "flower" if view == "desktop" else "cruel"
    page = player(locale, view, f"/play/{game}/")
    attempt = api_post(page, "/attempts", {"game": game})
    # The moves up to the forced rest through the API, the rest in the page.
    for token in certified(game)[1].split():
        attempt = api_post(page, f"/attempts/{attempt['id']}/moves", {"move": token, "version": attempt["version"]})
        if attempt["forced"]:
            break
    page.reload()
    finish = page.locator('[data-ref="autofinish"]')
    tap(page, finish, view)
    sheet = page.locator('[data-ref="end"]')
    sheet.wait_for()
    page.wait_for_selector('[data-ref="end"][data-ready]')
    assert sheet.locator("h2").inner_text() == words["won"]
    assert page.evaluate("() => document.activeElement.closest('dialog')?.dataset.ref") == "end"
    shown = record(sheet)
    assert shown[words["moves"]] == str(len(certified(game)[1].split()))
    assert (words["redeals"] in shown) is (game == "cruel"), shown
    assert sheet.locator('[data-ref="rank"]').inner_text().startswith(words["rank"])
    # Streaks and win rate of this game, titled so: one day played, won.
    name = "Cruel" if game == "cruel" else "Flower Garden"
    assert sheet.locator('[data-ref="stats-title"]').inner_text() == words["stats"].format(game=name)
    assert sheet.locator('[data-ref="stat-played"] dd').inner_text() == "1"
    assert sheet.locator('[data-ref="stat-win-rate"] dd').inner_text() == "100%"
    assert sheet.locator('[data-ref="stat-streak"] dd').inner_text() == "1"
    assert sheet.locator('[data-ref="stat-win-streak"] dd').inner_text() == "1"
    assert words["win_rate"] in sheet.locator('[data-ref="stats"]').inner_text()
    # The day's distribution, as a table a screen reader reads: one player, 52 home, marked as the player's.
    mine = sheet.locator(".results__bins tr.bins__mine")
    assert mine.locator("th").inner_text() == "52" and "1" in mine.locator("td").inner_text()
    # Par, in the game's own words: Flower Garden never speaks of redeals.
    won_against_par = sheet.locator('[data-ref="analysis"][data-verdict="won"]')
    won_against_par.wait_for()
    assert words["par_is"] in won_against_par.inner_text()
    text = sheet.inner_text().lower()
    if game == "flower":
        assert words["redeal"] not in text, text
    share_fits(page)
    assert "52/52" in page.locator('[data-ref="share-text"]').input_value()
    assert sheet.locator('[data-ref="lost"]').is_hidden()
    screenshot(page, f"results-{locale}-{view}-won")
    assert audit(page) == []
    # Closed, it comes back from its button.
    tap(page, sheet.locator('[data-ref="end-close"]'), view)
    assert sheet.is_hidden()
    tap(page, page.locator('[data-ref="show-end"]'), view)
    sheet.wait_for()


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_a_past_days_practice_sheet_gives_that_days_record_not_the_streaks(
        locale, view, deals, today, player, analysis_in_process, screenshot, audit):
    words = WORDS[locale]
    yesterday = deals["cruel-yesterday"].date
    page = player(locale, view, f"/play/cruel/{yesterday.isoformat()}/")
    archive = page.locator('[data-ref="archive"]')
    archive.wait_for()
    archive.locator("summary").click()  # the past day's line opens its panel
    archive_record = page.locator('[data-ref="archive-record"]')
    assert archive_record.inner_text() == words["not_played"]
    archive.locator("summary").click()  # and closes it
    # Played and finished on the page: the panel says so at once, and the sheet gives the day's record.
    start_attempt(page)
    attempt_id = int(page.locator("[data-play]").get_attribute("data-attempt"))
    tap(page, page.locator('[data-ref="finish"]'), view)
    page.wait_for_selector('[data-ref="end"][data-ready]')
    # The panel's record, as its line opens it once the sheet is closed.
    assert archive_record.text_content().startswith(words["your_record"])
    sheet = page.locator('[data-ref="end"]')
    date = page.locator('[data-ref="deal-date"]').inner_text()
    assert sheet.locator('[data-ref="stats-title"]').inner_text() == words["day_record"].format(date=date)
    shown = api_get(page, f"/attempts/{attempt_id}")
    assert sheet.locator('[data-ref="stat-day-cards"] dd').inner_text() == f"{shown['counters']['cards_home']}/52"
    assert sheet.locator('[data-ref="stat-day-result"] dd').inner_text() == words["not_won"]
    assert sheet.locator('[data-ref="stat-day-result"] dt').inner_text() == words["practice"]
    assert sheet.locator('[data-ref="stat-streak"]').count() == 0
    assert sheet.locator('[data-ref="stat-played"]').count() == 0
    screenshot(page, f"results-{locale}-{view}-past-day")
    assert audit(page) == []


@pytest.mark.parametrize(("locale", "view"), CASES)
def test_after_a_loss_try_again_from_here_starts_practice_before_the_losing_move(
        locale, view, deals, player, analysis_in_process, screenshot, audit):
    words = WORDS[locale]
    position, certificate = certified("cruel")
    line, k = known_loss(position, certificate)
    page = player(locale, view, "/play/cruel/")
    attempt = api_post(page, "/attempts", {"game": "cruel"})
    for token in line[:k]:
        attempt = api_post(page, f"/attempts/{attempt['id']}/moves", {"move": token, "version": attempt["version"]})
    page.reload()
    tap(page, page.locator('[data-ref="finish"]'), view)
    confirm_finish(page)
    sheet = page.locator('[data-ref="end"]')
    sheet.wait_for()
    assert sheet.locator("h2").inner_text() == words["over"]
    retry = sheet.locator('[data-ref="retry"]')
    retry.wait_for()
    assert retry.inner_text() == words["retry"]
    assert f" {k} " in sheet.locator('[data-ref="lost-text"]').inner_text()
    assert sheet.locator('[data-ref="analysis"][data-verdict="lost"] a').get_attribute("href") == (
        f"/replay/cruel/{attempt['date']}/?attempt={attempt['id']}")
    page.wait_for_selector('[data-ref="end"][data-ready]')
    share_fits(page)
    screenshot(page, f"results-{locale}-{view}-lost")
    assert audit(page) == []

    tap(page, retry, view)
    page.wait_for_function("(id) => document.querySelector('[data-play]').dataset.attempt !== String(id)"
                           " && document.querySelector('[data-play]').dataset.busy === 'false'", arg=attempt["id"])
    assert sheet.is_hidden()
    retried = api_get(page, f"/attempts/{page.locator('[data-play]').get_attribute('data-attempt')}")
    steps = api_get(page, f"/attempts/{attempt['id']}/analysis?steps=true")
    assert retried["ranked"] is False and retried["status"] == "playing"
    assert retried["position"]["notation"] == steps["positions"][k - 1]
    assert page.locator('[data-ref="attempt-kind"]').inner_text() == words["practice"]
    assert page.locator('[data-ref="cards-home"]').inner_text() == f"{retried['counters']['cards_home']}/52"
    # A lesson: where it stands, the card that lost the win marked, none of the earlier attempt's words.
    message = page.locator('[data-ref="message"]')
    assert message.inner_text().startswith(words["lesson"].format(k=k)), message.inner_text()
    losing = line[k - 1]
    if losing == "R":  # the Redeal button lost it
        assert page.locator('[data-ref="redeal"]').get_attribute("data-mark") == "lost"
    else:
        marked = page.locator(".slot--mark-lost")
        assert marked.count() == 1 and marked.get_attribute("data-card") == losing.split(">")[0]
    screenshot(page, f"results-{locale}-{view}-lesson")
    # The losing move again: judged by the server, said before the player goes on; the mark goes.
    send_move(page, losing)
    page.wait_for_selector('[data-play][data-version="1"][data-busy="false"]')
    page.wait_for_selector(f'[data-ref="message"]:has-text("{words["loses"]}")')
    assert f" {k}" in message.inner_text()
    assert page.locator(".slot--mark-lost").count() == 0
    assert page.locator('[data-ref="redeal"]').get_attribute("data-mark") == ""
    screenshot(page, f"results-{locale}-{view}-retried")
    assert audit(page) == []


LATE_ANSWERS = re.compile(r"/api/v1/(leaderboard/|history|leagues/places/|attempts/\d+/analysis)")


@pytest.mark.parametrize(("locale", "view"), [("pt-PT", "phone"), ("en", "desktop")])
def test_a_press_on_the_sheet_is_not_lost_to_its_late_answers(locale, view, deals, player):
    """The sheet opens at once and fills as its answers come. A player who
    presses "Practise again" as they come in still gets the new attempt: the
    button stays under the press until its release."""
    page = player(locale, view, "/play/flower/")
    start_attempt(page)  # the ranked attempt
    held = hold_requests(page, LATE_ANSWERS)
    page.locator('[data-ref="finish"]').click()
    confirm_finish(page)
    again = page.locator('[data-ref="end"] [data-ref="again"]')
    again.wait_for()
    # The rank and spread, the statistics, the leagues, the analysis: all asked, none answered.
    wait_until(page, lambda: len(held) == 4, "the sheet's four late requests")
    again.scroll_into_view_if_needed()
    pressed = again.bounding_box()
    page.mouse.move(pressed["x"] + pressed["width"] / 2, pressed["y"] + pressed["height"] / 2)
    page.mouse.down()
    for route in held:
        route.continue_()
    page.unroute(LATE_ANSWERS)
    # Every answer in the page's hands, and two frames drawn since.
    page.wait_for_function("(n) => performance.getEntriesByType('resource')"
                           ".filter((e) => /leaderboard|history|places|analysis/.test(e.name)).length >= n", arg=4)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert again.bounding_box() == pressed
    page.mouse.up()
    page.wait_for_selector('[data-play][data-status="playing"][data-version="0"][data-busy="false"]')
    practice = api_get(page, f"/attempts/{page.locator('[data-play]').get_attribute('data-attempt')}")
    assert practice["ranked"] is False
    assert page.locator('[data-ref="end"]').is_hidden()
