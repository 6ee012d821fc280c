"""Build the solver's C search cores; everything else is in pyproject.toml.

Every ``solitaire/solver/_*_c.c`` is one extension module of the same name
(``solitaire.solver._flower_c``...), built with the ``.c`` files of the
folder named like it without the underscore (``flower_c/``) and those of
``shared_c/`` (the parts both games' cores use: the stalled check's
search). Link-time optimisation lets the compiler inline across those files as
it did within one; hidden visibility keeps their names (``step``, ``run``)
from binding to the C library's. An editable install builds them in place."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent


SHARED = HERE / "solitaire" / "solver" / "shared_c"


def extension(source: Path) -> Extension:
    parts = source.parent / source.stem.lstrip("_")
    sources = [source, *sorted(parts.glob("*.c")), *sorted(SHARED.glob("*.c"))]
    headers = [*sorted(parts.glob("*.h")), *sorted(SHARED.glob("*.h"))]
    return Extension(
        f"solitaire.solver.{source.stem}",
        [str(s.relative_to(HERE)) for s in sources],
        depends=[str(h.relative_to(HERE)) for h in headers],
        extra_compile_args=["-O2", "-std=c11", "-Wall", "-flto", "-fvisibility=hidden"],
        extra_link_args=["-O2", "-flto"],
    )


setup(ext_modules=[extension(s) for s in sorted((HERE / "solitaire" / "solver").glob("_*_c.c"))])
