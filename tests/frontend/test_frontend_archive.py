"""The archive in the browser: a past day opened from the calendar, played
as practice to a win, its record on the calendar and its solution's replay
watched; a day with no deal said plainly; the share text with its link and
plural forms for 1 and 2 in both languages."""

from __future__ import annotations

import datetime as dt

import pytest
from frontend_steps import certified, click_move, confirm_finish, start_attempt

from api.deals.models import DailyDeal

MONTHS_PT = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
             "setembro", "outubro", "novembro", "dezembro"]


def words(day: dt.date, locale: str) -> str:
    if locale == "en":
        return day.strftime(f"{day.day} %B %Y")
    return f"{day.day} de {MONTHS_PT[day.month - 1]} de {day.year}"


def calendar_cell(page, day: dt.date):
    page.wait_for_selector("[data-calendar][data-loaded]")
    return page.locator(f'td[data-date="{day.isoformat()}"]')


def test_a_past_day_is_played_from_the_calendar_to_a_win_and_its_replay_watched(
    deals, today, open_page, screenshot, audit
):
    yesterday = today - dt.timedelta(days=1)
    page = open_page(f"/calendar/cruel/?month={yesterday.strftime('%Y-%m')}")
    cell = calendar_cell(page, yesterday)
    assert cell.get_attribute("data-kind") == "unplayed"
    assert cell.locator("a").get_attribute("aria-label").startswith(
        f"{words(yesterday, 'en')}: not played, difficulty: ")
    screenshot(page, "calendar-cruel-en")
    assert audit(page) == []

    cell.locator("a").click()
    page.wait_for_url(f"**/play/cruel/{yesterday.isoformat()}/")
    archive = page.locator('[data-ref="archive"]')
    archive.wait_for()
    archive.locator("summary").click()  # the past day's line opens its panel
    assert page.locator('[data-ref="deal-date"]').inner_text() == words(yesterday, "en")
    assert page.locator('[data-ref="archive-record"]').inner_text() == "You did not play this deal."
    archive.locator("summary").click()  # and closes it
    assert page.locator('[data-ref="ranked-note"]').is_hidden()
    start = page.locator('[data-ref="start"]')
    start.wait_for()
    assert start.inner_text() == "Play this deal as practice"
    assert audit(page) == []
    start_attempt(page)
    assert page.locator('[data-ref="attempt-kind"]').inner_text() == "Practice attempt"
    for token in certified("cruel")[1].split():
        click_move(page, token)
    page.wait_for_selector('[data-play][data-status="won"][data-busy="false"]')
    assert page.locator('[data-ref="rank"]').inner_text() == "Practice attempts are not ranked."
    share = page.locator('[data-ref="share-text"]').input_value()
    assert share.splitlines()[-1].endswith(f"/play/cruel/{yesterday.isoformat()}/")
    screenshot(page, "play-cruel-en-past-day-won")

    page.goto(page.url.split("/play/")[0] + f"/calendar/cruel/?month={yesterday.strftime('%Y-%m')}")
    cell = calendar_cell(page, yesterday)
    assert cell.get_attribute("data-kind") == "won"
    assert cell.locator("a").get_attribute("aria-label").startswith(f"{words(yesterday, 'en')}: won, difficulty: ")
    cell.locator("a").click()
    page.wait_for_url(f"**/play/cruel/{yesterday.isoformat()}/")
    record = page.locator('[data-ref="archive-record"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"archive-record\"]')?.textContent.length > 0")
    page.locator('[data-ref="archive"] summary').click()  # the past day's line opens its panel
    assert record.inner_text().startswith("Your record: won (practice): 52 of 52 cards home")

    page.get_by_role("link", name="Watch the solution's replay").click()
    page.wait_for_url(f"**/replay/cruel/{yesterday.isoformat()}/")
    step = page.locator('[data-ref="step"]')
    step.wait_for()
    total = len(certified("cruel")[1].split())
    assert step.inner_text() == f"Step 0 of {total}: start"
    page.locator('[data-ref="forward"]').click()
    assert step.inner_text().startswith(f"Step 1 of {total}: ")
    page.locator('[data-ref="last"]').click()
    assert page.locator("[data-replay]").get_attribute("data-step") == str(total)
    assert page.locator(".board .slot[data-kind=foundation] .card[data-card^=K]").count() == 4
    assert words(yesterday, "en") in page.locator("h1").inner_text()
    screenshot(page, "replay-cruel-en-end")
    assert audit(page) == []


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_day_with_no_deal_says_so_plainly(deals, today, open_page, screenshot, audit, locale):
    first = today - dt.timedelta(days=3)
    DailyDeal.objects.create(game="flower", date=first, seed=0, position="flower -")  # never verified
    empty = today - dt.timedelta(days=2)
    expected = {"en": f"There was no Flower Garden deal on {words(empty, 'en')}.",
                "pt-PT": f"Não houve distribuição do Flower Garden a {words(empty, 'pt-PT')}."}[locale]

    page = open_page(f"/calendar/flower/?month={empty.strftime('%Y-%m')}", locale=locale)
    cell = calendar_cell(page, empty)
    assert cell.get_attribute("data-kind") == "none"
    assert cell.locator("a").count() == 0
    assert cell.inner_text().strip().endswith({"en": "no deal", "pt-PT": "sem distribuição"}[locale])
    if first.month == empty.month:
        assert page.locator(f'td[data-date="{first.isoformat()}"]').count() == 1, "the first day opens the archive"
        assert page.locator('[data-ref="previous"]').is_hidden()
    screenshot(page, f"calendar-flower-{locale}-no-deal")
    assert audit(page) == []

    for path in (f"/play/flower/{empty.isoformat()}/", f"/replay/flower/{empty.isoformat()}/"):
        page.goto(page.evaluate("() => location.origin") + path)
        message = page.locator('[data-ref="no-deal"]')
        message.wait_for()
        assert message.inner_text() == expected
        assert page.locator('[data-ref="message"]').is_hidden(), "no error box for an ordinary day"
        assert page.locator('[data-ref="start"]').count() == 0 or page.locator('[data-ref="start"]').is_hidden()
        screenshot(page, f"{path.split('/')[1]}-flower-{locale}-no-deal")
        assert audit(page) == []
    body = page.locator("main").inner_text()
    for leak in ("Something went wrong", "Algo correu mal", "Ocorreu um erro", " flower ", "verified deal"):
        assert leak not in body


