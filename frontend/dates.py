"""Dates for people, in the page's language: "1 December 2026",
"1 de dezembro de 2026". ISO dates stay for machines (URLs, data attributes,
the API). Django's own Portuguese month names are capitalised, which
European Portuguese does not do, so the names are this project's."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

MONTHS = [
    pgettext_lazy("month in a date", "January"), pgettext_lazy("month in a date", "February"),
    pgettext_lazy("month in a date", "March"), pgettext_lazy("month in a date", "April"),
    pgettext_lazy("month in a date", "May"), pgettext_lazy("month in a date", "June"),
    pgettext_lazy("month in a date", "July"), pgettext_lazy("month in a date", "August"),
    pgettext_lazy("month in a date", "September"), pgettext_lazy("month in a date", "October"),
    pgettext_lazy("month in a date", "November"), pgettext_lazy("month in a date", "December"),
]


def long_date(day: dt.date) -> str:
    """The date written out in the active language."""
    return _("%(day)s %(month)s %(year)s") % {
        "day": day.day, "month": MONTHS[day.month - 1], "year": day.year,
    }
