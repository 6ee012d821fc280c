"""The replay of the player's own attempt: a segmented control says which
line is shown (theirs, the line that kept the win, the day's solution); the
heading and the tab's title follow the choice; the menu marks History; the
move that lost the win is marked on the scrubber and named by a legend.
While the day lasts the line that kept the win is not given, and the page
says when it comes."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from certified_deals import known_loss
from frontend_steps import api_get, api_play, certified, move_words

MONTHS_PT = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
             "setembro", "outubro", "novembro", "dezembro"]
WORDS = {
    "en": {"mine": "Your line: Cruel, {date}", "kept": "The line that kept the win: Cruel, {date}",
           "solution": "Solution of Cruel, {date}", "history": "History",
           "lost": "Move {k}, {move}: the move that lost the win",
           "keeps": "Move {k}, {move}: the move that kept the win",
           "later": "The line that kept the win comes when the day ends.",
           "foundation": "foundation", "redeal": "redeal", "site": "Daily solitaire",
           "buttons": {"mine": "Your line", "kept": "The line that kept the win", "solution": "The day's solution"}},
    "pt-PT": {"mine": "A sua linha: Cruel, {date}", "kept": "A linha que mantinha a vitória: Cruel, {date}",
              "solution": "Solução de Cruel, {date}", "history": "Histórico",
              "lost": "Jogada {k}, {move}: a jogada que perdeu a vitória",
              "keeps": "Jogada {k}, {move}: a jogada que mantinha a vitória",
              "later": "A linha que mantinha a vitória fica disponível quando o dia acabar.",
              "foundation": "fundação", "redeal": "redistribuir", "site": "Paciência diária",
              "buttons": {"mine": "A sua linha", "kept": "A linha que mantinha a vitória",
                          "solution": "A solução do dia"}},
}
VIEWS = [("en", 1280, 800), ("pt-PT", 1280, 800), ("en", 390, 844), ("pt-PT", 390, 844)]
ACCENT = "rgb(0, 79, 163)"


def date_words(day: dt.date, locale: str) -> str:
    if locale == "en":
        return f"{day.day} {day.strftime('%B %Y')}"
    return f"{day.day} de {MONTHS_PT[day.month - 1]} de {day.year}"


def open_session(browser, live_server, locale, width, height):
    phone = width < 700
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/history/")
    page.wait_for_selector("[data-history][data-loaded]")
    return context, page, errors


def mark_offset(page) -> float:
    """How far the scrubber's mark stands from where the thumb stands at the marked step, in px."""
    return page.evaluate(
        """() => {
          const range = document.querySelector('[data-ref=scrubber]');
          const mark = document.querySelector('[data-ref=mark]');
          const r = range.getBoundingClientRect(), m = mark.getBoundingClientRect();
          const at = Number(getComputedStyle(mark).getPropertyValue('--at'));
          return Math.abs((m.left + m.width / 2) - (r.left + 12 + (r.width - 24) * at));
        }""")


