"""Lighthouse on every page of the site, served as in production.

Self-contained like play_bench.py (load_bench.py's server helpers): a scratch
PostgreSQL database, yesterday's and today's deals prepared by the solver,
collected static files (hashed names), gunicorn with DEBUG=false and the
Redis cache. Then Lighthouse (npm `lighthouse`, driving Debian's Chromium
through CHROME_PATH) audits each page in its default mobile form (a
Moto G Power screen, simulated slow 4G and a 4x slower CPU) and, with
--desktop, its desktop preset as well. It prints each page's four category
scores and its cumulative layout shift.

    npm install --prefix /tmp/lh lighthouse@12
    python benchmarks/lighthouse_bench.py --lighthouse /tmp/lh/node_modules/.bin/lighthouse [--desktop]
        [--port 8191] [--db lh19] [--json OUT]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (what the service benchmarks share)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def pages(yesterday: str) -> list[str]:
    return ["/", "/play/flower/", f"/play/cruel/{yesterday}/", "/calendar/cruel/", "/history/",
            "/leaderboard/", f"/replay/cruel/{yesterday}/", "/account/", "/rules/flower/",
            "/leagues/", "/privacy/", "/offline/"]


def audit(lighthouse: str, url: str, desktop: bool) -> dict:
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    command = [lighthouse, url, "--quiet", "--output=json", f"--output-path={out}",
               "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
               "--only-categories=" + ",".join(CATEGORIES)]
    if desktop:
        command.append("--preset=desktop")
    for tries_left in (2, 1, 0):  # Chromium's start now and then fails on a loaded machine
        run = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode == 0:
            break
        print(f"lighthouse_bench: lighthouse failed on {url} (exit {run.returncode}): "
              f"{run.stderr.strip()[-500:]}", file=sys.stderr, flush=True)
        if not tries_left:
            raise SystemExit(f"lighthouse_bench: no report for {url}")
    report = json.loads(out.read_text())
    out.unlink()
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    scores["cls"] = round(report["audits"]["cumulative-layout-shift"]["numericValue"], 3)
    for name, key in (("lcp_ms", "largest-contentful-paint"), ("tbt_ms", "total-blocking-time")):
        scores[name] = round(report["audits"][key]["numericValue"])
    # What cost points: the audits of the categories that scored below 1.
    scores["lost"] = sorted({ref["id"] for c in CATEGORIES for ref in report["categories"][c]["auditRefs"]
                             if ref["weight"] and (report["audits"][ref["id"]]["score"] or 0) < 1})
    return scores


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lighthouse", default="lighthouse")
    p.add_argument("--desktop", action="store_true", help="audit the desktop preset too")
    p.add_argument("--port", type=int, default=8191)
    p.add_argument("--admin-url", default="postgres://root@127.0.0.1:5432/postgres")
    p.add_argument("--db", default="lh19")
    p.add_argument("--cache-url", default="redis://127.0.0.1:6379/13")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", help="write the scores here")
    p.add_argument("--pages", help="only these paths, comma-separated ({yesterday} is replaced)")
    args = p.parse_args(argv)
    args.server_log = open(os.devnull, "w")

    results = []
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(common.scratch_database(args.admin_url, args.db))
        env = common.server_env(args, url, args.workers, name="lighthouse-bench")
        env["STATIC_ROOT"] = stack.enter_context(
            tempfile.TemporaryDirectory(prefix="lighthouse-bench-static-"))
        env["WHITENOISE_USE_FINDERS"] = "false"  # the collected, hashed files only
        common.manage(env, "collectstatic", "--no-input")
        common.manage(env, "migrate", "--no-input")
        yesterday = (dt.date.today() - dt.timedelta(days=1))
        common.manage(env, "prepare_deals", "--start", (yesterday - dt.timedelta(days=1)).isoformat(),
                      "--days", "3")
        print(f"lighthouse_bench: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}",
              flush=True)
        with common.Server(args, env):
            for form in ("mobile", "desktop") if args.desktop else ("mobile",):
                paths = ([x.replace("{yesterday}", yesterday.isoformat()) for x in args.pages.split(",")]
                         if args.pages else pages(yesterday.isoformat()))
                for path in paths:
                    scores = audit(args.lighthouse, f"http://127.0.0.1:{args.port}{path}", form == "desktop")
                    results.append({"page": path, "form": form, **scores})
                    print(f"{form:<8} {path:<28} " + " ".join(f"{k} {v}" for k, v in scores.items()
                                                                 if k != "lost")
                          + (f" lost: {', '.join(scores['lost'])}" if scores["lost"] else ""),
                          flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
