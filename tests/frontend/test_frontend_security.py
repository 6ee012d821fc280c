"""Every response carries a strict Content-Security-Policy and a
Permissions-Policy; the API's answers are not stored. The pages and Swagger
UI work under that policy: no inline script or style, nothing refused."""

from __future__ import annotations

import datetime as dt
import urllib.request

import pytest
from frontend_steps import start_attempt


def _refusals(page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text)
            if "Content Security Policy" in m.text or "Permissions-Policy" in m.text
            or "Permissions policy" in m.text else None)
    return messages


def _pages(today: dt.date) -> list[str]:
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    return ["/play/cruel/", "/play/flower/", "/history/", "/leaderboard/", "/account/",
            f"/replay/flower/{yesterday}/", "/rules/cruel/"]


def test_the_pages_work_under_the_policy_and_refuse_inline_script(deals, today, browser,
                                                                   live_server):
    context = browser.new_context(locale="en")
    try:
        page = context.new_page()
        refused = _refusals(page)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for path in _pages(today):
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            assert "script-src 'self'" in response.headers["content-security-policy"], path
            page.wait_for_load_state("networkidle")
        page.goto(live_server.url + "/play/cruel/")
        start_attempt(page)  # the page's modules ran and talked to the API

        # The policy is in force: an injected inline script does not run.
        ran = page.evaluate("""() => {
            const s = document.createElement('script');
            s.textContent = 'window.__inline_ran = true';
            document.body.appendChild(s);
            return window.__inline_ran === true;
        }""")
    finally:
        context.close()

    assert ran is False
    assert any("Executing inline script violates" in m for m in refused), refused
    assert [m for m in refused if "Executing inline script" not in m] == []
    assert errors == []


def test_swagger_ui_works_under_the_policy(browser, live_server):
    context = browser.new_context(locale="en")
    try:
        page = context.new_page()
        refused = _refusals(page)
        response = page.goto(live_server.url + "/api/v1/docs/")
        page.wait_for_selector(".swagger-ui .opblock")
        operations = page.locator(".swagger-ui .opblock").count()
    finally:
        context.close()

    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert operations >= 15
    assert refused == []


def _headers(url: str, **headers) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, {k.lower(): v for k, v in reply.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}


@pytest.mark.parametrize("path, api", [
    ("/api/v1/daily", True),
    ("/api/v1/no-such-thing", True),
    ("/api/v1/schema/", True),
    ("/play/cruel/", False),
    ("/health/", False),
    ("/no-such-page/", False),
])
def test_every_response_carries_the_policies(transactional_db, live_server, path, api):
    status, headers = _headers(live_server.url + path, Accept="application/json")

    assert status in (200, 404), (path, status)
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in headers["permissions-policy"]
    assert "geolocation=()" in headers["permissions-policy"]
    if api:
        assert headers["cache-control"] == "no-store", path


def test_static_files_carry_the_policies_too(client):
    # Served by WhiteNoise in production (the live server has its own handler).
    response = client.get("/static/frontend/js/site.js")

    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "camera=()" in response["Permissions-Policy"]
