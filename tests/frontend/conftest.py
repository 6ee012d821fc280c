"""Browser tests: Debian's Chromium driven by Playwright against the live
server (the real database of the run), today's deals set up with
certificates the solver finds here, screenshots in test-artifacts/ and an
axe-core audit helper."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the
# fixtures make here are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from certified_deals import deal_create  # noqa: E402
from frontend_steps import certified  # noqa: E402

from api.play import tasks  # noqa: E402


@pytest.fixture
def analysis_in_process(monkeypatch):
    """The workers' part, run as the finish commits (no worker in these
    tests): services queue the task by its name, which Celery hands to
    apply_async. A results sheet is ready once its analysis is in."""
    monkeypatch.setattr(tasks.analyse_attempt, "apply_async",
                        lambda args=(), kwargs=None, **options:
                        tasks.analyse_attempt.apply(args=args, kwargs=kwargs))

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


# Every wait on a page has Playwright's own ceiling, 30 s: a ceiling, not a
# pace. On a machine at a third of its speed, beside two other test workers
# and an image build, a page has taken more than 15 s to load.
@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (scripts/test does this)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield _SeenHowTo(browser)
        browser.close()


class _SeenHowTo:
    """The browser, whose new contexts have seen how each game is played (a
    play page shows its how-to by itself otherwise): new_context(first_visit=True)
    for a visitor who has not."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, *, first_visit: bool = False, **kw):
        context = self._browser.new_context(**kw)
        if not first_visit:
            context.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture
def viewport_context(browser):
    """viewport_context(locale, width, height, scale=1) -> a new visitor's
    context at that size (below 700 px wide, a phone with touch) and pixel
    ratio; closed after the test."""
    contexts = []

    def make(locale: str, width: int, height: int, scale: float = 1):
        phone = width < 700
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                      has_touch=phone, is_mobile=phone, device_scale_factor=scale)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def device_page(browser):
    """device_page(locale, view, path) -> a Page of a new player on a DEVICES
    view ("desktop" or "phone"), who has seen how to play; JavaScript errors
    fail the test."""
    from frontend_steps import DEVICES

    contexts, errors = [], []

    def make(locale: str, view: str, url: str):
        context = browser.new_context(locale=locale, **DEVICES[view])
        context.add_init_script("localStorage.setItem('solitaire.howto.seen', '1')")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def profile_context(browser, tmp_path):
    """A Chromium context with its profile on disk: Playwright's own contexts
    are incognito, where Chromium installs no web app."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield context
    context.close()


@pytest.fixture(autouse=True)
def _generous_throttles(generous_throttles):
    """Every page test: fresh cache, rates no test reaches (tests/conftest.py)."""


@pytest.fixture
def open_page(browser, live_server):
    """open_page(path, locale="en", width=1280, height=900) -> a Page in a fresh
    context (a new visitor); JavaScript errors fail the test."""
    contexts = []
    errors: list[str] = []

    def make(path: str = "/", *, locale: str = "en", width: int = 1280, height: int = 900, context=None):
        if context is None:
            context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + path)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def screenshot(artifacts):
    def take(page, name: str) -> Path:
        path = artifacts / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture(scope="session")
def axe_source():
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (scripts/test does this)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def audit(axe_source):
    """audit(page) -> the serious and critical axe-core violations of the page."""

    def run(page) -> list[dict]:
        # Evaluated by the browser's debugger, not as an inline <script>,
        # which the pages' Content-Security-Policy refuses.
        page.evaluate(axe_source)
        result = page.evaluate(
            "() => axe.run(document, {resultTypes: ['violations']})"
            ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))"
        )
        return [v for v in result if v["impact"] in ("serious", "critical")]

    return run


# -- deals --------------------------------------------------------------------------


@pytest.fixture
def deals(transactional_db, today):
    """Today's and yesterday's deals of both games, verified, with certificates."""
    made = {}
    for game in ("cruel", "flower"):
        position, certificate = certified(game)
        made[game] = deal_create(game, today, position=position, certificate=certificate)
        made[f"{game}-yesterday"] = deal_create(game, today - dt.timedelta(days=1),
                                                position=position, certificate=certificate)
    return made
