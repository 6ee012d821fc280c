"""Thin views: validate input, call one service or selector, shape the
answer with its Output (api.play.rest.answers)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.middleware.csrf import get_token
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from api import clock, errors
from api.deals import selectors as day_deals
from api.deals.models import DailyDeal, Game
from api.play.accounts import lockout, privacy, tokens
from api.play.accounts import services as accounts
from api.play.attempts import post_mortem
from api.play.attempts import services as attempts
from api.play.records import leaderboard, selectors
from api.play.rest import answers as out
from api.play.rest import heavy, throttles
from api.play.rest import inputs as s
from api.play.rest.auth import csrf_enforce, user_or_guest
from api.play.rest.caching import cacheable
from api.play.rest.schema import DATE, GAME, MONTH, BodyOnDeleteSchema, documented
from api.replica import public_reads


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _date(text: str) -> dt.date:
    try:
        return clock.parse_day(text)
    except ValueError:
        raise errors.BadDate(_("%(date)r is not a date: use YYYY-MM-DD.") % {"date": text}) from None


def deal_at(game: str, date: str, now: dt.datetime) -> DailyDeal:
    """The deal a URL's game and date name (``.../{date}/{game}``): the
    verified deal of a day that has begun, else the lookup's error."""
    return day_deals.deal_for(game=game, date=_date(date), now=now)


# -- players -------------------------------------------------------------------------


