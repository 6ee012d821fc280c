"""On the home screen: the manifest is linked and Chromium parses it without
errors, its icons are the PNGs it names, the service worker registers for the
whole site and Chromium finds the site installable, and with the network gone a reload shows the offline state, not
the browser's error; API answers are never in its cache."""

from __future__ import annotations

import struct

import pytest


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


def test_the_manifest_is_linked_and_parsed_with_its_icons(open_page, live_server):
    page = open_page("/history/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest")
    assert found["errors"] == []
    # As the browser asks for it: in the page's language.
    reply = page.evaluate("""(href) => fetch(href).then(async (r) => (
      {type: r.headers.get("content-type"), body: await r.json()}))""", href)
    assert reply["type"] == "application/manifest+json"
    manifest = reply["body"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] == page.locator(".site-title").inner_text() == "Daily solitaire"
    assert manifest["theme_color"] == page.locator('meta[name="theme-color"]').get_attribute("content")
    icons = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), src in icons.items():
        image = page.request.get(live_server.url + src)
        assert image.headers["content-type"] == "image/png"
        assert "x".join(map(str, _png_size(image.body()))) == sizes


def test_chromium_finds_the_site_installable(profile_context, live_server):
    # Chromium's own installability checks (what Lighthouse's PWA audit ran).
    page = profile_context.new_page()
    page.goto(live_server.url + "/")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    cdp = profile_context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


@pytest.mark.usefixtures("deals")
def test_the_service_worker_serves_the_offline_state_and_never_caches_the_api(open_page):
    page = open_page("/history/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope.endswith("/") and scope.count("/") == 3  # the whole site
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    page.wait_for_selector("[data-ref=content]:not([hidden])")  # drawn from the API's answers

    page.context.set_offline(True)
    page.reload()
    heading = page.get_by_role("heading", level=1)
    assert heading.inner_text() == "Offline: moves need the connection"
    banner = page.locator("[data-offline-banner]")
    banner.wait_for(state="visible")
    assert banner.inner_text() == "Offline: moves need the connection."
    assert page.evaluate(
        "fetch('/api/v1/daily').then(() => 'answered', () => 'refused')") == "refused"

    cached = page.evaluate("""async () => {
      const urls = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      }
      return urls;
    }""")
    paths = [url.split("/", 3)[3] for url in cached]
    assert "static/frontend/css/site.css" in paths and "static/frontend/js/history.js" in paths
    assert not [p for p in paths if p.startswith("api/")]

    page.context.set_offline(False)  # the offline page goes back to the page by itself
    page.wait_for_selector("[data-ref=content]:not([hidden])")
    assert page.locator("[data-offline-banner]").is_hidden()
