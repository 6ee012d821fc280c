"""An Output's JSON holds its declared fields and nothing else, built as
api.play.rest.shapes says."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework import serializers
from rest_framework.fields import SkipField

from api.play.rest.shapes import Computed, Moment, Output

# -- the mechanism ------------------------------------------------------------------


class PairOut(Output):
    left = serializers.IntegerField()
    right = serializers.CharField(allow_null=True, required=False)


class SampleOut(Output):
    number = serializers.IntegerField(source="count")
    text = serializers.CharField()
    maybe = serializers.CharField(allow_null=True)
    optional = serializers.CharField(required=False)
    at = Moment(source="moment.at")
    pairs = PairOut(many=True)
    pair = PairOut(source="*")
    words = serializers.ListField(child=serializers.CharField())
    doubled = Computed(serializers.IntegerField())
    hidden = Computed(serializers.CharField(required=False))

    def get_doubled(self, value) -> int:
        count = value["count"] if isinstance(value, dict) else value.count
        return count * self.context["factor"]

    def get_hidden(self, value) -> str:
        raise SkipField()


MOMENT = dt.datetime(2026, 12, 1, 23, 30, tzinfo=dt.timezone.utc)


def _sample(**changes) -> dict:
    return {"count": 3, "text": "t", "moment": {"at": MOMENT}, "pairs": [{"left": 1}],
            "left": 7, "right": None, "words": ["a", "b"], **changes}


def test_an_output_answers_its_declared_fields_and_nothing_else():
    answer = SampleOut.build(_sample(unknown="never answered"), factor=2)

    assert answer == {
        "number": 3, "text": "t", "maybe": None, "at": "2026-12-01T23:30:00+00:00",
        "pairs": [{"left": 1}], "pair": {"left": 7, "right": None}, "words": ["a", "b"],
        "doubled": 6,
    }
    assert list(answer) == [name for name in SampleOut().fields if name not in ("optional", "hidden")]
    assert SampleOut.build(_sample(optional="here"), factor=2)["optional"] == "here"
    assert SampleOut(_sample(), context={"factor": 2}).data == answer


def test_plain_values_pass_as_they_are_and_a_missing_required_one_is_an_error():
    words = ["a", "b"]
    answer = SampleOut.build(_sample(count=True, words=words), factor=1)
    assert answer["number"] is True and answer["words"] is words

    with pytest.raises(KeyError):
        SampleOut.build({key: value for key, value in _sample().items() if key != "text"}, factor=1)


def test_an_output_reads_objects_as_it_reads_mappings():
    class Thing:
        count, text, maybe, words, left, right = 3, "t", None, ["a", "b"], 7, None

        class moment:  # an attribute on the path moment.at
            at = MOMENT

        pairs = [{"left": 1}]

    assert SampleOut.build(Thing(), factor=2) == SampleOut.build(_sample(), factor=2)
