"""Compute the difficulty scale (api/deals/difficulty_scale.json): the
percentiles of the solver's difficulty figure over a large sample of
solvable deals of each game.

    python manage.py difficulty_scale                      # from the committed solver baselines
    python manage.py difficulty_scale --sample 1000 --max-seconds 10   # solve a fresh sample here

The baselines (benchmarks/baselines/<game>-1000-10s.jsonl) hold the solver's
verdict on seeds 0-999 of each game; only solved deals count, as only those
are ever served."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from api.deals.difficulty import SCALE_FILE, percentiles_of
from api.deals.models import Game

BASELINES = Path(settings.BASE_DIR) / "benchmarks" / "baselines"


class Command(BaseCommand):
    help = "Compute the percentiles of the solver's difficulty figure per game (difficulty_scale.json)."

    def add_arguments(self, parser):
        parser.add_argument("--sample", type=int, default=0,
                            help="solve this many fresh seeds per game instead of reading the baselines")
        parser.add_argument("--max-seconds", type=float, default=10.0)
        parser.add_argument("--output", default=str(SCALE_FILE))

    def handle(self, *args, sample: int, max_seconds: float, output: str, **options):
        games = {}
        for game in Game.values:
            figures, source = (self._solve(game, sample, max_seconds) if sample
                               else self._baseline(game))
            games[game] = {"sample": len(figures), "source": source, "percentiles": percentiles_of(figures)}
            self.stdout.write(f"{game}: {len(figures)} solved deals, median {games[game]['percentiles'][50]}")
        lines = ",\n".join(f"  {json.dumps(game)}: {json.dumps(table)}" for game, table in games.items())
        Path(output).write_text('{"games": {\n' + lines + "\n}}\n", encoding="utf-8")
        self.stdout.write(f"wrote {output}")

    def _baseline(self, game: str) -> tuple[list[float], str]:
        path = BASELINES / f"{game}-1000-10s.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [r["difficulty"] for r in rows if r["status"] == "solved"], str(path.relative_to(settings.BASE_DIR))

    def _solve(self, game: str, sample: int, max_seconds: float) -> tuple[list[float], str]:
        import solitaire

        figures = []
        for seed in range(sample):
            result = solitaire.solve(solitaire.deal(game, seed=seed), max_seconds=max_seconds)
            if result.status == solitaire.SolveStatus.SOLVED:
                figures.append(result.difficulty)
        return figures, f"seeds 0-{sample - 1} solved here, {max_seconds} s each"
