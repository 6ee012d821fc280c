"""The JSON parser of the API: a body too large is a 413, one with too
many objects and lists, deeply nested input, text that cannot be encoded
and a body that is not JSON are a 400 in the request's language, never a
500. The bounds hold in the web process itself, before any byte is decoded
(the proxy in front, when there is one, has its own larger bound): no body
costs a worker more than a few milliseconds or keeps its memory.
Imports nothing of api.play at module level (DRF loads it from settings)."""

from __future__ import annotations

import io

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

from api import errors

# No request body of this API nests objects or lists more than two deep,
# holds more than two of them, or comes near settings.DATA_UPLOAD_MAX_MEMORY_SIZE
# (a batch of 52 moves is under 1 KiB).
MAX_DEPTH = 32
MAX_CONTAINERS = 256


def too_large() -> errors.PayloadTooLarge:
    """A body over settings.DATA_UPLOAD_MAX_MEMORY_SIZE: Django's check
    (RequestDataTooBig, when the body was read whole first) and this
    parser's (when it reads the stream itself) both answer it."""
    return errors.PayloadTooLarge(_("The request's body is larger than %(n)s bytes.")
                                  % {"n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})


def _read_bounded(stream, parser_context) -> bytes:
    """The body, or too_large(): by its declared length before reading,
    and by what it turns out to hold."""
    bound = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    request = (parser_context or {}).get("request")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except ValueError:
        declared = 0
    if declared > bound:
        raise too_large()
    raw = stream.read(bound + 1) if stream is not None else b""
    if len(raw) > bound:
        raise too_large()
    return raw


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
        raw = _read_bounded(stream, parser_context)
        if _too_deep(raw):
            raise ParseError(
                _("The JSON is nested more than %(depth)s levels deep.") % {"depth": MAX_DEPTH}
            )
        if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:  # brackets in strings too: a bound
            raise ParseError(
                _("The JSON holds more than %(n)s objects and lists.") % {"n": MAX_CONTAINERS})
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        except ParseError:
            # DRF's message carries the decoder's words, in English.
            raise ParseError(_("The body is not valid JSON.")) from None
        _refuse_unencodable(data)
        return data
