"""Play today's deals in Chromium as a player does, and time the page.

Self-contained like load_bench.py (with the helpers of common.py): a scratch
PostgreSQL database, today's deals prepared and verified by the solver,
collected static files, gunicorn with DEBUG=false and the Redis cache. Then
Debian's Chromium (Playwright, 1280 x 800) opens each game's page, starts
the attempt and plays the deal's verified solution with the page's gestures:
a move home by a double-click on the card, any other move by a click on the
card and one on its target, a redeal by its button; as soon as the page
offers the forced finish (the API's `forced`), one click on that button
ends the game. Each game is played twice: with the default settings, and
with "move safe cards home" and "one gesture" on (a card with one listed
target plays on one click; moves the page sent home by itself are skipped).
A gesture the page leaves unanswered for 20 s stops the run with what the
page showed and its last API requests.

It prints, per game and settings:
- the time from pointer-up to the board redrawn with the move (the page's
  own User Timing measures, read through the Performance API:
  `play:redrawn`, a listed move drawn before the answer, a redeal drawn from
  the answer counting until then; `play:answered`, to the server's answer),
  median and max over the won game, and the time to the answer beside it;
- the clicks (a double-click is two) and gestures it took, against the
  clicks the same line took before (two a move, one a redeal).

    python benchmarks/play_bench.py [--games cruel,flower] [--port 8190]
        [--admin-url postgres://root@127.0.0.1:5432/postgres] [--db play19]
        [--cache-url redis://127.0.0.1:6379/14] [--json OUT] [--keep]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (what the service benchmarks share)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SETTINGS_KEY = "solitaire.play.settings"


def attempt_now(page) -> dict:
    """The attempt as the API has it (read outside the timed path)."""
    return page.evaluate(
        "async () => { const get = (p) => fetch('/api/v1' + p).then(r => r.json());"
        " const daily = await get('/daily');"
        " const game = document.querySelector('[data-play]').dataset.game;"
        " const mine = daily.deals.find(d => d.game === game).my_attempts;"
        " return get(`/attempts/${mine.at(-1).id}`); }"
    )


def in_play(attempt: dict, card: str) -> bool:
    position = attempt["position"]
    stacks = position.get("piles") or position.get("columns")
    return any(card in stack for stack in stacks) or card in position.get("bouquet", [])


def measures(page, name: str) -> list[tuple[int, float]]:
    """The page's User Timing measures of that name: (moves sent, ms) each."""
    return [tuple(m) for m in page.evaluate(
        "(name) => performance.getEntriesByName(name, 'measure')"
        ".map((m) => [m.detail.moves, m.duration])", name)]


class Unanswered(RuntimeError):
    """A gesture the page did not answer in time, with what the page showed."""


def watch_api(page) -> collections.deque:
    """The page's last API requests and their outcomes, noted from outside
    the page (nothing runs in it), for the report of a gesture left unanswered."""
    seen = collections.deque(maxlen=12)
    started = time.monotonic()

    def note(what):
        return lambda request: seen.append(
            f"{time.monotonic() - started:8.2f}s {what} {request.method} {request.url.split('/api/v1', 1)[-1]}"
            + (f" ({request.failure})" if what == "failed" else ""))

    page.on("request", note("sent"))
    page.on("requestfinished", note("answered"))
    page.on("requestfailed", note("failed"))
    return seen


def unanswered(page, token: str, api_log, error) -> Unanswered:
    state = page.evaluate(
        "() => { const p = document.querySelector('[data-play]');"
        " return {dataset: {...p.dataset}, message: p.querySelector('[data-ref=\"message\"]').textContent,"
        " selected: [...p.querySelectorAll('.slot--selected')].map((e) => e.dataset.card)}; }")
    return Unanswered(f"no answer to {token} in time ({error.__class__.__name__}); the page: "
                      f"{json.dumps(state)}; its last API requests:\n  " + "\n  ".join(api_log))


