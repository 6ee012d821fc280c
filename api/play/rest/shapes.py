"""What the API's serializers are made of, both ways: fields built once per
class (``FieldsOnce``, under every ``Input`` and ``Output``), and
``Output``, whose declared fields are the one definition of an answer: they
build the JSON a view returns (``SomeOut.build(value, now=...)``, or DRF's
``SomeOut(value, context=...).data``: the same) and they are what
drf-spectacular documents, so the schema cannot say other than what is
answered.

An answer is built on every move, and DRF's own path is slow for it (its
fields copied for every instance, each value fetched and converted through
several calls: about twenty times the CPU of building the same dict by
hand). So each Output class compiles its declared fields, once, into a
Python function that reads and shapes them in turn, as DRF's fields say:

- read: ``source`` (default: the field's name) from the value given: a
  mapping's key or an object's attribute, dotted for a path, ``"*"`` for
  the value itself; a method found there is called, and a null on the way
  reads null. An absent value leaves out a field declared
  ``required=False``, is null in one that allows null, and is an error in
  any other. A ``Computed`` field reads nothing: its serializer's
  ``get_<name>(value)`` gives the value (raising ``SkipField`` leaves the
  field out).
- shaping: a nested Output builds its own (``many=True``: one for each
  item); a date becomes its ISO text; a field with a representation of its
  own (a moment, a line of moves, a field of this API's) calls it, on each
  item in a list or dict of such fields; null stays null. Any other value
  (text, a number, a boolean, a list or a dict of them) is answered as it
  comes, as a hand-built dict would answer it: the field's type is what
  the schema says it is, and tests/api/play/test_play_answers.py holds each
  answer of a session to the schema, every value to its type.
"""

from __future__ import annotations

import datetime as dt
import linecache
import operator
import types
from collections.abc import Callable, Mapping

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import get_lib_doc_excludes
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.utils.formatting import lazy_format


class FieldsOnce:
    """A serializer whose fields are built and bound once per class, not
    deep-copied by DRF for every instance. Fields keep no state between
    calls (they read the value given and raise or answer), so one bound set
    serves every request and thread; data, errors and validated data stay
    on each request's own instance.
    Measured: a move 2.06 times /health/'s CPU with it, 2.28 without (request_cpu.py)."""

    @property
    def fields(self):
        cls = type(self)
        shared = cls.__dict__.get("_shared_fields")
        if shared is None:  # two threads may both build it: either set serves
            template = cls.__new__(cls)
            serializers.Serializer.__init__(template)
            shared = serializers.BindingDict(template)
            for name, field in template.get_fields().items():
                _messages_in_each_language(field)
                shared[name] = field
            cls._shared_fields = shared
        return shared


class _FormattedEachTime:
    """DRF's lazy_format, formatted again each time it is read: DRF's keeps
    its first result, so a field serving every request would answer its
    first request's language to all."""

    __slots__ = ("template", "kwargs")

    def __init__(self, template, kwargs):
        self.template, self.kwargs = template, kwargs

    def __str__(self):
        return str(self.template).format(**self.kwargs)

    def __mod__(self, value):  # Django's ValidationError fills in its params
        return str(self) % value


def _messages_in_each_language(field) -> None:
    """The field's validators (and its child's) read their message in the
    language of the request that meets them."""
    for validator in getattr(field, "validators", ()):
        message = getattr(validator, "message", None)
        if isinstance(message, lazy_format) and message.format_string is not None:
            validator.message = _FormattedEachTime(message.format_string, message.kwargs)
    child = getattr(field, "child", None)
    if child is not None:
        _messages_in_each_language(child)


def doc_excludes() -> list:
    """SPECTACULAR_SETTINGS["GET_LIB_DOC_EXCLUDES"]: the bases here say how
    serializers work, not what an input or an answer is, so no description
    in the schema comes from them (a serializer's own docstring does)."""
    return [*get_lib_doc_excludes(), FieldsOnce, Output]


# -- fields of answers -------------------------------------------------------------


