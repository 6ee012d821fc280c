"""Display names.

``shown_name``: the name a player is shown by. A guest is made with a
readable name, an adjective and an animal and a number ("Swift Fox 37",
"Raposa Veloz 37" in pt-PT), stored language-neutrally as
``guest:swift-fox-37`` and shown in the reader's language, whatever
language the guest was made in. Guests made before that are shown as
"Guest 1a2b3c4d" ("Convidado 1a2b3c4d"). A chosen name is shown as written.
The words are tables here, not translation catalogs: the pt-PT name puts
the adjective after the animal and agrees with its gender.

``display_name_clean`` and ``display_name_key``: one normal form, no invisible or direction-changing
characters, bounded combining marks, and a look-alike key to compare them.
A chosen name may not look like any guest's made-up name in either language
(``guest_name_reserved``), so no player can pass for a guest or take its name.

``display_name_clean`` is what a name becomes (or ValueError with the reason
in the request's language); ``display_name_key`` is its skeleton:
compatibility-normalized, each character replaced by one representative of
its set of look-alikes (Unicode's confusables, UTS #39's confusables.txt as
shipped by the confusable-homoglyphs package), then case folded and mapped
again. The database holds one player per key (a unique index), so of
parallel claims of one name exactly one wins. Two names with the same key look
alike ("alice" and "аlice" with a Cyrillic "а", "Bobby" and "ВOBBY" with a
Cyrillic "В", "Bob" and "B0b"); "Bob" and "Rob" do not collide: only
confusables do.
"""

from __future__ import annotations

import functools
import re
import secrets
import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import get_language
from django.utils.translation import gettext as _

MAX_LENGTH = 40
# Nonspacing or enclosing marks in a row on one base character.
MAX_MARKS_IN_A_ROW = 2
# Refused outright: controls, format (zero-width, bidirectional controls),
# surrogates, private use, unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Letters and symbols that draw nothing (Hangul fillers, braille blank).
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as
# nothing, though some are marks (U+034F, variation selectors) or letters.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _invisible(char: str) -> bool:
    if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _INVISIBLE:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)

_SPACES = re.compile(r"\s+")


def display_name_clean(text: str) -> str:
    """The name as stored: NFC, runs of spaces made one, trimmed."""
    name = unicodedata.normalize("NFC", text)
    for char in name:
        if _invisible(char):
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
    if guest_name_reserved(name):
        raise ValueError(
            _("%(name)r looks like a guest's name, which no player may take: choose another.")
            % {"name": name}
        )
    return name


@functools.cache
def _representatives() -> dict[str, str]:
    """Each character that has look-alikes -> one of its set, the same for
    the whole set: ASCII first, a letter before a digit or sign, lower case
    before upper ("1" -> "l", "О" -> "O"), then the lowest code point."""
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
        chosen = min(members, key=lambda c: (not c.isascii(), not c.isalpha(), not c.islower(),
                                             ord(c)))
        for c in members:
            out[c] = chosen
    return out


def display_name_key(name: str) -> str:
    """The look-alike skeleton of a display name (at most 200 characters).

    Characters beyond ASCII are mapped to their look-alikes before case is
    folded, then everything is folded and mapped: folding first would turn
    a Cyrillic "В" into "в", which looks like nothing Latin, where "В" maps
    to "B" (so "Вobby" and "Bobby" share a key). ASCII letters are folded
    first, so that "ALICE" and "alice" share one too."""
    reps = _representatives()

    def mapped(text: str) -> str:
        return "".join(reps.get(c, c) for c in unicodedata.normalize("NFKD", text))

    text = _SPACES.sub(" ", unicodedata.normalize("NFKD", name)).strip()
    skeleton = "".join(c if c.isascii() else reps.get(c, c) for c in text)
    skeleton = mapped(skeleton.casefold())
    # Mapping can give characters that themselves map on ("ſ" -> "f"...):
    # once more settles it.
    skeleton = mapped(skeleton.casefold())
    return skeleton[:200]


