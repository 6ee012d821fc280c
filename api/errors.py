"""Every error the API can answer, as plain exceptions: the one home of the
error codes.

Each class carries its stable ``code`` (clients and the page act on it),
the HTTP ``status`` its answer has, and a default ``message`` (human text,
translated into the request's language); an instance may say more in its
own message and carry ``extra`` values beside them. The services, the
domain and the deals raise these and know nothing else of HTTP;
``api.play.rest.errors`` turns each into the one error shape, and answers
the framework's own errors (a parse error, a throttle, a wrong method) as
the class here with that code. From these classes come the OpenAPI
schema's enum of codes (``CODES``) and its list of codes per status, and
docs/API.md's table of codes (``codes_table``: ``python -m api.errors``
prints it); tests/api/play/test_play_error_codes.py holds the code, the
schema and the docs equal. A class's docstring is its row in that table.

Imports nothing of the apps: api.deals and api.play both raise these.
"""

from __future__ import annotations

import math

from django.utils.translation import gettext_lazy


class ApiError(Exception):
    """Bad input: `fields` maps each field refused to its messages."""

    code = "bad_request"
    status = 400
    message = gettext_lazy("The request is not valid.")

    def __init__(self, message=None, *, extra: dict | None = None):
        self.message = message or self.message
        self.extra = extra or {}
        super().__init__(str(self.message))


# -- 400 ----------------------------------------------------------------------------


class BadDate(ApiError):
    """A date in a path that is not `YYYY-MM-DD`."""

    code = "bad_date"
    message = gettext_lazy("That is not a date: use YYYY-MM-DD.")


class BadMonth(ApiError):
    """A month in a path that is not `YYYY-MM`."""

    code = "bad_month"
    message = gettext_lazy("That is not a month: use YYYY-MM.")


class InvalidMove(ApiError):
    """A move token the engine cannot read."""

    code = "invalid_move"


class BadCredentials(ApiError):
    """A wrong username or password (counted towards the lockout)."""

    code = "bad_credentials"
    message = gettext_lazy("Wrong username or password.")


class PasswordRequired(ApiError):
    """Deleting a registered account without its password."""

    code = "password_required"
    message = gettext_lazy("Give your password to delete your account.")


class ConfirmationRequired(ApiError):
    """Deleting a guest without `"confirm": true`."""

    code = "confirmation_required"
    message = gettext_lazy("Confirm the deletion: send \"confirm\": true.")


# -- 401 ----------------------------------------------------------------------------


class NotAuthenticated(ApiError):
    """A token that is not valid, expired or revoked (with `WWW-Authenticate: Token`);
    deleting an account with no player in the session."""

    code = "not_authenticated"
    status = 401
    message = gettext_lazy("Authentication credentials were not provided or are not valid.")


# -- 403 ----------------------------------------------------------------------------


class Forbidden(ApiError):
    """Allowed to others, not to this player."""

    code = "forbidden"
    status = 403
    message = gettext_lazy("You may not do that.")


class CsrfFailed(Forbidden):
    """An unsafe request of a session without the CSRF header."""

    code = "csrf_failed"
    message = gettext_lazy(
        "The CSRF check failed: send the csrftoken cookie's value in X-CSRFToken.")


class HintNotForRanked(Forbidden):
    """A hint on a ranked attempt in play, or on its deal while it is."""

    code = "hint_not_for_ranked"
    message = gettext_lazy(
        "Hints are for practice: a ranked attempt gets none until it is finished."
    )


class HintsSealed(Forbidden):
    """A hint on a deal whose day lasts."""

    code = "hints_sealed"
    message = gettext_lazy(
        "No hints on a deal while its day lasts: they open when the day ends."
    )


class AnalysisNotYet(Forbidden):
    """An analysis on a deal whose ranked attempt of the player's is in play."""

    code = "analysis_not_yet"
    message = gettext_lazy(
        "No analysis on this deal while your ranked attempt on it is being played: "
        "finish it, or wait until the day is over."
    )


class RegistrationRequired(Forbidden):
    """A guest making or joining a league, or turning on the calendar feed."""

    code = "registration_required"
    message = gettext_lazy("This is for registered players: create an account first.")


