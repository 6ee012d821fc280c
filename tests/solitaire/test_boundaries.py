"""The engine stands alone: it must never pull in Django."""

import subprocess
import sys


def test_the_engine_and_solver_import_nothing_from_django():
    code = (
        "import sys, solitaire, solitaire.solver, solitaire.cli; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery', 'api')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