class Computed(serializers.Field):
    """A value the serializer's method ``get_<name>(value)`` computes, shaped
    and documented as ``field`` says (its type, null, help text; required
    unless ``field`` says ``required=False``)."""

    def __init__(self, field: serializers.Field, **kwargs):
        self.field = field
        super().__init__(source="*", required=field.required, **kwargs)

    def bind(self, field_name, parent):
        super().bind(field_name, parent)
        self.field.bind(field_name, parent)
        self.method_name = f"get_{field_name}"

    def to_representation(self, value):
        return self.field.to_representation(getattr(self.parent, self.method_name)(value))


class ComputedSchema(OpenApiSerializerFieldExtension):
    """drf-spectacular documents a Computed field as its ``field``."""

    target_class = Computed

    def map_serializer_field(self, auto_schema, direction):
        return auto_schema._map_serializer_field(self.target.field, direction)


class Moment(serializers.DateTimeField):
    """A moment in ISO 8601 with its offset as held (``+00:00``, not DRF's ``Z``)."""

    to_representation = staticmethod(dt.datetime.isoformat)


class TextOrNull(serializers.CharField):
    """Text, or null where it is empty."""

    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value):
        return str(value) or None


class Line(serializers.ListField):
    """A line of moves kept as one space-separated text, as its list of tokens."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.CharField(), **kwargs)

    to_representation = staticmethod(str.split)


class YearMonth(serializers.CharField):
    """A month (a date in it) as YYYY-MM."""

    to_representation = staticmethod(operator.methodcaller("strftime", "%Y-%m"))


class ClockTime(serializers.CharField):
    """A time of day as HH:MM."""

    to_representation = staticmethod(operator.methodcaller("strftime", "%H:%M"))


class once:
    """functools.cached_property without the lock Python 3.11 takes on every
    first read: a builder's ``me`` (the module says) serves one answer in
    one thread."""

    def __init__(self, func):
        self.func, self.name = func, func.__name__

    def __get__(self, me, owner=None):
        if me is None:
            return self
        value = me.__dict__[self.name] = self.func(me)
        return value


# -- Output --------------------------------------------------------------------------


# An answer's shape; the module says how its fields build it.
class Output(FieldsOnce, serializers.Serializer):
    @classmethod
    def build(cls, value, **context) -> dict:
        """The answer: ``value`` shaped as the class declares, ``context``
        what its Computed fields read beside it (``.data``'s, with no
        serializer made)."""
        return _builder(cls)(value, context)

    def to_representation(self, instance):
        return _builder(type(self))(instance, self.context)

    @property
    def context(self):
        # DRF's walks up to the root; an answer's methods ask on every field.
        return self._context if self.parent is None else self.root._context


_BUILDERS: dict[type, Callable[[object, dict], dict]] = {}


def _builder(cls) -> Callable[[object, dict], dict]:
    """``build(value, context) -> dict`` of an Output class, compiled on first use."""
    build = _BUILDERS.get(cls)
    if build is None:  # two threads may both compile: either serves
        build = _BUILDERS[cls] = _compile(cls)
    return build


# Fields whose values JSON holds as they are: answered as they come.
_PLAIN = (serializers.CharField, serializers.ChoiceField, serializers.IntegerField,
          serializers.FloatField, serializers.BooleanField, serializers.JSONField)


def _own(field, cls) -> bool:
    """The field is a ``cls`` whose to_representation is DRF's own."""
    return isinstance(field, cls) and type(field).to_representation is cls.to_representation


def _shape(field) -> tuple[str, object]:
    """How a field shapes a value that is not null: ("as is", None),
    ("call", a function of the value), ("map", that function for each item,
    none of them null), ("build", an Output's builder) or ("each", that for
    each item)."""
    if isinstance(field, Computed):
        return _shape(field.field)
    if isinstance(field, Output):
        return "build", _builder(type(field))
    if isinstance(field, serializers.ListSerializer) and isinstance(field.child, Output):
        return "each", _builder(type(field.child))
    if any(_own(field, cls) for cls in _PLAIN):
        return "as is", None
    if _own(field, serializers.DateField):
        return "call", dt.date.isoformat
    if _own(field, serializers.ListField) or _own(field, serializers.DictField):
        how, item = _shape(field.child)
        if how == "as is":
            return "as is", None
        if how != "call":
            raise TypeError(f"{field!r}: a list of answers is SomeOut(many=True)")
        if isinstance(field, serializers.DictField):
            return "call", lambda value: {k: None if v is None else item(v) for k, v in value.items()}
        if field.child.allow_null:
            return "call", lambda items: [None if i is None else item(i) for i in items]
        return "map", item
    return "call", field.to_representation