class NotLeagueOwner(Forbidden):
    """A member asking what only the league's owner may do."""

    code = "not_league_owner"
    message = gettext_lazy("Only the league's owner may do that.")


# -- 404 ----------------------------------------------------------------------------


class NotFound(ApiError):
    """No such path, attempt, league or member (among the player's own)."""

    code = "not_found"
    status = 404
    message = gettext_lazy("Not found.")


class UnknownGame(NotFound):
    """A game that is neither `cruel` nor `flower`."""

    code = "unknown_game"


class FutureDate(NotFound):
    """A day (or month) that has not begun."""

    code = "future_date"
    message = gettext_lazy("That day has not begun yet.")


class DealNotReady(NotFound):
    """No verified deal of the game that day."""

    code = "deal_not_ready"


class DayNotOver(NotFound):
    """A solution or post-mortem asked for before its day is over."""

    code = "day_not_over"
    message = gettext_lazy("The solution is published once the day is over.")


class BeforeFirstDay(NotFound):
    """A month of the archive before the service's first day."""

    code = "before_first_day"


class UnknownInvite(NotFound):
    """A league invite code that is not (or no longer) valid."""

    code = "unknown_invite"
    message = gettext_lazy("This invite is not valid: ask for a new link.")


# -- 405, 406 -----------------------------------------------------------------------


class MethodNotAllowed(ApiError):
    """A method the path does not take."""

    code = "method_not_allowed"
    status = 405
    message = gettext_lazy("This method is not allowed here.")


class NotAcceptable(ApiError):
    """An `Accept` header the API cannot answer (it answers JSON)."""

    code = "not_acceptable"
    status = 406
    message = gettext_lazy("The API answers JSON only: accept application/json.")


# -- 409 ----------------------------------------------------------------------------


class Conflict(ApiError):
    """The request does not fit the state things are in (the subclasses say how)."""

    status = 409


class StaleVersion(Conflict):
    """The attempt moved on since the version sent (`state`: the attempt as it is now)."""

    code = "stale_version"
    message = gettext_lazy(
        "The attempt has changed since that version (another tab moved first)."
    )

    def __init__(self, *, state, **kwargs):
        super().__init__(**kwargs)
        self.state = state


class AttemptFinished(Conflict):
    """A move or undo on an attempt that is over."""

    code = "attempt_finished"
    message = gettext_lazy("This attempt is over: no more moves.")


class NothingToUndo(Conflict):
    """An undo with no move to undo."""

    code = "nothing_to_undo"
    message = gettext_lazy("There is no move to undo.")


class DayOver(Conflict):
    """A move on a ranked attempt whose day is over (`day_ended_at`)."""

    code = "day_over"
    message = gettext_lazy(
        "The day of this ranked attempt is over: its record stays as it was at midnight."
    )


class ActionLimit(Conflict):
    """An attempt at `PLAY_MAX_ACTIONS_PER_ATTEMPT` moves and undos (`limit`)."""

    code = "action_limit"


class AttemptLimit(Conflict):
    """A player at `PLAY_MAX_ATTEMPTS_PER_DEAL` attempts on the deal (`limit`)."""

    code = "attempt_limit"


class RankedOpen(Conflict):
    """Practice on today's deal while the ranked attempt on it is open."""

    code = "ranked_open"
    message = gettext_lazy(
        "Your ranked attempt on this deal is still open: practice opens once it is finished, "
        "or when the day is over."
    )


class AttemptNotOver(Conflict):
    """An analysis of an attempt still in play."""

    code = "attempt_not_over"
    message = gettext_lazy("The analysis comes once the attempt is over.")


class AnalysisPending(Conflict):
    """An analysis not done yet: ask again in a moment."""

    code = "analysis_pending"
    message = gettext_lazy("The analysis of this attempt is not done yet: try again in a moment.")


class UsernameTaken(Conflict):
    """A username taken by another account (ignoring case)."""

    code = "username_taken"
    message = gettext_lazy("That username is taken.")


