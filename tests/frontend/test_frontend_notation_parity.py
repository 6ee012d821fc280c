"""The replay draws positions the API sends in notation: the browser's
positionFromNotation (notation.js) must give exactly the engine's structured
layout (Position.to_dict) for every position along real lines of both
games, empty piles, an empty bouquet and full foundations included."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import solitaire

ROOT = Path(__file__).resolve().parents[2]
NOTATION_JS = ROOT / "frontend" / "static" / "frontend" / "js" / "notation.js"


def _positions() -> list[solitaire.Position]:
    from certified_deals import certified as certified_deal

    out = []
    for game in ("cruel", "flower"):
        start, certificate = certified_deal(game)
        out += solitaire.parse_position(start).along(certificate.split())
        rng = random.Random(game)
        for seed in range(5):
            position = solitaire.deal(game, seed)
            for _ in range(60):
                moves = position.legal_moves()
                if not moves:
                    break
                position = position.apply(rng.choice(moves))
                out.append(position)
    return out


def test_the_browser_reads_every_position_as_the_engine_lays_it_out(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: scripts/test needs Node.js for the browser's modules")
    positions = _positions()
    assert any(p.is_won() for p in positions) and any(
        p.game == "flower" and not p.bouquet for p in positions)
    lines = tmp_path / "lines.json"
    lines.write_text(json.dumps([p.notation() for p in positions]))
    script = (f"import {{ positionFromNotation }} from {json.dumps(NOTATION_JS.as_uri())};\n"
              "import { readFileSync } from 'node:fs';\n"
              "const lines = JSON.parse(readFileSync(process.argv[1], 'utf8'));\n"
              "process.stdout.write(JSON.stringify(lines.map(positionFromNotation)));\n")
    done = subprocess.run([node, "--input-type=module", "-e", script, str(lines)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    drawn = json.loads(done.stdout)
    assert len(drawn) == len(positions)
    for position, browser in zip(positions, drawn):
        assert browser == position.to_dict(), position.notation()
