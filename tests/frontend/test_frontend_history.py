"""The history page reads as a calendar and a table: the last twelve weeks
with their months named, each day a square with its number, its date and
result in its name and title, a link to that day; the days' table a real
table whose cells keep the result, its details and the links apart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from frontend_steps import api_play, certified

MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "pt-PT": ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
}
MONTHS_LONG_PT = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
                  "setembro", "outubro", "novembro", "dezembro"]
WORDS = {
    "en": {"won": "a ranked attempt won", "played": "played on the day", "none": "not played",
           "page": "The day's page", "board": "Leaderboard"},
    "pt-PT": {"won": "tentativa classificada ganha", "played": "jogado no próprio dia", "none": "não jogado",
              "page": "Página do dia", "board": "Classificação"},
}
VIEWS = [("en", 1280, 800), ("pt-PT", 1280, 800), ("en", 390, 844), ("pt-PT", 390, 844)]


WEEKDAYS_PT = ["segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"]


def day_words(day: dt.date, locale: str) -> str:
    if locale == "en":
        return day.strftime(f"%A, {day.day} %B %Y")
    return f"{WEEKDAYS_PT[day.weekday()]}, {day.day} de {MONTHS_LONG_PT[day.month - 1]} de {day.year}"


@pytest.mark.parametrize(("locale", "width", "height"), VIEWS)
def test_the_history_names_its_days_and_reads_as_a_table(locale, width, height, deals, today, browser,
                                                        live_server, screenshot, audit):
    from certified_deals import deal_create

    words = WORDS[locale]
    yesterday = today - dt.timedelta(days=1)
    deal_create("cruel", today - dt.timedelta(days=100))  # the service's first deal, before the twelve weeks
    phone = width < 700
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                  has_touch=phone, is_mobile=phone)
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + "/history/")
        page.wait_for_selector("[data-history][data-loaded]")
        # A ranked Flower Garden in play today: the page asks no analysis of it (none exists yet).
        refused = []
        page.on("response", lambda r: refused.append(r.url) if "/analysis" in r.url and r.status >= 400 else None)
        flower = page.evaluate("""async () => {
          const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
          const r = await fetch('/api/v1/attempts', {method: 'POST', body: JSON.stringify({game: 'flower'}),
            headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
          return r.json();
        }""")
        assert flower["ranked"] is True
        # A won ranked Cruel today; a practice Flower Garden yesterday, given up.
        api_play(page, "cruel", certified("cruel")[1].split())
        api_play(page, "flower", [], date=yesterday.isoformat())
        page.reload()
        page.wait_for_selector("[data-history][data-loaded]")

        # Twelve weeks, Monday first, up to today: a square a day, each a link named by its date.
        squares = page.evaluate(
            "() => [...document.querySelectorAll('.streak-calendar a.streak-day')].map(a => ({"
            " date: a.dataset.date, kind: a.dataset.kind, label: a.getAttribute('aria-label'),"
            " title: a.title, href: a.getAttribute('href'), text: a.textContent}))")
        assert len(squares) == 77 + today.weekday() + 1
        first = today - dt.timedelta(days=77 + today.weekday())
        assert squares[0]["date"] == first.isoformat() and squares[-1]["date"] == today.isoformat()
        for square in squares:
            day = dt.date.fromisoformat(square["date"])
            assert square["title"] == square["label"]
            assert square["label"].startswith(day_words(day, locale)), square
            assert square["text"] == str(day.day)
            if day == today:
                assert square["href"] == "/play/cruel/"
            elif day == yesterday:
                assert square["href"] == f"/play/flower/{day.isoformat()}/"
            else:
                assert square["href"] == f"/play/cruel/{day.isoformat()}/"
        by_date = {square["date"]: square for square in squares}
        assert by_date[today.isoformat()]["label"].endswith(words["won"])
        assert by_date[yesterday.isoformat()]["label"].endswith(words["none"])  # practice is not ranked

        # The months: the first week's, and each month where it begins.
        rows = page.evaluate(
            "() => [...document.querySelectorAll('[data-ref=streak-weeks] tr')].map(tr => ({"
            " month: tr.querySelector('th span[aria-hidden]').textContent,"
            " dates: [...tr.querySelectorAll('a')].map(a => a.dataset.date)}))")
        assert len(rows) == 12
        for i, row in enumerate(rows):
            starts = [d for d in row["dates"] if d.endswith("-01")]
            month = int((starts[0] if starts else row["dates"][0])[5:7])
            expected = MONTHS[locale][month - 1] if starts or i == 0 else ""
            assert row["month"].lower() == expected.lower(), (i, row)
        assert page.locator(".streak-calendar__month").first.is_visible()

        # Each square takes the focus, and opens its day.
        square = page.locator(f'a.streak-day[data-date="{yesterday.isoformat()}"]')
        square.focus()
        assert page.evaluate("() => document.activeElement.dataset.date") == yesterday.isoformat()
        calendar_box = page.locator(".streak-calendar").bounding_box()
        assert calendar_box["x"] >= 0 and calendar_box["x"] + calendar_box["width"] <= width

        # The days' table: headers for its columns and rows, cells apart, links that look like links.
        table = page.locator("table.days-table")
        assert table.locator("thead th[scope=col]").count() == 3
        assert table.locator("tbody th[scope=row] time").count() == 2
        today_row = table.locator("tbody tr").first
        cruel_cell = today_row.locator("td").nth(0)
        assert cruel_cell.locator(".day-cell__result").inner_text().startswith("52/52")
        links = cruel_cell.locator(".day-cell__links a")
        assert [links.nth(i).inner_text() for i in range(2)] == [words["page"], words["board"]]
        assert links.nth(0).get_attribute("href") == f"/play/cruel/{today.isoformat()}/"
        style = links.nth(0).evaluate(
            "a => ({line: getComputedStyle(a).textDecorationLine, color: getComputedStyle(a).color})")
        assert "underline" in style["line"] and style["color"] == "rgb(0, 79, 163)", style
        borders = cruel_cell.evaluate(
            "td => [getComputedStyle(td).borderLeftWidth, getComputedStyle(td).borderRightWidth]")
        assert all(float(b.rstrip("px")) >= 1 for b in borders), borders
        assert "·" not in cruel_cell.locator(".day-cell__links").inner_text()
        assert table.locator("tbody tr").nth(1).locator("td").nth(0).inner_text().startswith(words["none"])
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width

        page.wait_for_load_state("networkidle")
        assert refused == [], refused
        screenshot(page, f"history-calendar-{locale}-{width}")
        assert audit(page) == []

        square.click()
        page.wait_for_url(re.compile(f"/play/flower/{yesterday.isoformat()}/$"))
        page.locator('[data-ref="archive"]').wait_for()
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "width", "height"), [("en", 1280, 800), ("pt-PT", 390, 844)])
def test_a_day_a_freeze_kept_is_drawn_as_frozen(locale, width, height, deals, today,
                                                viewport_context, live_server, screenshot, audit):
    from certified_deals import deal_create
    from frontend_steps import api_get

    from api.play.models import Attempt

    page = viewport_context(locale, width, height).new_page()
    page.goto(live_server.url + "/history/")
    page.wait_for_selector("[data-history][data-loaded]")
    player_id = api_get(page, "/me")["id"]
    # Seven days played in a row earn a freeze; the day after them is missed
    # and spends it; the streak goes on the day after that.
    position, certificate = certified("cruel")
    missed = today - dt.timedelta(days=2)
    now = dt.datetime.now(dt.timezone.utc)
    for back in (9, 8, 7, 6, 5, 4, 3, 1):
        day = today - dt.timedelta(days=back)
        deal = deals["cruel-yesterday"] if back == 1 else deal_create(
            "cruel", day, position=position, certificate=certificate)
        Attempt.objects.create(
            player_id=player_id, deal=deal, ranked=True, version=1, moves=1,
            start_position=deal.position, position=deal.position, cards_home=10,
            elapsed_ms=60_000, started_at=now, last_action_at=now)
    page.reload()
    page.wait_for_selector("[data-history][data-loaded]")
    kinds = dict(page.evaluate(
        "() => [...document.querySelectorAll('.streak-calendar a.streak-day')]"
        ".map(a => [a.dataset.date, a.dataset.kind])"))
    assert kinds[missed.isoformat()] == "frozen"
    assert kinds[(missed - dt.timedelta(days=1)).isoformat()] == "played"
    # Before the service's first deal (nine days ago) no day is drawn, as none could be played.
    assert min(kinds) == (today - dt.timedelta(days=9)).isoformat()
    square = page.locator(f'a.streak-day[data-date="{missed.isoformat()}"]')
    frozen_words = {"en": "not played: a freeze kept the streak",
                    "pt-PT": "não jogado: uma proteção manteve a sequência"}[locale]
    assert square.get_attribute("aria-label").endswith(frozen_words)
    # The legend names it; it looks unlike a day played and a day missed.
    assert frozen_words in page.locator(".calendar__legend").inner_text()
    looks = page.evaluate(
        "() => ['frozen', 'played', 'none'].map(k => getComputedStyle("
        "document.querySelector(`.streak-calendar a.streak-day--${k}`)).backgroundColor)")
    assert len(set(looks)) == 3, looks
    assert "8" in page.locator('[data-ref="streaks"]').inner_text()  # days played in a row
    screenshot(page, f"history-frozen-{locale}-{width}")
    assert audit(page) == []
