"""What can go wrong in play, as plain exceptions with stable codes.

The services and the attempt domain raise these; they know nothing of HTTP.
``code`` is stable for clients (the page translates by it), ``message`` is
human text in the request's language and ``extra`` carries the values the
answer adds beside them. ``api.play.rest.errors`` is the one place that
turns each into an HTTP answer.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy


class PlayError(Exception):
    code = "bad_request"
    message = gettext_lazy("The request is not valid.")

    def __init__(self, message=None, *, code: str | None = None, extra: dict | None = None):
        self.message = message or self.message
        self.code = code or self.code
        self.extra = extra or {}
        super().__init__(str(self.message))


class InvalidMove(PlayError):
    code = "invalid_move"


class IllegalMove(PlayError):
    code = "illegal_move"


class StaleVersion(PlayError):
    """The attempt moved on since the version a request named; ``state`` is
    the attempt as it is now (an AttemptState), for the answer to carry."""

    code = "stale_version"
    message = gettext_lazy(
        "The attempt has changed since that version (another tab moved first)."
    )

    def __init__(self, *, state, **kwargs):
        super().__init__(**kwargs)
        self.state = state


class AttemptFinished(PlayError):
    code = "attempt_finished"
    message = gettext_lazy("This attempt is over: no more moves.")


class NothingToUndo(PlayError):
    code = "nothing_to_undo"
    message = gettext_lazy("There is no move to undo.")


class NotFound(PlayError):
    code = "not_found"
    message = gettext_lazy("Not found.")


class FutureDate(PlayError):
    code = "future_date"
    message = gettext_lazy("That day has not begun yet.")


class DayNotOver(PlayError):
    code = "day_not_over"
    message = gettext_lazy("The solution is published once the day is over.")


class CsrfFailed(PlayError):
    code = "csrf_failed"
    message = gettext_lazy(
        "The CSRF check failed: send the csrftoken cookie's value in X-CSRFToken.")


class HintNotForRanked(PlayError):
    code = "hint_not_for_ranked"
    message = gettext_lazy(
        "Hints are for practice: a ranked attempt gets none until it is finished."
    )


class HintsSealed(PlayError):
    code = "hints_sealed"
    message = gettext_lazy(
        "No hints on a deal while its day lasts: they open when the day ends."
    )


class AnalysisNotYet(PlayError):
    code = "analysis_not_yet"
    message = gettext_lazy(
        "No analysis on this deal while your ranked attempt on it is being played: "
        "finish it, or wait until the day is over."
    )


class AttemptNotOver(PlayError):
    code = "attempt_not_over"
    message = gettext_lazy("The analysis comes once the attempt is over.")


class AnalysisPending(PlayError):
    code = "analysis_pending"
    message = gettext_lazy("The analysis of this attempt is not done yet: try again in a moment.")


class DayOver(PlayError):
    code = "day_over"
    message = gettext_lazy(
        "The day of this ranked attempt is over: its record stays as it was at midnight."
    )


class ActionLimit(PlayError):
    code = "action_limit"


class AttemptLimit(PlayError):
    code = "attempt_limit"


class RankedOpen(PlayError):
    code = "ranked_open"
    message = gettext_lazy(
        "Your ranked attempt on this deal is still open: practice opens once it is finished, "
        "or when the day is over."
    )


class BatchNotHome(PlayError):
    code = "batch_not_home"


class Conflict(PlayError):
    code = "conflict"


class Unavailable(PlayError):
    """A part the request needs (the database) cannot be reached: try again."""

    code = "unavailable"
    message = gettext_lazy("The service is briefly unavailable: please try again shortly.")


class HintsBusy(PlayError):
    """Every solver slot for hints is taken: ask again in a moment."""

    code = "hints_busy"
    message = gettext_lazy("Hints are busy right now: please ask again in a moment.")


class HeavyBusy(PlayError):
    """Another heavy answer (the analysis' positions, the replayed log) is
    being built for this player: one at a time, ask again in a moment."""

    code = "heavy_busy"
    message = gettext_lazy(
        "Another request of yours like this one is being answered: please ask again in a moment.")


class Forbidden(PlayError):
    """Allowed to others, not to this player (``code`` says why)."""

    code = "forbidden"
    message = gettext_lazy("You may not do that.")
