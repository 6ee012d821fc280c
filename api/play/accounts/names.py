"""Display names.

``shown_name``: the name a player is shown by. A guest who never chose a name is shown as
"Guest 1a2b3c4d" in the reader's language ("Convidado 1a2b3c4d" in pt-PT),
whatever language the guest was made in; a chosen name is shown as written.

``display_name_clean`` and ``display_name_key``: one normal form, no invisible or direction-changing
characters, bounded combining marks, and a look-alike key to compare them.

``display_name_clean`` is what a name becomes (or ValueError with the reason
in the request's language); ``display_name_key`` is its skeleton: case
folded, compatibility-normalized, each character replaced by one
representative of its set of look-alikes (Unicode's confusables, as shipped
by the confusable-homoglyphs package). Two names with the same key look
alike ("alice" and "аlice" with a Cyrillic "а", "Bob" and "B0b" do not
collide: only confusables do).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext as _

MAX_LENGTH = 40
# Nonspacing or enclosing marks in a row on one base character.
MAX_MARKS_IN_A_ROW = 2
# Refused outright: controls, format (zero-width, bidirectional controls),
# surrogates, private use, unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Letters and symbols that draw nothing (Hangul fillers, braille blank).
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
_SPACES = re.compile(r"\s+")


def display_name_clean(text: str) -> str:
    """The name as stored: NFC, runs of spaces made one, trimmed."""
    name = unicodedata.normalize("NFC", text)
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _INVISIBLE:
            raise ValueError(
                _("A display name cannot contain the invisible or control character %(code)s.")
                % {"code": f"U+{ord(char):04X}"}
            )
    marks = 0
    for char in unicodedata.normalize("NFD", name):
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > MAX_MARKS_IN_A_ROW:
            raise ValueError(
                _("A display name may have at most %(n)s accents on one letter.")
                % {"n": MAX_MARKS_IN_A_ROW}
            )
    name = _SPACES.sub(" ", name).strip()
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise ValueError(_("A display name needs at least one letter or digit."))
    if len(name) > MAX_LENGTH:
        raise ValueError(
            _("A display name has at most %(n)s characters.") % {"n": MAX_LENGTH}
        )
    return name


@functools.cache
def _representatives() -> dict[str, str]:
    """Each character that has look-alikes -> one of its set, the same for
    the whole set (ASCII first, then the lowest code point)."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = glyph["c"]
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[a] = b
    groups: dict[str, list[str]] = {}
    for char in list(parent):
        groups.setdefault(find(char), []).append(char)
    out = {}
    for members in groups.values():
        chosen = min(members, key=lambda c: (not c.isascii(), ord(c)))
        for c in members:
            out[c] = chosen
    return out


def display_name_key(name: str) -> str:
    """The look-alike skeleton of a display name (at most 200 characters)."""
    reps = _representatives()
    text = unicodedata.normalize("NFKD", name).casefold()
    text = _SPACES.sub(" ", text).strip()
    skeleton = "".join(reps.get(c, c) for c in text)
    # Mapping can give characters that themselves map on ("ſ" -> "f"...):
    # once more settles it.
    skeleton = "".join(reps.get(c, c) for c in unicodedata.normalize("NFKD", skeleton.casefold()))
    return skeleton[:200]


GUEST_PREFIX = "guest-"


def shown_name(*, display_name: str, is_guest: bool, username: str) -> str:
    if is_guest and username.startswith(GUEST_PREFIX):
        tag = username[len(GUEST_PREFIX):]
        # The made-up name ends with the tag in every language it was made in.
        if tag and display_name.endswith(tag) and len(display_name) <= len(tag) + 12:
            return _("Guest %(tag)s") % {"tag": tag}
    return display_name
