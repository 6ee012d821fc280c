"""The error codes have one home, the exception classes of api/errors.py:
the codes the code answers, the schema's enum and docs/API.md's table are
the same set, and no code is written anywhere else."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from api import errors

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "api" / "errors.py"


def _trees():
    for path in sorted((ROOT / "api").rglob("*.py")):
        if path != HOME and "migrations" not in path.parts:
            yield path, ast.parse(path.read_text(), filename=str(path))


def _classes_used() -> set[type[errors.ApiError]]:
    """The api.errors classes the code raises or answers by: every name or
    attribute that names one, outside api/errors.py."""
    known = {cls.__name__: cls for cls in errors._classes()}
    used = set()
    for _path, tree in _trees():
        for node in ast.walk(tree):
            name = (node.id if isinstance(node, ast.Name)
                    else node.attr if isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name) and node.value.id == "errors"
                    else None)
            if name in known:
                used.add(known[name])
    return used


def test_no_code_is_written_outside_its_class():
    literal = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for keyword in node.keywords:
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant) \
                        and keyword.value.value in errors.CODES:
                    literal.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if node.args and isinstance(node.args[0], ast.Constant) \
                    and getattr(node.func, "id", None) == "error_body":
                literal.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert literal == []


def test_the_codes_answered_are_the_codes_of_the_classes():
    answered = {cls.code for cls in _classes_used()}

    assert answered == set(errors.CODES)
    assert len(errors.CODES) == len(set(errors.CODES))


def test_the_schema_enumerates_every_code_and_lists_each_status_s(api):
    schema = api().get("/api/v1/schema/?format=json").body
    components = schema["components"]["schemas"]

    assert components["ErrorCodeEnum"]["enum"] == errors.CODES
    code = components["ErrorDetailOut"]["properties"]["code"]
    assert "#/components/schemas/ErrorCodeEnum" in str(code)
    described = set()
    for path in schema["paths"].values():
        for operation in path.values():
            for status, response in operation.get("responses", {}).items():
                if int(status) >= 400:
                    listed = set(re.findall(r"`([a-z_]+)`", response["description"]))
                    assert set(errors.codes_of_status(int(status))) <= listed, (status, response)
                    described |= listed
    assert described <= set(errors.CODES) | {"fields"}


def test_the_docs_table_is_the_classes_table():
    text = (ROOT / "docs" / "API.md").read_text()
    table = re.search(r"<!-- error codes: begin -->\n(.*?)\n<!-- error codes: end -->",
                      text, re.S).group(1)

    assert table == errors.codes_table()
    documented = re.findall(r"^\| `([a-z_]+)` \| (\d+) \|", table, re.M)
    assert [code for code, _status in documented] == errors.CODES
    assert all(int(status) == errors.by_code()[code].status for code, status in documented)
