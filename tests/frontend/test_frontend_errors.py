"""The 404 and 500 pages under production settings (DEBUG off): in the
site's style and language, with a way back; the 500 page renders without a
request or the database. /api/ paths keep their JSON errors."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

WORDS = {
    "en": {"404": "This page does not exist", "500": "Something went wrong on our side",
           "title404": "Page not found · Daily solitaire", "title500": "Server error · Daily solitaire",
           "home": "Today's deals"},
    "pt-PT": {"404": "Esta página não existe", "500": "Algo correu mal do nosso lado",
              "title404": "Página não encontrada · Paciência diária",
              "title500": "Erro do servidor · Paciência diária", "home": "As distribuições de hoje"},
}
LANGS = {"en": "en", "pt-PT": "pt-pt"}
VIEWS = [("en", 1280, 800), ("pt-PT", 1280, 800), ("en", 390, 844), ("pt-PT", 390, 844)]


@pytest.fixture
def failing_page(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "error_urls"


@pytest.mark.django_db
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_missing_page_is_the_sites_404(locale, settings):
    settings.DEBUG = False
    response = Client(HTTP_ACCEPT_LANGUAGE=locale).get("/no-such-page/<b>/")
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{LANGS[locale]}">' in html
    assert f"<h1>{WORDS[locale]['404']}</h1>" in html
    assert "<code>/no-such-page/%3Cb%3E/</code>" in html  # the address as asked, quoted
    assert 'class="site-header"' in html and "frontend/css/site.css" in html
    assert WORDS[locale]["home"] in html
    assert 'class="language"' in html  # a request: the language can be switched here
    api = Client().get("/api/v1/no-such-thing")
    assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_a_failing_page_is_the_sites_500(locale, failing_page):
    response = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=locale).get("/fail/")
    assert response.status_code == 500
    html = response.content.decode()
    assert f'<html lang="{LANGS[locale]}">' in html
    assert f"<h1>{WORDS[locale]['500']}</h1>" in html
    assert 'class="site-header"' in html and "frontend/css/site.css" in html
    assert "a fault in a page" not in html and "Traceback" not in html


@pytest.mark.parametrize("locale", ["en", "pt-PT"])
def test_the_500_page_needs_no_request_context_nor_the_database(locale, settings):
    """No database fixture: a query here would fail the test."""
    settings.DEBUG = False
    with translation.override(LANGS[locale]):
        response = server_error(RequestFactory().get("/fail/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert f"<h1>{WORDS[locale]['500']}</h1>" in html
    assert f"<title>{WORDS[locale]['title500']}</title>" in html
    assert 'class="language"' not in html  # no request, no CSRF token: no language form


@pytest.mark.parametrize(("locale", "width", "height"), VIEWS)
def test_the_404_and_500_pages_in_the_browser(locale, width, height, transactional_db, failing_page,
                                              viewport_context, live_server, screenshot, audit):
    phone = width < 700
    context = viewport_context(locale, width, height)
    page = context.new_page()
    for code, path in (("404", "/no-such-page/"), ("500", "/fail/")):
        response = page.goto(live_server.url + path)
        assert response.status == int(code)
        assert page.locator("h1").inner_text() == WORDS[locale][code]
        assert page.title() == WORDS[locale][f"title{code}"]
        # The site's style: its background, its header, its buttons.
        assert page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor") \
            == "rgb(244, 241, 234)"
        home = page.get_by_role("link", name=WORDS[locale]["home"])
        assert home.is_visible() and home.get_attribute("href") == "/"
        screenshot(page, f"error-{code}-{locale}-{width}")
        if phone:
            page.locator(".menu-button").tap()
        links = page.evaluate(
            "() => [...document.querySelectorAll('.site-header nav a')].map(a => {"
            " const r = a.getBoundingClientRect(); return [r.left, r.right, !!a.offsetParent]; })")
        assert len(links) == 7 and all(left >= 0 and right <= width and shown for left, right, shown in links)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert audit(page) == []