def display_name_from_username(username: str) -> str | None:
    """The display name a username gives, through the same cleaning as a
    chosen name (None when that refuses it: invisible, no letter, like a guest's)."""
    try:
        return display_name_clean(username[:MAX_LENGTH])
    except ValueError:
        return None


def has_invisible(text: str) -> bool:
    """Any character that draws nothing or is a control (what display names refuse)."""
    return any(_invisible(char) for char in unicodedata.normalize("NFC", text))


# -- guests' made-up names -------------------------------------------------------

# (English, pt-PT masculine, pt-PT feminine).
ADJECTIVES = (
    ("Swift", "Veloz", "Veloz"), ("Brave", "Corajoso", "Corajosa"),
    ("Calm", "Calmo", "Calma"), ("Clever", "Esperto", "Esperta"),
    ("Bold", "Ousado", "Ousada"), ("Bright", "Brilhante", "Brilhante"),
    ("Cheerful", "Alegre", "Alegre"), ("Curious", "Curioso", "Curiosa"),
    ("Gentle", "Gentil", "Gentil"), ("Happy", "Feliz", "Feliz"),
    ("Kind", "Bondoso", "Bondosa"), ("Lucky", "Sortudo", "Sortuda"),
    ("Merry", "Jovial", "Jovial"), ("Nimble", "Ágil", "Ágil"),
    ("Patient", "Paciente", "Paciente"), ("Polite", "Educado", "Educada"),
    ("Proud", "Orgulhoso", "Orgulhosa"), ("Quiet", "Sossegado", "Sossegada"),
    ("Quick", "Rápido", "Rápida"), ("Shy", "Tímido", "Tímida"),
    ("Sleepy", "Sonolento", "Sonolenta"), ("Smart", "Inteligente", "Inteligente"),
    ("Strong", "Forte", "Forte"), ("Sunny", "Solarengo", "Solarenga"),
    ("Tiny", "Pequenino", "Pequenina"), ("Wise", "Sábio", "Sábia"),
    ("Witty", "Espirituoso", "Espirituosa"), ("Eager", "Entusiasta", "Entusiasta"),
    ("Golden", "Dourado", "Dourada"), ("Silver", "Prateado", "Prateada"),
)
# (English, pt-PT, its gender: "m" or "f").
ANIMALS = (
    ("Fox", "Raposa", "f"), ("Owl", "Coruja", "f"), ("Bear", "Urso", "m"),
    ("Wolf", "Lobo", "m"), ("Hare", "Lebre", "f"), ("Lynx", "Lince", "m"),
    ("Otter", "Lontra", "f"), ("Badger", "Texugo", "m"), ("Deer", "Veado", "m"),
    ("Eagle", "Águia", "f"), ("Falcon", "Falcão", "m"), ("Heron", "Garça", "f"),
    ("Swan", "Cisne", "m"), ("Dolphin", "Golfinho", "m"), ("Whale", "Baleia", "f"),
    ("Seal", "Foca", "f"), ("Turtle", "Tartaruga", "f"), ("Frog", "Rã", "f"),
    ("Squirrel", "Esquilo", "m"), ("Hedgehog", "Ouriço", "m"), ("Beaver", "Castor", "m"),
    ("Panda", "Panda", "m"), ("Tiger", "Tigre", "m"), ("Lion", "Leão", "m"),
    ("Zebra", "Zebra", "f"), ("Giraffe", "Girafa", "f"), ("Penguin", "Pinguim", "m"),
    ("Parrot", "Papagaio", "m"), ("Robin", "Pisco", "m"), ("Bee", "Abelha", "f"),
)
# The number after the pair: 30 x 30 x 90 names, so two guests rarely share one.
GUEST_NUMBERS = range(10, 100)
GUEST_NAME_PREFIX = "guest:"
_ADJECTIVE_IDS = {english.lower(): i for i, (english, _m, _f) in enumerate(ADJECTIVES)}
_ANIMAL_IDS = {english.lower(): i for i, (english, _pt, _g) in enumerate(ANIMALS)}
_GUEST_NAME = re.compile(r"guest:([a-z]+)-([a-z]+)-([0-9]{1,3})")


