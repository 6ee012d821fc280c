"""The JSON parser of the API: a body that is not JSON, deeply nested input,
and text that cannot be encoded, are a 400 in the request's language,
never a 500.

Imports nothing of api.play at module level (DRF loads it from settings)."""

from __future__ import annotations

import io

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

# No request body of this API nests objects or lists more than two deep.
MAX_DEPTH = 32


def _too_deep(raw: bytes) -> bool:
    """True when brackets outside strings nest deeper than MAX_DEPTH (a
    linear scan, before the recursive decoder sees the text)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


def _unencodable(value) -> bool:
    """True when ``value`` holds text that UTF-8 cannot encode (JSON's
    ``"\\ud800"``: a lone surrogate is no character), at any depth."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(_unencodable(k) or _unencodable(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_unencodable(item) for item in value)
    return False


def _refuse_unencodable(data) -> None:
    """A 400 naming the field (the body's top-level key) whose text cannot
    be encoded: checked here, once for every endpoint, before anything (a
    throttle's key, the database, an answer echoing it) meets that text."""
    if not _unencodable(data):
        return
    message = _("Text that cannot be encoded: a lone surrogate (such as \\ud800) is not a character.")
    if isinstance(data, dict):
        for key, value in data.items():
            if _unencodable(key):
                break
            if _unencodable(value):
                raise ValidationError({key: [message]})
    raise ValidationError([message])


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if _too_deep(raw):
            raise ParseError(
                _("The JSON is nested more than %(depth)s levels deep.") % {"depth": MAX_DEPTH}
            )
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        except ParseError:
            # DRF's message carries the decoder's words, in English.
            raise ParseError(_("The body is not valid JSON.")) from None
        _refuse_unencodable(data)
        return data