@pytest.mark.parametrize(("locale", "width", "height"), VIEWS)
def test_the_chosen_line_is_shown_named_and_marked(locale, width, height, deals, today, browser, live_server,
                                                  analysis_in_process, screenshot, audit):
    words = WORDS[locale]
    yesterday = today - dt.timedelta(days=1)
    position, certificate = certified("cruel")
    line, k = known_loss(position, certificate)
    context, page, errors = open_session(browser, live_server, locale, width, height)
    try:
        attempt_id = api_play(page, "cruel", line[:k], date=yesterday.isoformat())
        page.goto(live_server.url + f"/replay/cruel/{yesterday.isoformat()}/?attempt={attempt_id}")
        page.wait_for_selector(f'[data-replay][data-line="mine"][data-step="{k - 1}"]')
        day = date_words(yesterday, locale)

        # The menu marks History: the attempt is the player's own, reached from their history.
        if width < 700:
            page.locator(".menu-button").click()
        current = page.locator('.site-header nav a[aria-current="page"]')
        assert current.inner_text().strip() == words["history"]
        assert current.get_attribute("href") == "/history/"
        if width < 700:
            page.keyboard.press("Escape")

        options = page.locator(".segmented [data-line]")
        assert [options.nth(i).inner_text().strip().lstrip("\u2713\u00a0").strip()
                for i in range(options.count())] == list(words["buttons"].values())
        assert page.locator(".segmented").get_attribute("role") == "group"

        def check(name: str, legend: str | None):
            for other in ("mine", "kept", "solution"):
                button = page.locator(f'.segmented [data-line="{other}"]')
                assert button.get_attribute("aria-pressed") == str(other == name).lower()
                background = button.evaluate("b => getComputedStyle(b).backgroundColor")
                assert (background == ACCENT) == (other == name), (other, background)
            heading = words[name].format(date=day)
            assert page.locator("h1").inner_text() == heading
            assert page.title() == f"{heading} \u00b7 {words['site']}"
            if legend is None:
                assert page.locator('[data-ref="legend"]').is_hidden()
                assert page.locator('[data-ref="mark"]').is_hidden()
            else:
                assert page.locator('[data-ref="legend"]').is_visible()
                assert page.locator('[data-ref="legend-text"]').inner_text() == legend
                assert page.locator('[data-ref="mark"]').is_visible()
                assert mark_offset(page) < 2

        check("mine", words["lost"].format(k=k, move=move_words(line[k - 1], words)))
        assert page.locator('[data-ref="mark"]').get_attribute("data-kind") == "lost"
        # On the board, before the losing move: its card marked, and the card of the move that kept the win.
        keeping_move = api_get(page, f"/attempts/{attempt_id}/analysis")["lost_at"]["keeping_move"]
        for token, kind in ((line[k - 1], "lost"), (keeping_move, "kept")):
            if token != "R":  # a redeal has no card to mark
                assert page.locator(f".slot--mark-{kind}").get_attribute("data-card") == token.split(">")[0]
        page.locator('[data-ref="scrubber"]').fill(str(k))  # one step on: the marks go
        page.wait_for_selector(f'[data-replay][data-step="{k}"]')
        assert page.locator(".slot--mark-lost, .slot--mark-kept").count() == 0
        page.locator('[data-ref="scrubber"]').fill(str(k - 1))
        page.wait_for_selector(f'[data-replay][data-step="{k - 1}"]')
        screenshot(page, f"replay-attempt-mine-{locale}-{width}")
        assert audit(page) == []

        page.locator('.segmented [data-line="kept"]').click()
        page.wait_for_selector(f'[data-replay][data-line="kept"][data-step="{k - 1}"]')
        keeping = page.locator('.moves li[data-lost="kept"]').inner_text().strip()
        check("kept", words["keeps"].format(k=k, move=keeping))
        assert page.locator('[data-ref="mark"]').get_attribute("data-kind") == "kept"
        screenshot(page, f"replay-attempt-kept-{locale}-{width}")

        page.locator('.segmented [data-line="solution"]').click()
        page.wait_for_selector('[data-replay][data-line="solution"][data-step="0"]')
        check("solution", None)
        assert page.locator(".moves li").count() == len(certificate.split())

        # The scrubber moves the replay, and reads out the step.
        scrubber = page.locator('[data-ref="scrubber"]')
        scrubber.fill("5")
        page.wait_for_selector('[data-replay][data-step="5"]')
        assert scrubber.get_attribute("aria-valuetext") == page.locator('[data-ref="step"]').inner_text()
        assert audit(page) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "width", "height"), [("en", 1280, 800), ("pt-PT", 390, 844)])
def test_while_the_day_lasts_the_kept_line_is_promised_not_shown(locale, width, height, deals, today, browser,
                                                                live_server, analysis_in_process, screenshot, audit):
    words = WORDS[locale]
    position, certificate = certified("cruel")
    line, k = known_loss(position, certificate)
    context, page, errors = open_session(browser, live_server, locale, width, height)
    try:
        # The analysis as the API gives it while the day lasts: the losing
        # move and the one keeping move, not the line that follows it.
        def sealed(route):
            response = route.fetch()
            body = response.json()
            for key in ("keeping_line", "keeping_positions"):
                (body.get("lost_at") or {}).pop(key, None)
            route.fulfill(response=response, body=json.dumps(body))

        page.route("**/api/v1/attempts/*/analysis*", sealed)
        attempt_id = api_play(page, "cruel", line[:k])
        page.goto(live_server.url + f"/replay/cruel/{today.isoformat()}/?attempt={attempt_id}")
        page.wait_for_selector(f'[data-replay][data-line="mine"][data-step="{k - 1}"]')
        assert page.locator('[data-ref="kept-later"]').inner_text() == words["later"]
        assert page.locator('[data-ref="kept-later"]').is_visible()
        # Only the player's line: nothing to choose between.
        assert page.locator(".segmented").is_hidden()
        heading = words["mine"].format(date=date_words(today, locale))
        assert page.locator("h1").inner_text() == heading
        assert page.title() == f"{heading} \u00b7 {words['site']}"
        assert page.locator('[data-ref="legend-text"]').inner_text() == words["lost"].format(
            k=k, move=move_words(line[k - 1], words))
        assert mark_offset(page) < 2
        screenshot(page, f"replay-attempt-today-{locale}-{width}")
        assert audit(page) == []
        assert not errors, errors
    finally:
        context.close()