class AlreadyRegistered(Conflict):
    """Registering an account that is registered already."""

    code = "already_registered"
    message = gettext_lazy("You are already registered.")


class DisplayNameTaken(Conflict):
    """A display name that looks like another player's."""

    code = "display_name_taken"


class LeagueLimit(Conflict):
    """An owner at `LEAGUES_PER_OWNER` leagues making another."""

    code = "league_limit"


class LeagueFull(Conflict):
    """Joining a league at `LEAGUE_MAX_MEMBERS` members."""

    code = "league_full"


class OwnerStays(Conflict):
    """The owner leaving (or removed from) their own league: close it instead."""

    code = "owner_stays"
    message = gettext_lazy("The owner does not leave a league: close it instead.")


# -- 413, 415, 422 ------------------------------------------------------------------


class PayloadTooLarge(ApiError):
    """A body over `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes, refused before it is decoded."""

    code = "payload_too_large"
    status = 413
    message = gettext_lazy("The request's body is too large.")


class UnsupportedMediaType(ApiError):
    """A body that is not `application/json`."""

    code = "unsupported_media_type"
    status = 415
    message = gettext_lazy("The body must be JSON: send Content-Type: application/json.")


class IllegalMove(ApiError):
    """A move the rules refuse in the attempt's position (`move`, `reason`)."""

    code = "illegal_move"
    status = 422


class BatchNotHome(ApiError):
    """A ranked batch holding a move that is not a forced or safe move home (`move`)."""

    code = "batch_not_home"
    status = 422


# -- 429 ----------------------------------------------------------------------------


class Throttled(ApiError):
    """Over a rate, or a username locked out after wrong passwords (`Retry-After`)."""

    code = "throttled"
    status = 429
    message = gettext_lazy("Too many requests.")

    def __init__(self, message=None, *, wait: float | None, **kwargs):
        super().__init__(message, **kwargs)
        self.wait = math.ceil(wait) if wait is not None else None  # whole seconds


class HeavyBusy(ApiError):
    """Another heavy answer (the analysis' positions, the replayed log) is
    being built for this player: one at a time (`Retry-After`)."""

    code = "heavy_busy"
    status = 429
    message = gettext_lazy(
        "Another request of yours like this one is being answered: please ask again in a moment.")


# -- 5xx ----------------------------------------------------------------------------


class ServerError(ApiError):
    """A fault of ours (logged); never meant to happen."""

    code = "server_error"
    status = 500
    message = gettext_lazy("Something went wrong on our side.")


class Unavailable(ApiError):
    """The database cannot be reached (`Retry-After`)."""

    code = "unavailable"
    status = 503
    message = gettext_lazy("The service is briefly unavailable: please try again shortly.")


class HintsBusy(ApiError):
    """Every solver slot for hints is taken (`Retry-After`)."""

    code = "hints_busy"
    status = 503
    message = gettext_lazy("Hints are busy right now: please ask again in a moment.")


# -- the catalogue ------------------------------------------------------------------


def _classes(base: type[ApiError] = ApiError) -> list[type[ApiError]]:
    found = [base]
    for sub in base.__subclasses__():
        found.extend(_classes(sub))
    return found


def by_code() -> dict[str, type[ApiError]]:
    """Each code the API answers, to its class (one class a code); a class
    that only groups others (Conflict) takes its base's code and is left out."""
    classes = {}
    for cls in _classes():
        if "code" in cls.__dict__:
            classes[cls.code] = cls
    return dict(sorted(classes.items(), key=lambda item: (item[1].status, item[0])))


CODES = list(by_code())


def codes_of_status(status: int) -> list[str]:
    return [code for code, cls in by_code().items() if cls.status == status]


def _row(cls: type[ApiError]) -> str:
    doc = " ".join((cls.__doc__ or "").split())
    return f"| `{cls.code}` | {cls.status} | {doc} |"


def codes_table() -> str:
    """docs/API.md's table of codes, from the classes."""
    lines = ["| Code | Status | When |", "| --- | --- | --- |"]
    lines.extend(_row(cls) for cls in by_code().values())
    return "\n".join(lines)


if __name__ == "__main__":
    print(codes_table())
