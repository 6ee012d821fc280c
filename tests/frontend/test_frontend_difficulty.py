"""Difficulty a player understands: a word on a four-step scale (where the
deal's solver figure falls among a large sample of deals), shown before
play on a phone too, on the calendar and in the share text; after the day,
the share of ranked players who won."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from frontend_steps import confirm_finish, start_attempt

from api.deals.difficulty import difficulty_level
from api.play.models import Attempt

WORDS = {
    "en": {"easy": "easy", "medium": "medium", "hard": "hard", "very_hard": "very hard"},
    "pt-PT": {"easy": "fácil", "medium": "média", "hard": "difícil", "very_hard": "muito difícil"},
}
OF = {"en": "of", "pt-PT": "de"}


@pytest.mark.parametrize(("locale", "width", "height"), [("pt-PT", 390, 844), ("en", 1280, 800)])
def test_difficulty_reads_as_a_word_on_a_scale_everywhere(locale, width, height, deals, today, open_page,
                                                           screenshot, audit):
    level = difficulty_level("cruel", deals["cruel"].difficulty)
    word = WORDS[locale][level["level"]]
    page = open_page("/play/cruel/", locale=locale, width=width, height=height)
    shown = page.locator('[data-ref="difficulty"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"difficulty\"]').textContent !== '–'")
    assert shown.is_visible()
    assert shown.inner_text() == f"{word} ({level['step']} {OF[locale]} 4)"
    assert not re.search(r"\d[.,]\d", page.locator(".play__meta").inner_text()), "no bare solver figure"
    screenshot(page, f"difficulty-play-{locale}-{width}")

    start_attempt(page)
    page.locator('[data-ref="finish"]').click()
    confirm_finish(page)
    page.wait_for_selector('[data-play][data-status="abandoned"][data-busy="false"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"share-text\"]').value.length > 0")
    share = page.locator('[data-ref="share-text"]').input_value()
    assert f"{'dificuldade' if locale == 'pt-PT' else 'difficulty'}: {word}" in share

    yesterday = today - dt.timedelta(days=1)
    page.goto(page.url.split("/play/")[0] + f"/calendar/cruel/?month={yesterday.strftime('%Y-%m')}")
    page.wait_for_selector("[data-calendar][data-loaded]")
    cell = page.locator(f'td[data-date="{yesterday.isoformat()}"]')
    yesterday_level = difficulty_level("cruel", deals["cruel-yesterday"].difficulty)
    yesterday_word = WORDS[locale][yesterday_level["level"]]
    assert yesterday_word in cell.locator("a").get_attribute("aria-label")
    if width < 700:  # a phone's cell is too narrow for the word: its step, as pips
        assert cell.locator(".pip--on").count() == yesterday_level["step"]
    else:
        assert yesterday_word in cell.inner_text()
    screenshot(page, f"difficulty-calendar-{locale}-{width}")
    assert audit(page) == []


def test_after_the_day_the_share_of_players_who_won_stands_beside_it(deals, today, open_page, screenshot):
    deal = deals["cruel-yesterday"]
    now = dt.datetime.now(dt.timezone.utc)
    from django.contrib.auth import get_user_model

    for i, status in enumerate([Attempt.Status.WON, Attempt.Status.ABANDONED, Attempt.Status.ABANDONED,
                                Attempt.Status.ABANDONED]):
        user = get_user_model().objects.create_user(username=f"p{i}", password="not-used-here-1")
        Attempt.objects.create(player=user, deal=deal, ranked=True, version=5, moves=5, status=status, cards_home=52 - i,
                               start_position=deal.position, position=deal.position, started_at=now,
                               last_action_at=now)
    page = open_page(f"/play/cruel/{(today - dt.timedelta(days=1)).isoformat()}/", locale="pt-PT")
    won = page.locator('[data-ref="archive-won"]')
    page.wait_for_function("() => document.querySelector('[data-ref=\"archive-won\"]').textContent.length > 0")
    page.locator('[data-ref="archive"] summary').click()  # the past day's line opens its panel
    assert won.inner_text() == "25% dos jogadores que a jogaram em tentativa classificada ganharam esta distribuição."
    screenshot(page, "difficulty-past-day-won-share-pt-PT")