def guest_name_new() -> str:
    """A new guest's name as stored: ``guest:swift-fox-37`` (language-neutral)."""
    adjective = secrets.choice(ADJECTIVES)[0].lower()
    animal = secrets.choice(ANIMALS)[0].lower()
    return f"{GUEST_NAME_PREFIX}{adjective}-{animal}-{secrets.choice(GUEST_NUMBERS)}"


def _pair(adjective: int, animal: int, language: str) -> str:
    english, masculine, feminine = ADJECTIVES[adjective]
    animal_en, animal_pt, gender = ANIMALS[animal]
    if language.startswith("pt"):
        return f"{animal_pt} {feminine if gender == 'f' else masculine}"
    return f"{english} {animal_en}"


def guest_name_shown(stored: str, language: str | None = None) -> str | None:
    """A stored made-up name in ``language`` (the request's by default), or
    None when ``stored`` is not one."""
    match = _GUEST_NAME.fullmatch(stored)
    if match is None:
        return None
    adjective, animal = _ADJECTIVE_IDS.get(match[1]), _ANIMAL_IDS.get(match[2])
    if adjective is None or animal is None:
        return None
    return f"{_pair(adjective, animal, language or get_language() or 'en')} {match[3]}"


@functools.cache
def _reserved_keys() -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """The look-alike keys of every guest name's parts: the pairs in both
    languages, the numbers, the words of the older "Guest 1a2b3c4d" names,
    and the hex digits of their tags."""
    pairs = frozenset(display_name_key(_pair(a, b, language))
                      for a in range(len(ADJECTIVES)) for b in range(len(ANIMALS))
                      for language in ("en", "pt-pt"))
    numbers = frozenset(display_name_key(str(n)) for n in range(1000)) | frozenset(
        display_name_key(f"{n:02d}") for n in range(100))
    words = frozenset(display_name_key(word) for word in ("Guest", "Convidado"))
    hex_digits = frozenset(display_name_key(c) for c in "0123456789abcdef")
    return pairs, numbers, words, hex_digits


def guest_name_reserved(name: str) -> bool:
    """True when ``name`` is or looks like a guest's made-up name as shown in
    either language ("Swift Fox 37", "Raposa Veloz", "Guest 1a2b3c4d"), or
    is the stored form."""
    if name.casefold().startswith(GUEST_NAME_PREFIX):
        return True
    pairs, numbers, words, hex_digits = _reserved_keys()
    key = display_name_key(name)
    if key in pairs:
        return True
    head, _space, tail = key.rpartition(" ")
    if head in pairs and tail in numbers:
        return True
    return head in words and len(tail) == 8 and all(c in hex_digits for c in tail)


GUEST_PREFIX = "guest-"


def guest_name_is_made_up(*, display_name: str, username: str) -> bool:
    """The guest still has the name it was made with (not one it chose)."""
    if guest_name_shown(display_name) is not None:
        return True
    tag = username[len(GUEST_PREFIX):] if username.startswith(GUEST_PREFIX) else ""
    return bool(tag) and display_name.endswith(tag) and len(display_name) <= len(tag) + 12


def name_key_of(*, display_name: str, username: str) -> str:
    """The key a player's name is held unique by: its skeleton, or "" for a
    guest's made-up name (many guests may draw the same one, and no chosen
    name can look like one)."""
    if guest_name_is_made_up(display_name=display_name, username=username):
        return ""
    return display_name_key(display_name)


def shown_name(*, display_name: str, is_guest: bool, username: str) -> str:
    made_up = guest_name_shown(display_name)
    if made_up is not None:
        return made_up
    if is_guest and username.startswith(GUEST_PREFIX):
        tag = username[len(GUEST_PREFIX):]
        # The made-up name ends with the tag in every language it was made in.
        if tag and display_name.endswith(tag) and len(display_name) <= len(tag) + 12:
            return _("Guest %(tag)s") % {"tag": tag}
    return display_name
