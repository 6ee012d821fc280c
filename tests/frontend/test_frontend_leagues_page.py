"""The leagues page and the account page's calendar feed, as the server
renders them in both languages (no browser: their scripts read the API,
whose answers tests/api/play/test_play_leagues.py and
test_play_calendar_feed.py check)."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Leagues", "Your leagues", "Create the league", "Today's board", "This week",
            "the one ranked r earns n − r + 1 points"]),
    ("pt-pt", ["Ligas", "As suas ligas", "Criar a liga", "Classificação de hoje", "Esta semana",
               "o que fica em r.º lugar ganha n − r + 1 pontos"]),
])
def test_the_leagues_page_speaks_both_languages(client, language, words):
    page = client.get("/leagues/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page, word
    assert 'data-invite=""' in page
    assert 'href="/leagues/" aria-current="page"' in page  # in the menu, marked as here


@pytest.mark.django_db
def test_an_invite_link_opens_the_page_with_its_code(client):
    page = client.get("/leagues/join/AbC-123_x/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-invite="AbC-123_x"' in page and "Join the league" in page


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Reminders in your calendar app", "Reminder at", "Turn off (the address stops working)"]),
    ("pt-pt", ["Lembretes na sua aplicação de calendário", "Lembrete às",
               "Desligar (o endereço deixa de funcionar)"]),
])
def test_the_account_page_offers_the_calendar_feed(client, language, words):
    page = client.get("/account/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page, word
