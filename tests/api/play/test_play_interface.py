"""One error shape, JSON 404s under /api/, throttling, the OpenAPI schema and docs."""

import re

from django.conf import settings
from django.core.cache import cache


def test_an_unknown_api_path_is_a_json_404(api):
    reply = api().get("/api/v1/no-such-thing")
    assert reply.status == 404
    assert reply.body == {"error": {"code": "not_found", "message": "Not found.", "fields": {}}}


def test_a_wrong_method_is_a_json_405(api):
    reply = api().request("PUT", "/api/v1/me")
    assert reply.status == 405 and reply.error_code == "method_not_allowed"


def test_messages_follow_accept_language_and_codes_stay_the_same(api):
    english = api(language="en").post("/api/v1/attempts", {"game": "cruel", "date": "x"})
    portuguese = api(language="pt-pt").post("/api/v1/attempts", {"game": "cruel", "date": "x"})
    assert english.error_code == portuguese.error_code == "bad_request"
    assert set(english.body["error"]) == {"code", "message", "fields"}


def test_anonymous_and_player_rates_are_throttled(api, bare_api, settings, todays_deals, today):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "5/min"},
    }
    anonymous = bare_api()
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    statuses = [anonymous.get(url).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    reply = anonymous.get(url)
    assert reply.error_code == "throttled" and "Retry-After" in reply.headers
    cache.clear()
    player = bare_api()
    assert player.get("/api/v1/me").status == 200  # anonymous: makes the guest
    statuses = [player.get("/api/v1/me").status for _ in range(6)]
    assert statuses == [200] * 5 + [429]  # now counted per player


def test_the_openapi_schema_and_docs_are_served(api):
    player = api()
    schema = player.get("/api/v1/schema/?format=json")
    assert schema.status == 200
    paths = schema.body["paths"]
    for path in ["/api/v1/attempts", "/api/v1/attempts/{attempt_id}/moves",
                 "/api/v1/leaderboard/{game}/{date}", "/api/v1/history", "/api/v1/auth/register"]:
        assert path in paths
    docs = player.request("GET", "/api/v1/docs/", headers={"Accept": "text/html"})
    assert docs.status == 200 and "swagger" in docs.body["_raw"].lower()
    # One schema route only: the versioned one.
    assert player.get("/api/schema/?format=json").error_code == "not_found"


def test_the_docs_page_loads_swagger_ui_from_our_own_static_files(bare_api):
    visitor = bare_api()
    page = visitor.request("GET", "/api/v1/docs/", headers={"Accept": "text/html"})
    assert page.status == 200
    html = page.body["_raw"]
    assets = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    # The start script comes from the docs URL itself (no inline script: the CSP refuses it).
    start = [url for url in assets if url.startswith("/api/v1/docs/")]
    assert len(start) == 1 and "script" in start[0], assets
    script = visitor.request("GET", start[0].replace("&amp;", "&"), headers={"Accept": "*/*"})
    assert script.status == 200 and "SwaggerUIBundle" in script.body["_raw"]
    assert script.headers["Content-Type"].startswith("application/javascript")
    assets = [url for url in assets if url not in start]
    assert len(assets) >= 3, html  # the stylesheet, the bundle and the preset (and the icon)
    # Nothing from another host (no CDN): every asset is one of our static files.
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", html)
    static = "/" + settings.STATIC_URL.lstrip("/")
    assert all(url.startswith(static) for url in assets), assets
    for url in assets:
        served = visitor.request("GET", url, headers={"Accept": "*/*"})
        assert served.status == 200, url
        assert served.body, url
    assert any(url.endswith("swagger-ui-bundle.js") for url in assets)