class MeView(APIView):
    schema = BodyOnDeleteSchema()

    @documented(ok={200: out.PlayerOut},
                summary="The current player (a guest is made on a first visit)")
    def get(self, request):
        user = user_or_guest(request)
        get_token(request._request)  # sets the CSRF cookie the page will send back
        return Response(out.PlayerOut.build(accounts.player_get_or_create(user=user)))

    @documented(request=s.PlayerIn, ok={200: out.PlayerOut}, errors=(409,),
                summary="Change the display name")
    def patch(self, request):
        data = _valid(s.PlayerIn, request.data)
        user = user_or_guest(request)
        return Response(out.PlayerOut.build(accounts.player_rename(user=user, **data)))

    @documented(request=s.AccountDeleteIn, ok={204: None}, errors=(400,),
                summary="Delete my account and everything kept about me; the session ends")
    def delete(self, request):
        data = _valid(s.AccountDeleteIn, request.data)
        user = request.user
        if not user.is_authenticated:
            raise exceptions.NotAuthenticated(_("There is no account in this session to delete."))
        if user.has_usable_password():
            if "password" not in data:
                raise errors.PasswordRequired()
            _authenticate(request, {"username": user.get_username(), "password": data["password"]})
        elif not data["confirm"]:
            raise errors.ConfirmationRequired()
        privacy.account_delete(user=user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyDataView(APIView):
    @documented(ok={200: out.MyDataOut},
                summary="Everything kept about me: account, attempts with their logs, analyses, "
                "records (no password hash, session key or token)")
    def get(self, request):
        user = user_or_guest(request)
        player = accounts.player_get_or_create(user=user)
        data = privacy.player_data(user=user, player=player, now=clock.now())
        return Response(out.MyDataOut.build(data))


_DEFAULT_THROTTLES = [throttles.PlayAnonThrottle, throttles.PlayUserThrottle]


def _authenticate(request, data):
    """The user with these credentials, or 429 while the username is locked
    out after wrong passwords, or 400 bad_credentials."""
    username = data["username"]
    wait = lockout.lockout_wait(username)
    if not wait:
        user = authenticate(request._request, username=username, password=data["password"])
        if user is not None:
            return user
        wait = lockout.lockout_wait(username)
    if wait:
        raise errors.Throttled(_("Too many wrong passwords for this username."), wait=wait)
    raise errors.BadCredentials()


class RegisterView(APIView):
    throttle_classes = [*_DEFAULT_THROTTLES, throttles.RegisterAddressThrottle,
                        throttles.RegisterAccountThrottle]

    @documented(request=s.RegisterIn, ok={201: out.PlayerOut}, errors=(409,),
                summary="Turn the current guest into an account, keeping its records")
    def post(self, request):
        data = _valid(s.RegisterIn, request.data)
        user = user_or_guest(request)
        player = accounts.player_register(
            user=user, username=data["username"], password=data["password"],
            display_name=data.get("display_name") or None,
        )
        if request.auth is None:
            # The password changed: keep this session logged in (new session key).
            login(request._request, user, backend=lockout.SESSION_BACKEND)
        return Response(out.PlayerOut.build(player), status=status.HTTP_201_CREATED)


class LoginView(APIView):
    throttle_classes = [*_DEFAULT_THROTTLES, throttles.LoginAddressThrottle,
                        throttles.LoginAccountThrottle]

    @documented(request=s.CredentialsIn, ok={200: out.PlayerOut},
                summary="Log in (session); a guest's attempts on open deals go to the account")
    def post(self, request):
        data = _valid(s.CredentialsIn, request.data)
        if not request.user.is_authenticated:
            csrf_enforce(request)
        user = _authenticate(request, data)
        before = request.user
        if (before.is_authenticated and before.pk != user.pk
                and accounts.player_get_or_create(user=before).is_guest):
            accounts.guest_attempts_carry(guest=before, account=user, now=clock.now())
        login(request._request, user, backend=lockout.SESSION_BACKEND)
        get_token(request._request)
        return Response(out.PlayerOut.build(accounts.player_get_or_create(user=user)))


class LogoutView(APIView):
    @documented(ok={204: None},
                summary="Log out: ends the session and revokes the player's API token")
    def post(self, request):
        if request.user.is_authenticated:
            tokens.tokens_revoke(request.user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenView(APIView):
    throttle_classes = [*_DEFAULT_THROTTLES, throttles.TokenAddressThrottle,
                        throttles.TokenAccountThrottle]

    @documented(request=s.CredentialsIn, ok={200: out.TokenOut},
                summary="A token for API clients: Authorization: Token <key>")
    def post(self, request):
        data = _valid(s.CredentialsIn, request.data)
        user = _authenticate(request, data)
        return Response(out.TokenOut.build(tokens.token_issue(user)))


# -- daily deals ------------------------------------------------------------------------


class DailyView(APIView):
    @documented(ok={200: out.DailyOut}, operation_id="daily_today",
                summary="Today's deals and when the next day starts")
    def get(self, request):
        now = clock.now()
        today = clock.day_of(now)
        deals = [selectors.deal_read(deal=deal, user=request.user, today=today)
                 for deal in day_deals.daily_deals(day=today)]
        return Response(out.DailyOut.build({"date": today, "deals": deals}, now=now))


class DailyDocumentView(APIView):
    # Nothing personal: no session or token is read, no guest is made.
    authentication_classes = []

    @documented(ok={200: out.DailyDocumentOut}, errors=(400, 404), parameters=[DATE],
                operation_id="daily_document",
                summary="A day's public document: both deals, the same for everyone, cacheable")
    def get(self, request, date: str):
        now = clock.now()
        day = _date(date)
        today = clock.day_of(now)
        with public_reads():
            reads = [selectors.deal_read(deal=day_deals.deal_for(game=game, date=day, now=now),
                                         user=request.user, today=today)
                     for game in Game.values]
        content = JSONRenderer().render(out.DailyDocumentOut.build({"date": day, "deals": reads}))
        return cacheable(request, content, now=now, until=clock.day_end(today),
                         proxy_seconds=settings.DAILY_DOCUMENT_PROXY_SECONDS)


class DailyDealView(APIView):
    @documented(ok={200: out.DealOut}, errors=(400, 404), parameters=[DATE, GAME],
                summary="One day's deal; after the day, its position and solution")
    def get(self, request, date: str, game: str):
        now = clock.now()
        with public_reads():
            deal = deal_at(game, date, now)
        read = selectors.deal_read(deal=deal, user=request.user, today=clock.day_of(now))
        return Response(out.DealOut.build(read, now=now))


class DailySolutionView(APIView):
    @documented(ok={200: out.SolutionOut}, errors=(400, 404), parameters=[DATE, GAME],
                operation_id="daily_solution",
                summary="After the day: the solution's moves and every position along it")
    def get(self, request, date: str, game: str):
        now = clock.now()
        with public_reads():
            deal = deal_at(game, date, now)
        return Response(out.SolutionOut.build(day_deals.deal_solution(deal=deal, now=now)))


# -- attempts --------------------------------------------------------------------------


class AttemptsView(APIView):
    @documented(parameters=[s.AttemptListIn],
                ok={200: out.AttemptPageOut}, errors=(400, 404), operation_id="attempts_list",
                summary="My attempts (paginated)")
    def get(self, request):
        query = _valid(s.AttemptListIn, request.query_params)
        user = user_or_guest(request)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(
            selectors.attempts_of(user=user, game=query.get("game"), date=query.get("date")),
            request, view=self)
        return Response(out.AttemptPageOut.build(paginator, now=clock.now(),
                                                 states=selectors.states(page)))

    @documented(request=s.AttemptStartIn, ok={201: out.AttemptOut}, errors=(404, 409),
                summary="Start an attempt")
    def post(self, request):
        data = _valid(s.AttemptStartIn, request.data)
        user = user_or_guest(request)
        now = clock.now()
        state = attempts.attempt_start(user=user, game=data["game"], date=data.get("date"), now=now)
        return Response(out.AttemptOut.build(state, now=now),
                        status=status.HTTP_201_CREATED)


def _played(state_and_replayed) -> Response:
    state, replayed = state_and_replayed
    return Response(out.AttemptOut.build(state, now=clock.now(), replayed=replayed))


class AttemptView(APIView):
    @documented(ok={200: out.AttemptOut}, errors=(404,), summary="An attempt of mine")
    def get(self, request, attempt_id: int):
        user = user_or_guest(request)
        state = attempts.attempt_get(user=user, attempt_id=attempt_id)
        return Response(out.AttemptOut.build(state, now=clock.now()))


class MoveView(APIView):
    @documented(request=s.MoveIn, ok={200: out.AttemptOut}, errors=(404, 409, 422),
                summary="Make a move (notation token or R), or several in order (all or none)")
    def post(self, request, attempt_id: int):
        data = _valid(s.MoveIn, request.data)
        user = user_or_guest(request)
        if "moves" in data:
            return _played(attempts.moves_apply(
                user=user, attempt_id=attempt_id, moves=data["moves"], version=data["version"],
                now=clock.now()))
        return _played(attempts.move_apply(
            user=user, attempt_id=attempt_id, move=data["move"], version=data["version"],
            now=clock.now()))


class UndoView(APIView):
    @documented(request=s.VersionIn, ok={200: out.AttemptOut}, errors=(404, 409),
                summary="Undo the last move (counted)")
    def post(self, request, attempt_id: int):
        data = _valid(s.VersionIn, request.data)
        user = user_or_guest(request)
        return _played(attempts.move_undo(
            user=user, attempt_id=attempt_id, version=data["version"], now=clock.now()))


class FinishView(APIView):
    @documented(ok={200: out.AttemptOut}, errors=(404,), body=True,
                summary="Finish: playing becomes abandoned; the record stays as it stands")
    def post(self, request, attempt_id: int):
        user = user_or_guest(request)
        now = clock.now()
        state = attempts.attempt_finish(user=user, attempt_id=attempt_id, now=now)
        return Response(out.AttemptOut.build(state, now=now))


class RetryView(APIView):
    @documented(request=s.RetryIn, ok={201: out.AttemptOut}, errors=(400, 403, 404, 409),
                summary="Try again from here: a practice attempt from the position before a "
                "move of this attempt (once its analysis is done)")
    def post(self, request, attempt_id: int):
        data = _valid(s.RetryIn, request.data)
        user = user_or_guest(request)
        now = clock.now()
        state = attempts.attempt_retry(user=user, attempt_id=attempt_id,
                                       move_number=data["move_number"], now=now)
        return Response(out.AttemptOut.build(state, now=now),
                        status=status.HTTP_201_CREATED)


class LogView(APIView):
    @documented(ok={200: out.LogOut}, errors=(404,),
                summary="The stored log, replayed and re-checked")
    def get(self, request, attempt_id: int):
        user = user_or_guest(request)
        with heavy.one_at_a_time(user):  # the whole log replayed: one at a time
            log = attempts.attempt_log(user=user, attempt_id=attempt_id)
            return Response(out.LogOut.build(log))


class HintView(APIView):
    # Hints have their own rate per player, on top of every request's.
    throttle_classes = [*_DEFAULT_THROTTLES, throttles.PlayHintThrottle]

    @documented(
        ok={200: out.HintOut, 202: out.HintOut}, errors=(404,),
        summary="The next move of a solution ({status, move}; 202 pending while the solver "
        "searches: ask again after Retry-After); none on a deal while its ranked attempt is in "
        "play on its day",
    )
    def get(self, request, attempt_id: int):
        user = user_or_guest(request)
        hint = attempts.attempt_hint(user=user, attempt_id=attempt_id, now=clock.now())
        if hint.pending:
            return Response(out.HintOut.build(hint), status=status.HTTP_202_ACCEPTED,
                            headers={"Retry-After": str(settings.PLAY_HINT_RETRY_AFTER)})
        return Response(out.HintOut.build(hint))


class FirstMoveView(APIView):
    # The solver may run, as for a hint: the hints' own rate too.
    throttle_classes = [*_DEFAULT_THROTTLES, throttles.PlayHintThrottle]

    @documented(
        ok={200: out.FirstMoveOut, 202: out.FirstMoveOut}, errors=(403, 404),
        summary="Try again from here: does the first move of the attempt keep the win? "
        "(202 pending while the solver searches: ask again after Retry-After)",
    )
    def get(self, request, attempt_id: int):
        user = user_or_guest(request)
        judged = attempts.attempt_first_move(user=user, attempt_id=attempt_id, now=clock.now())
        if judged.pending:
            return Response(out.FirstMoveOut.build(judged), status=status.HTTP_202_ACCEPTED,
                            headers={"Retry-After": str(settings.PLAY_HINT_RETRY_AFTER)})
        return Response(out.FirstMoveOut.build(judged))


class AnalysisView(APIView):
    @documented(
        parameters=[s.AnalysisIn], ok={200: out.AnalysisOut}, errors=(400, 403, 404, 409),
        summary="Once the attempt is over: where the win slipped away (pending until the "
        "workers are done); none on a deal while its ranked attempt is in play on its day",
    )
    def get(self, request, attempt_id: int):
        query = _valid(s.AnalysisIn, request.query_params)
        user = user_or_guest(request)
        if not query["steps"]:
            return _analysis(user, attempt_id)
        with heavy.one_at_a_time(user):  # the positions: one such answer at a time
            return _analysis(user, attempt_id, steps=True)


def _analysis(user, attempt_id: int, *, steps: bool = False) -> Response:
    state, found = attempts.attempt_analysis(user=user, attempt_id=attempt_id, now=clock.now(),
                                             steps=steps)
    return Response(out.AnalysisOut.build(state, found=found))


# -- records --------------------------------------------------------------------------


class HistoryView(APIView):
    @documented(parameters=[s.HistoryIn], ok={200: out.HistoryOut}, errors=(400,),
                summary="My days, streaks and bests")
    def get(self, request):
        query = _valid(s.HistoryIn, request.query_params)
        user = user_or_guest(request)
        history = selectors.history(user=user, game=query.get("game"), now=clock.now())
        return Response(out.HistoryOut.build(history))


class PostMortemView(APIView):
    @documented(ok={200: out.PostMortemOut}, errors=(400, 404), parameters=[DATE, GAME],
                operation_id="daily_post_mortem",
                summary="After the day: who won, where the others lost the win, the deal's par")
    def get(self, request, date: str, game: str):
        now = clock.now()
        with public_reads():
            deal = deal_at(game, date, now)
            found = post_mortem.post_mortem_get(deal=deal, now=now)
        return Response(out.PostMortemOut.build(found))


class LeaderboardView(APIView):
    @documented(
        parameters=[GAME, DATE, s.LeaderboardIn],
        ok={200: out.LeaderboardOut}, errors=(400, 404),
        summary="Ranked attempts of a day's deal; ties share a rank",
    )
    def get(self, request, game: str, date: str):
        query = _valid(s.LeaderboardIn, request.query_params)
        now = clock.now()
        user_id = request.user.pk if request.user.is_authenticated else None
        with public_reads():
            deal = deal_at(game, date, now)
            board = leaderboard.leaderboard(deal=deal, user_id=user_id, limit=query["limit"],
                                            now=now, registered=query["registered"])
        response = Response(out.LeaderboardOut.build(board))
        if user_id is None and settings.LEADERBOARD_PUBLIC_SECONDS and not (
                request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.auth):
            # Asked by nobody in particular: nothing personal in it ("me" is
            # null), so a proxy may answer it for a few seconds. A day over
            # is frozen, but its lifetime stays short all the same.
            seconds = settings.LEADERBOARD_PUBLIC_SECONDS
            response["Cache-Control"] = f"public, max-age={seconds}"
        return response


def _calendar(request, game: str, month: str | None) -> Response:
    now = clock.now()
    day_deals.game_check(game)
    user = user_or_guest(request)
    today = clock.day_of(now)
    first = _month(month) if month else today.replace(day=1)
    if first > today:
        raise errors.FutureDate()
    start = selectors.first_day() or today
    if first < start.replace(day=1):
        raise errors.BeforeFirstDay(
            _("The archive starts in %(month)s.") % {"month": start.strftime("%Y-%m")})
    calendar = selectors.calendar_month(user=user, game=game, month=first, now=now)
    return Response(out.CalendarOut.build(calendar))


class CalendarView(APIView):
    @documented(ok={200: out.CalendarOut}, errors=(404,), parameters=[GAME],
                operation_id="calendar_current",
                summary="This month of a game's archive, with my record on each day that has begun")
    def get(self, request, game: str):
        return _calendar(request, game, None)


class CalendarMonthView(APIView):
    @documented(ok={200: out.CalendarOut}, errors=(400, 404), parameters=[GAME, MONTH],
                operation_id="calendar_month",
                summary="A month of a game's archive, with my record on each day that has begun")
    def get(self, request, game: str, month: str):
        return _calendar(request, game, month)


def _month(text: str) -> dt.date:
    try:
        if len(text) == 7:
            return dt.date.fromisoformat(f"{text}-01")
    except ValueError:
        pass
    raise errors.BadMonth(_("%(month)r is not a month: use YYYY-MM.") % {"month": text})
