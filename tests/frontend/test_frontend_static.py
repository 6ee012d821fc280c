"""Pages that load like the best: ES modules under hashed names whose own
imports name the hashed files (a year's cache is then safe), the JavaScript
catalog at an address per language and version with a year's cache, the
service worker's list of them, and a meta description on every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from frontend.catalog import catalog_version

IMPORT = re.compile(r"""(?:import|export)\b[^;]*?\bfrom\s*["'](\./[^"']+)["']""", re.S)


def test_collected_modules_import_each_other_by_hashed_name(tmp_path, settings):
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "api.storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=str(tmp_path), STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    js = tmp_path / "frontend" / "js"
    hashed = [p for p in js.glob("*.js") if re.fullmatch(r"[a-z_]+\.[0-9a-f]{12}\.js", p.name)]
    assert {p.name.split(".")[0] for p in hashed} >= {"play", "board", "api", "format", "replay", "taps"}
    for module in hashed:
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            assert re.fullmatch(r"\./[a-z_]+\.[0-9a-f]{12}\.js", target), (module.name, target)
            assert (js / Path(target).name).exists(), (module.name, target)


def test_the_service_worker_precaches_the_hashed_names(tmp_path, settings, client):
    """Under the production storage (hashed names from the manifest) /sw.js
    answers, naming each page file by its hashed name and the static prefix."""
    from frontend import pwa

    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "api.storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=str(tmp_path), STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
        pwa._static_files.cache_clear()
        try:
            reply = client.get("/sw.js")
        finally:
            pwa._static_files.cache_clear()
    assert reply.status_code == 200, reply.content[:500]
    text = reply.content.decode()
    assert f'const STATIC_PREFIX = "{settings.STATIC_URL}";' in text
    assert re.search(r'"/static/frontend/js/play\.[0-9a-f]{12}\.js"', text)


@pytest.mark.django_db
def test_the_catalog_has_an_address_per_language_and_version_cached_a_year(client):
    version = catalog_version()
    pt = client.get(f"/jsi18n/pt-pt/{version}/")
    assert pt.status_code == 200
    assert "max-age=31536000" in pt["Cache-Control"] and "immutable" in pt["Cache-Control"]
    assert "Dica" in pt.content.decode()
    en = client.get(f"/jsi18n/en/{version}/")
    assert en.status_code == 200 and "Dica" not in en.content.decode()
    assert client.get("/jsi18n/pt-pt/000000000000/").status_code == 404
    assert client.get(f"/jsi18n/xx/{version}/").status_code == 404

    page = client.get("/play/cruel/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'src="/jsi18n/en/{version}/"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/play/flower/", "/calendar/cruel/", "/history/", "/leaderboard/",
                                  "/account/", "/rules/cruel/", "/replay/cruel/2026-01-01/"])
def test_every_page_has_a_meta_description(client, path):
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="pt-PT").content.decode()
    match = re.search(r'<meta name="description" content="([^"]+)">', page)
    assert match and len(match.group(1)) > 50, path