UNDO = {"en": ("1 undo", "2 undos", "0 redeals"), "pt-PT": ("1 anulação", "2 anulações", "0 redistribuições")}


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_the_share_text_links_the_day_and_counts_one_and_two(deals, today, open_page, screenshot, locale):
    page = open_page("/play/cruel/", locale=locale)
    start_attempt(page)
    one, two, zero_redeals = UNDO[locale]
    move = certified("cruel")[1].split()[0]
    click_move(page, move)
    page.locator('[data-ref="undo"]').click()
    page.wait_for_selector('[data-play][data-version="2"][data-busy="false"]')
    page.locator('[data-ref="finish"]').click()
    confirm_finish(page)
    page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
    share = page.locator('[data-ref="share-text"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"share-text\"]').value.length > 0")
    first_text = share.input_value()
    assert f"· {zero_redeals} · {one} ·" in first_text, first_text
    assert words(today, locale) in first_text.splitlines()[0]
    origin = page.evaluate("() => location.origin")
    assert first_text.splitlines()[-1] == f"{origin}/play/cruel/{today.isoformat()}/"
    screenshot(page, f"play-cruel-{locale}-share-one")

    page.locator('[data-ref="again"]').click()
    page.wait_for_selector('[data-play][data-status="playing"][data-version="0"][data-busy="false"]')
    for version in (1, 3):
        click_move(page, move)
        page.locator('[data-ref="undo"]').click()
        page.wait_for_selector(f'[data-play][data-version="{version + 1}"][data-busy="false"]')
    page.locator('[data-ref="finish"]').click()  # practice: no question
    page.wait_for_function(
        "(before) => { const v = document.querySelector('[data-ref=\"share-text\"]').value;"
        " return v.length > 0 && v !== before; }", arg=first_text)
    assert f"· {two} ·" in share.input_value()

    # The link opens the day's page.
    page.goto(share.input_value().splitlines()[-1])
    page.locator('[data-ref="archive"]').or_(page.locator('[data-ref="game-area"]')).first.wait_for()
    assert page.locator('[data-ref="deal-date"]').inner_text() == words(today, locale)
