"""Build the solver's C search cores; everything else is in pyproject.toml.

Every ``solitaire/solver/_*_c.c`` is one extension module of the same name
(``solitaire.solver._flower_c``...). An editable install builds them in place."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent

setup(
    ext_modules=[
        Extension(
            f"solitaire.solver.{source.stem}",
            [str(source.relative_to(HERE))],
            extra_compile_args=["-O2", "-std=c11", "-Wall"],
        )
        for source in sorted((HERE / "solitaire" / "solver").glob("_*_c.c"))
    ]
)