# Whether values of a type are mappings (read by key) or objects (by attribute).
_MAPPINGS: dict[type, bool] = {dict: True}


def _is_mapping(value) -> bool:
    kind = type(value)
    found = _MAPPINGS.get(kind)
    if found is None:
        found = _MAPPINGS[kind] = isinstance(value, Mapping)
    return found


def _read(value, path):
    for attr in path:
        if value is None:
            return None
        value = value[attr] if _is_mapping(value) else getattr(value, attr)
    return value() if type(value) is types.MethodType else value


_ABSENT = object()


def _compile(cls):
    """The builder of an Output class: a Python function whose lines read
    and shape each declared field in turn, as the module says, from a
    mapping's keys or from an object's attributes (a loop that decides each
    field's steps on every answer cost about twice as much)."""
    fields = cls().fields
    names = {"cls": cls, "new": object.__new__, "is_mapping": _is_mapping, "MAPPINGS": _MAPPINGS,
             "MethodType": types.MethodType,
             "SkipField": SkipField, "ABSENT": _ABSENT, "read": _read}
    steps = []
    for i, (name, field) in enumerate(fields.items()):
        how, names[f"shape{i}"] = _shape(field)
        steps.append((i, name, field, how))
    source = "\n".join([
        "def build(obj, context):",
        "    mapping = MAPPINGS.get(type(obj))",
        "    if mapping or mapping is None and is_mapping(obj):",
        *_indent(_body(steps, mapping=True), 2),
        *_indent(_body(steps, mapping=False)),
    ]) + "\n"
    filename = f"<answer builder {cls.__module__}.{cls.__qualname__}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), names)
    return names["build"]


def _body(steps, *, mapping: bool) -> list[str]:
    body = []
    if any(isinstance(field, Computed) for _i, _name, field, _how in steps):
        # What the get_<name> methods run on: self.context as given, and
        # self.instance the value, for what they share (``once``).
        body += ["me = new(cls)", "me.parent, me._context, me.instance = None, context, obj"]
    body.append("out = {}")
    for i, name, field, how in steps:
        optional = not field.required
        absent = "ABSENT" if optional else "None" if field.allow_null else None
        if isinstance(field, Computed):
            read = [f"v = me.{field.method_name}(obj)"]
            if optional:
                read = ["try:", *_indent(read), "except SkipField:", "    v = ABSENT"]
        else:
            path = tuple(field.source_attrs)
            if not path:
                read = ["v = obj"]
            elif len(path) > 1:
                read = [f"v = read(obj, {path!r})"]
                if absent:
                    read = ["try:", *_indent(read), "except (KeyError, AttributeError):",
                            f"    v = {absent}"]
            elif mapping:
                read = [f"v = obj.get({path[0]!r}, {absent})" if absent else f"v = obj[{path[0]!r}]"]
            else:
                if absent:
                    read = [f"v = getattr(obj, {path[0]!r}, {absent})"]
                elif path[0].isidentifier():
                    read = [f"v = obj.{path[0]}"]
                else:
                    read = [f"v = getattr(obj, {path[0]!r})"]
                read += ["if type(v) is MethodType:", "    v = v()"]
        if how == "as is":
            value = "v"
        else:
            value = "None if v is None else " + {
                "call": f"shape{i}(v)", "map": f"list(map(shape{i}, v))",
                "build": f"shape{i}(v, context)",
                "each": f"[shape{i}(item, context) for item in v]"}[how]
        store = [f"out[{name!r}] = {value}"]
        body += read + (["if v is not ABSENT:", *_indent(store)] if optional else store)
    body.append("return out")
    return body


def _indent(lines: list[str], depth: int = 1) -> list[str]:
    return ["    " * depth + line for line in lines]
