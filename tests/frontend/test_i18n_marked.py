"""Every string a player reads goes through Django's i18n, and the pt-PT
catalogs are complete: no text left unmarked in a template or a page script,
no untranslated or fuzzy pt-PT entry once the catalogs are extracted afresh.
(No browser: these read the sources and run makemessages on a copy.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "frontend" / "templates" / "frontend"
SCRIPTS = ROOT / "frontend" / "static" / "frontend" / "js"
CATALOGS = {
    "frontend": ["django", "djangojs"],
    "api": ["django"],
}
# Text that is the same in every language: symbols, card and game notation.
NEUTRAL = re.compile(r"^[\s\W\d]*$|^(?:[←→·–…✓✗]|U|R|23/52)$")


def _template_text(source: str) -> list[str]:
    """Visible text and translatable attributes a template writes outside i18n tags."""
    found = []
    body = re.sub(r"{%\s*(blocktranslate|blocktrans)\b.*?{%\s*end\1\s*%}", " ", source, flags=re.S)
    body = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}", " ", body, flags=re.S)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    for name, value in re.findall(r'\b(aria-label|title|placeholder|alt)="([^"]*)"', body):
        if value.strip() and not NEUTRAL.match(value):
            found.append(f'{name}="{value}"')
    text = re.sub(r"<[^>]*>", "\n", body)
    for line in text.splitlines():
        line = line.strip()
        if line and not NEUTRAL.match(line) and re.search(r"[A-Za-z]{2}", line):
            found.append(line)
    return found


def _page_templates():
    # rules/ and privacy/ hold published texts, one file per language.
    return sorted(p for p in TEMPLATES.rglob("*.html")
                  if not {"rules", "privacy"} & set(p.relative_to(TEMPLATES).parts[:-1]))


@pytest.mark.parametrize("template", _page_templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_text_is_left_unmarked(template):
    assert _template_text(template.read_text(encoding="utf-8")) == []


def test_the_template_check_sees_an_unmarked_string():
    assert _template_text('<p>Keep playing</p><p>{% translate "Keep playing" %}</p>') == ["Keep playing"]
    assert _template_text('<nav aria-label="Months"></nav>') == ['aria-label="Months"']
    assert _template_text("<p>{% blocktranslate %}Rules of {{ x }}{% endblocktranslate %} · 4/52</p>") == []


# A string literal with two words of letters is text for people, unless it is
# an argument of gettext/ngettext, or one of these (code, not words).
_JS_STRING = re.compile(r"""(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
_CALL_BEFORE = re.compile(r"(?:\bn?gettext\(\s*|\bn?gettext\(\s*(?:[\"'`](?:\\.|[^\"'`])*[\"'`]\s*,\s*))$")
_CODE = re.compile(
    r"^(?:[a-z_-]+(?:\s+[a-z_-]+)*|.*[=<>{}\[\]#$/\\].*|use addEventListener, not .*|Failed to fetch)$"
)


def _unmarked_js(source: str) -> list[str]:
    found = []
    code = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    code = re.sub(r"^\s*//[^\n]*$", "", code, flags=re.M)
    for match in _JS_STRING.finditer(code):
        text = match.group("s")
        if not re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", text):
            continue
        if _CALL_BEFORE.search(code[max(0, match.start() - 400):match.start()]):
            continue
        if _CODE.match(text):
            continue
        found.append(text)
    return found


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("*.js")), ids=lambda p: p.name)
def test_no_script_text_is_left_unmarked(script):
    assert _unmarked_js(script.read_text(encoding="utf-8")) == []


def test_the_script_check_sees_an_unmarked_string():
    assert _unmarked_js('el.textContent = "Keep playing";') == ["Keep playing"]
    assert _unmarked_js('gettext("Keep playing"); ngettext("%(n)s day", "%(n)s days", n);') == []
    assert _unmarked_js('h("span", { class: "day-mark day-mark--won" })') == []
    assert _unmarked_js('// a comment\nconst a = 1;\nlet b = "Left unmarked";') == ["Left unmarked"]


def _entries(po: Path, *flags: str) -> list[str]:
    out = subprocess.run(["msgattrib", *flags, "--no-wrap", "--no-location", str(po)],
                         capture_output=True, text=True, check=True).stdout
    return [m for m in re.findall(r'^msgid "(.*)"$', out, flags=re.M) if m]


@pytest.mark.parametrize("app, domain", [(a, d) for a, ds in CATALOGS.items() for d in ds])
def test_the_pt_pt_catalog_is_complete_after_a_fresh_extraction(app, domain, tmp_path):
    """makemessages on a copy of the app: every string the sources mark has a
    pt-PT translation, none fuzzy, so a string added without one fails here."""
    if not shutil.which("msgattrib"):
        pytest.fail("gettext tools are missing: apt-get install -y gettext")
    copy = tmp_path / app
    shutil.copytree(ROOT / app, copy, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    extra = ["--ignore=node_modules"] if domain == "djangojs" else []
    subprocess.run(
        # django-admin, not `python -m django`: api/play/selectors.py would shadow the stdlib's.
        [str(Path(sys.executable).with_name("django-admin")), "makemessages", "-l", "pt_PT", "-d", domain,
         "--no-obsolete", *extra],
        cwd=copy, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": ""},
    )
    po = copy / "locale" / "pt_PT" / "LC_MESSAGES" / f"{domain}.po"
    assert _entries(po, "--untranslated") == []
    assert _entries(po, "--only-fuzzy") == []
    header = po.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in header
