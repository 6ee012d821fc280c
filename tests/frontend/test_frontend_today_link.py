"""A shared link names its day (/play/cruel/YYYY-MM-DD/): opened while that
day lasts, by someone who has not played, it is today's page, with today's
words and ranked rules; only a day that is over is a past day."""

from __future__ import annotations

import pytest
from frontend_steps import api_get, wait_for_version

WORDS = {
    "en": {"start": "Start today's deal", "kind": "Ranked attempt", "past": "A past day: practice only"},
    "pt-PT": {"start": "Começar a distribuição de hoje", "kind": "Tentativa classificada",
              "past": "Um dia passado: só treino"},
}


@pytest.mark.parametrize(("locale", "width", "height"), [("pt-PT", 1280, 800), ("en", 390, 844)])
def test_a_share_link_of_today_opens_todays_page_for_a_new_player(
    locale, width, height, deals, today, open_page, screenshot, audit
):
    words = WORDS[locale]
    page = open_page(f"/play/cruel/{today.isoformat()}/", locale=locale, width=width, height=height)
    start = page.locator('[data-ref="start"]')
    start.wait_for()
    assert start.inner_text() == words["start"]
    assert page.locator('[data-ref="archive"]').count() == 0
    assert words["past"] not in page.locator("main").inner_text()
    assert page.locator('[data-ref="ranked-note"]').is_visible()
    screenshot(page, f"today-link-{locale}-{width}-before")
    assert audit(page) == []

    start.click()
    wait_for_version(page, 0)
    assert page.locator('[data-ref="attempt-kind"]').inner_text() == words["kind"]
    daily = api_get(page, "/daily")
    attempts = next(d for d in daily["deals"] if d["game"] == "cruel")["my_attempts"]
    assert [a["ranked"] for a in attempts] == [True]
    assert attempts[0]["date"] == today.isoformat()
    screenshot(page, f"today-link-{locale}-{width}-started")