def play(page, base: str, game: str, line: list[str], *, quick: bool) -> dict:
    """Win the deal along `line` through the page. `quick`: the settings
    "move safe cards home" and "one gesture" are on."""
    api_log = watch_api(page)
    page.goto(f"{base}/play/{game}/")
    page.locator('[data-ref="start"]').click()
    page.wait_for_selector('[data-play][data-status="playing"][data-busy="false"]')
    clicks = gestures = 0
    for token in line:
        if page.locator('[data-ref="autofinish"]').is_visible():
            break
        attempt = attempt_now(page)
        card = token.split(">")[0]
        if token != "R" and not in_play(attempt, card):
            continue  # already home: a safe move the page played by itself
        targets = next((e["targets"] for e in attempt["legal"] if e["card"] == card), [])
        if token == "R":
            page.locator('[data-ref="redeal"]').click()
            clicks += 1
        elif quick and len(targets) == 1:
            page.locator(f'.slot[data-card="{card}"]').click()
            clicks += 1
        elif token.endswith(">F"):
            page.locator(f'.slot[data-card="{card}"]').dblclick()
            clicks += 2
        else:
            target = int(token.split(">")[1]) - 1
            page.locator(f'.slot[data-card="{card}"]').click()
            page.locator(f'.slot[data-kind="stack"][data-index="{target}"]').click()
            clicks += 2
        gestures += 1
        try:
            page.wait_for_function(
                "(v) => { const p = document.querySelector('[data-play]');"
                " return Number(p.dataset.version) > v && p.dataset.busy === 'false'"
                " && p.dataset.queued !== '1'; }", arg=attempt["version"])
        except Exception as error:  # Playwright's TimeoutError
            raise unanswered(page, token, api_log, error) from error
    if page.locator('[data-ref="autofinish"]').is_visible():
        page.locator('[data-ref="autofinish"]').click()
        clicks += 1
        gestures += 1
    page.wait_for_selector('[data-play][data-status="won"][data-busy="false"]', timeout=30_000)
    timings = {name: measures(page, name) for name in ("play:redrawn", "play:answered")}
    final = attempt_now(page)
    redrawn = [ms for moves, ms in timings["play:redrawn"] if moves == 1]
    answered = [ms for moves, ms in timings["play:answered"] if moves == 1]
    return {
        "game": game, "settings": "one gesture + safe home" if quick else "defaults",
        "moves_in_line": len(line), "moves_logged": final["counters"]["moves"],
        "status": final["status"], "clicks": clicks, "gestures": gestures,
        "clicks_before": sum(1 if t == "R" else 2 for t in line),
        "redrawn_ms": {"median": round(statistics.median(redrawn), 1), "max": round(max(redrawn), 1)},
        "answered_ms": {"median": round(statistics.median(answered), 1), "max": round(max(answered), 1)},
        "batches": [[moves, round(ms, 1)] for moves, ms in timings["play:answered"] if moves > 1],
    }


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", default="cruel,flower")
    p.add_argument("--port", type=int, default=8190)
    p.add_argument("--admin-url", default="postgres://root@127.0.0.1:5432/postgres")
    p.add_argument("--db", default="play19")
    p.add_argument("--cache-url", default="redis://127.0.0.1:6379/14")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", help="write the figures here")
    p.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = p.parse_args(argv)
    args.server_log = open(os.devnull, "w")
    return args


def prepare(env: dict) -> tuple[str, dict[str, list[str]]]:
    """The database migrated, today's deals verified, the static files
    collected (pages name them through the manifest, as in production);
    today's date and each game's line."""
    common.manage(env, "collectstatic", "--no-input")
    common.manage(env, "migrate", "--no-input")
    common.manage(env, "prepare_deals")
    return common.today_deals(env)


def play_both_ways(browser, base: str, game: str, line: list[str]) -> list[dict]:
    """The deal won along ``line`` with the default settings, then with
    "move safe cards home" and "one gesture" on."""
    results = []
    for quick in (False, True):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(20_000)
        if quick:
            context.add_init_script(
                f"localStorage.setItem('{SETTINGS_KEY}', JSON.stringify({{autoSafe: true, oneGesture: true}}))")
        results.append(play(context.new_page(), base, game, line, quick=quick))
        context.close()
    return results


def show(r: dict) -> None:
    print(f"{r['game']:<7} {r['settings']:<24} pointer-up to board redrawn: median "
          f"{r['redrawn_ms']['median']} ms, max {r['redrawn_ms']['max']} ms (answer: "
          f"median {r['answered_ms']['median']} ms, max {r['answered_ms']['max']} ms); "
          f"{r['clicks']} clicks, {r['gestures']} gestures to win (before: "
          f"{r['clicks_before']} clicks); {r['moves_logged']} moves logged "
          f"(line {r['moves_in_line']}); batches [moves, ms] {r['batches']}", flush=True)


def main(argv=None) -> int:
    args = parse_args(argv)
    from playwright.sync_api import sync_playwright

    results = []
    static_root = tempfile.mkdtemp(prefix="play-bench-static-")
    try:
        with common.scratch_database(args.admin_url, args.db, keep=args.keep) as url:
            env = {**common.server_env(args, url, args.workers, name="play-bench"), "STATIC_ROOT": static_root}
            date, lines = prepare(env)
            print(f"play_bench: {date}; gunicorn {args.workers}x{args.threads}; {os.cpu_count()} cores; "
                  f"load average {os.getloadavg()[0]:.2f}", flush=True)
            with common.Server(args, env), sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                for game in args.games.split(","):
                    for r in play_both_ways(browser, f"http://127.0.0.1:{args.port}", game, lines[game]):
                        results.append(r)
                        show(r)
                browser.close()
    finally:
        shutil.rmtree(static_root, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    won = all(r["status"] == "won" for r in results)
    return 0 if won else 1


if __name__ == "__main__":
    sys.exit(main())
