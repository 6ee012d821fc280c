"""The engine's examples in README.md and docs/ARCHITECTURE.md run: every
```pycon block there is a doctest (python-chess runs its README the same
way), so the documented API cannot drift from the code."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ["README.md", "docs/ARCHITECTURE.md"]
BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.M | re.S)


def blocks(document: str) -> list[str]:
    return BLOCK.findall((ROOT / document).read_text())


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_engine_examples_of_the_document_run_as_shown(document):
    found = blocks(document)
    assert found, f"{document} has no ```pycon block"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for n, text in enumerate(found, 1):
        test = parser.get_doctest(text, {}, f"{document} block {n}", document, 0)
        assert test.examples, f"{document} block {n} holds no example"
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {document} failed (above)"
