"""The calendar's cells fit at every width: a difficulty as a word where it
fits and as pips on a phone, nothing cut or spilling; a day that can be
played is a tile that looks pressable (its number in the link colour,
underlined), a day without a deal is flat and no link."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from certified_deals import deal_create
from frontend_steps import api_play

from api.deals import difficulty
from api.deals.models import DailyDeal

LEVELS = ["easy", "medium", "hard", "very_hard"]
WORDS = {"en": {"easy": "easy", "medium": "medium", "hard": "hard", "very_hard": "very hard"},
         "pt-PT": {"easy": "fácil", "medium": "média", "hard": "difícil", "very_hard": "muito difícil"}}
VIEWS = [("en", 1280, 800), ("pt-PT", 1280, 800), ("en", 390, 844), ("pt-PT", 390, 844)]
ACCENT = "rgb(0, 79, 163)"


@pytest.fixture
def last_month(transactional_db, today):
    """The first eight days of last month: each level twice, and a day with no deal."""
    first = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    cuts = difficulty.scale()["games"]["cruel"]["percentiles"]
    figures = [cuts[15], cuts[50], cuts[80], cuts[95]]
    for i in range(8):
        day = first + dt.timedelta(days=i)
        if i == 5:
            DailyDeal.objects.create(game="cruel", date=day, seed=0, position="cruel -")  # never verified
            continue
        deal = deal_create("cruel", day)
        deal.difficulty = figures[i % 4]
        deal.save(update_fields=["difficulty"])
    return first


@pytest.mark.parametrize(("locale", "width", "height"), VIEWS)
def test_the_calendar_cells_fit_and_playable_days_look_pressable(locale, width, height, last_month,
                                                               viewport_context, live_server, screenshot, audit):
    phone = width < 700
    context = viewport_context(locale, width, height)
    page = context.new_page()
    page.goto(live_server.url + "/history/")
    page.wait_for_selector("[data-history][data-loaded]")
    api_play(page, "cruel", [], date=(last_month + dt.timedelta(days=1)).isoformat())
    month = last_month.strftime("%Y-%m")
    page.goto(live_server.url + f"/calendar/cruel/?month={month}")
    page.wait_for_selector(f'[data-calendar][data-loaded="{month}"]')

    # Nothing in a cell is cut or spills out of it.
    spills = page.evaluate(
        """() => [...document.querySelectorAll('.calendar td')].flatMap(td => {
             const box = td.getBoundingClientRect();
             return [...td.querySelectorAll('a, .day__inner, a > *, .day__inner > *')]
               .filter(el => el.offsetParent !== null)
               .filter(el => { const r = el.getBoundingClientRect();
                 return el.scrollWidth > el.clientWidth || r.right > box.right + 0.5 || r.left < box.left - 0.5
                   || r.bottom > box.bottom + 0.5; })
               .map(el => [td.dataset.date, el.className, el.textContent]); })""")
    assert spills == [], spills
    heads = page.evaluate("() => [...document.querySelectorAll('.calendar thead th')]"
                          ".filter(th => th.scrollWidth > th.clientWidth).map(th => th.textContent)")
    assert heads == [], heads
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width

    for i, level in enumerate([*LEVELS, *LEVELS][:8]):
        day = last_month + dt.timedelta(days=i)
        cell = page.locator(f'td[data-date="{day.isoformat()}"]')
        if i == 5:
            assert cell.get_attribute("data-kind") == "none" and cell.locator("a").count() == 0
            continue
        word = cell.locator(".day-level__word")
        pips = cell.locator(".day-level__pips .pip--on")
        assert pips.count() == LEVELS.index(level) + 1
        if phone:
            assert word.is_hidden() and pips.first.is_visible()
        else:
            assert word.is_visible() and word.inner_text() == WORDS[locale][level]
        # The level is said in the cell's name at every width.
        assert WORDS[locale][level] in cell.locator("a").get_attribute("aria-label")

        # A playable day looks like a link: its number in the link colour, underlined, in a bordered tile.
        look = cell.locator("a").evaluate(
            """a => { const n = a.querySelector('.day__number'), s = getComputedStyle(a), t = getComputedStyle(n);
               return {color: t.color, line: t.textDecorationLine, border: s.borderTopWidth,
                       borderColor: s.borderTopColor, cursor: s.cursor}; }""")
        assert look["color"] == ACCENT and "underline" in look["line"], look
        assert float(look["border"].rstrip("px")) >= 2 and look["cursor"] == "pointer", look
    played = page.locator(f'td[data-date="{(last_month + dt.timedelta(days=1)).isoformat()}"]')
    assert played.get_attribute("data-kind") == "played"
    assert re.fullmatch(r"\d+/52", played.locator(".day-mark").inner_text())

    screenshot(page, f"calendar-cells-{locale}-{width}")
    assert audit(page) == []
