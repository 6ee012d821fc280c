"""The work of the play API, in plain functions (views stay thin).

Naming: ``<thing>_<action>``, keyword-only typed arguments, ``now`` passed
in so time is the server's and tests can choose the day.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

import solitaire
from api import clock, metrics
from api.deals import services as deals
from api.deals.models import DailyDeal, Game
from api.play import hints, rows
from api.play.errors import (
    ActionLimit,
    AttemptFinished,
    AttemptLimit,
    Conflict,
    DayNotOver,
    DayOver,
    FutureDate,
    HintNotForRanked,
    IllegalMove,
    InvalidMove,
    NotFound,
    NothingToUndo,
    PlayError,
    StaleVersion,
)
from api.play.illegal import illegal_move_message
from api.play.models import Attempt, AttemptAction, Player
from api.play.names import display_name_key, guest_name_is_made_up, guest_name_new
from solitaire.solver import is_stalled

User = get_user_model()


# -- players -------------------------------------------------------------------


def player_get_or_create(*, user) -> Player:
    player = getattr(user, "player", None)
    if player is None:
        player, _created = Player.objects.get_or_create(
            user=user, defaults={"display_name": user.get_username()[:40], "is_guest": False}
        )
    return player


def guest_create() -> User:
    """A new guest: a user with no usable password and a made-up name, stored
    language-neutrally and shown in the reader's (api.play.names)."""
    tag = secrets.token_hex(4)
    user = User(username=f"guest-{tag}")
    user.set_unusable_password()
    user.save()
    Player.objects.create(user=user, display_name=guest_name_new(), is_guest=True)
    return user


def _name_free(*, player: Player, display_name: str) -> bool:
    """No other player's display name looks like this one."""
    key = display_name_key(display_name)
    return not Player.objects.filter(name_key=key).exclude(pk=player.pk).exists()


def _name_check(*, player: Player, display_name: str) -> None:
    if not _name_free(player=player, display_name=display_name):
        raise Conflict(
            _("%(name)r looks like another player's name: choose another.")
            % {"name": display_name},
            code="display_name_taken",
        )


def player_register(*, user, username: str, password: str, display_name: str | None) -> Player:
    """The guest becomes a registered account: same user, so same records."""
    player = player_get_or_create(user=user)
    if not player.is_guest:
        raise Conflict(_("You are already registered."), code="already_registered")
    if User.objects.filter(username__iexact=username).exclude(pk=user.pk).exists():
        raise Conflict(_("That username is taken."), code="username_taken")
    if display_name:
        _name_check(player=player, display_name=display_name)
    made_up = guest_name_is_made_up(display_name=player.display_name, username=user.get_username())
    with transaction.atomic():
        user.username = username
        user.set_password(password)
        try:
            user.save()
        except IntegrityError:
            raise Conflict(_("That username is taken."), code="username_taken") from None
        if display_name:
            player.display_name = display_name
        elif made_up and _name_free(player=player, display_name=username[:40]):
            # Still the made-up guest name (in whichever language it was
            # made): the username instead, unless it looks like another's.
            player.display_name = username[:40]
        player.is_guest = False
        player.save()
    return player


def player_rename(*, user, display_name: str) -> Player:
    player = player_get_or_create(user=user)
    _name_check(player=player, display_name=display_name)
    player.display_name = display_name
    player.save(update_fields=["display_name"])
    return player


# -- deals -----------------------------------------------------------------------


def _unknown_game(game: str) -> NotFound:
    return NotFound(
        _("Unknown game %(game)r: use one of %(games)s.")
        % {"game": game, "games": ", ".join(deals.GAMES)},
        code="unknown_game",
    )


def game_check(game: str) -> str:
    """A game named in a URL that reads no deal (the calendar): 404 unknown_game."""
    if game not in deals.GAMES:
        raise _unknown_game(game)
    return game


def deal_for(*, game: str, date: dt.date, now: dt.datetime) -> DailyDeal:
    """The verified deal of a game on a date that has begun. api.deals decides,
    and checks the game."""
    try:
        return deals.deal_get(game=game, date=date, now=now)
    except deals.UnknownGame:
        raise _unknown_game(game) from None
    except deals.DealNotYetAvailable:
        raise FutureDate() from None
    except deals.DealNotReady:
        # The game's name, not its code: players may read this message.
        raise NotFound(
            _("There is no verified deal of %(game)s for %(date)s.")
            % {"game": Game(game).label, "date": date.isoformat()},
            code="deal_not_ready",
        ) from None


def deal_solution(*, deal: DailyDeal, now: dt.datetime) -> dict:
    """A finished day's verified solution with every position along it:
    positions[0] is the start, positions[i] the layout after move i."""
    if not clock.day_over(deal.date, now):
        raise DayNotOver()
    position = solitaire.parse_position(deal.position)
    moves = deal.certificate.split()
    positions = [position.to_dict()]
    for token in moves:
        position = position.apply(solitaire.Move.parse(token))
        positions.append(position.to_dict())
    return {"game": deal.game, "date": deal.date.isoformat(), "moves": moves, "positions": positions}


# -- attempts ----------------------------------------------------------------------


def _ms(start: dt.datetime, end: dt.datetime) -> int:
    return max(0, int((end - start).total_seconds() * 1000))


def attempt_start(*, user, game: str, date: dt.date | None, now: dt.datetime) -> Attempt:
    """Start an attempt. Ranked when it is the player's first on the deal
    and the deal is today's; a second tab starting at the same moment gets a
    practice attempt (the database allows one ranked attempt per deal).
    A player has at most PLAY_MAX_ATTEMPTS_PER_DEAL attempts on one deal
    (409 attempt_limit), however many start at once: a player's starts take
    turns on the player's row, so each counts the ones before it."""
    today = clock.day_of(now)
    deal = deal_for(game=game, date=date or today, now=now)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        mine = Attempt.objects.filter(player=user, deal=deal).aggregate(
            total=Count("id"), ranked=Count("id", filter=Q(ranked=True))
        )
        limit = settings.PLAY_MAX_ATTEMPTS_PER_DEAL
        if mine["total"] >= limit:
            raise AttemptLimit(
                _("You have made %(limit)s attempts on this deal, the most there can be.")
                % {"limit": limit},
                extra={"limit": limit},
            )
        position = solitaire.parse_position(deal.position)
        fields = dict(
            player=user,
            deal=deal,
            start_position=position.notation(),
            position=position.notation(),
            cards_home=position.cards_home(),
            status=_status_of(position),
            started_at=now,
            last_action_at=now,
        )
        if deal.date == today and not mine["ranked"]:
            try:
                with transaction.atomic():
                    return Attempt.objects.create(ranked=True, **fields)
            except IntegrityError:
                pass
        return Attempt.objects.create(ranked=False, **fields)


_MAX_ID = 2**63 - 1


def _not_found(attempt_id: int) -> NotFound:
    return NotFound(_("No attempt %(id)s of yours.") % {"id": attempt_id}, code="not_found")


def attempt_get(*, user, attempt_id: int) -> Attempt:
    """An attempt of this player; anyone else's is simply not found."""
    if attempt_id > _MAX_ID:
        raise _not_found(attempt_id)
    attempt = rows.attempt_with_deal(attempt_id=attempt_id, player_id=user.pk)
    if attempt is None:
        raise _not_found(attempt_id)
    return attempt


def attempt_hint(*, user, attempt_id: int, now: dt.datetime) -> dict:
    """The next move of a solution from the attempt's position, or the news
    that it can no longer be won. No hint on a deal, practice attempts
    included, while the player's ranked attempt on it is unfinished and its
    day lasts (the leaderboard would reward asking the solver)."""
    attempt = attempt_get(user=user, attempt_id=attempt_id)
    if not clock.day_over(attempt.deal.date, now):
        if attempt.ranked and not attempt.finished:
            raise HintNotForRanked()
        if not attempt.ranked and Attempt.objects.filter(
            player=user, deal_id=attempt.deal_id, ranked=True, ended_at__isnull=True
        ).exists():
            raise HintNotForRanked(
                _("No hints on this deal while your ranked attempt on it is being played: "
                  "finish it, or wait until the day is over.")
            )
    answer = hints.position_hint(attempt.parsed_position())
    return {**answer, "version": attempt.version}


def _lock(*, user, attempt_id: int) -> Attempt:
    if attempt_id > _MAX_ID:
        raise _not_found(attempt_id)
    attempt = (
        Attempt.objects.select_for_update()
        .select_related("deal")
        .filter(pk=attempt_id, player=user)
        .first()
    )
    if attempt is None:
        raise _not_found(attempt_id)
    return attempt


def _status_of(position) -> str:
    outcome = position.outcome()
    if outcome.status is solitaire.Status.WON:
        return Attempt.Status.WON
    if outcome.status is solitaire.Status.BLOCKED:
        return Attempt.Status.BLOCKED
    if is_stalled(position, max_nodes=settings.PLAY_STALLED_MAX_NODES):
        return Attempt.Status.STALLED
    return Attempt.Status.PLAYING


def _check_playable(attempt: Attempt, now: dt.datetime) -> None:
    """May this attempt take another move or undo? Cheap: the locked row and
    its deal answer (no query)."""
    if attempt.finished:
        raise AttemptFinished()
    if attempt.frozen(now):
        raise DayOver(extra={"day_ended_at": clock.day_end(attempt.deal.date).isoformat()})
    limit = settings.PLAY_MAX_ACTIONS_PER_ATTEMPT
    if attempt.version >= limit:
        raise ActionLimit(
            _("This attempt has had %(limit)s moves and undos, the most there can be: "
              "finish it and start another.") % {"limit": limit},
            extra={"limit": limit},
        )


def _check_version(attempt: Attempt, *, version: int, tokens: list[str]) -> bool:
    """True when this request repeats the actions that made the current
    version (a retry): answer it again without applying them twice."""
    if version == attempt.version:
        return False
    count = len(tokens)
    if version == attempt.version - count:
        done = AttemptAction.objects.filter(
            attempt=attempt, number__gt=version
        ).order_by("number")
        if [a.token for a in done] == tokens:
            return True
    raise StaleVersion(extra={"state": None})  # the view fills the state in


def _record_action(attempt: Attempt, *, kind: str, move: str, now: dt.datetime) -> None:
    """Count an action on the attempt in memory; _write stores it."""
    attempt.version += 1
    attempt.last_action = move if kind == AttemptAction.Kind.MOVE else "undo"
    attempt.last_action_at = now
    attempt.new_actions.append((attempt.version, kind, move, now))
    if attempt.status == Attempt.Status.WON:
        attempt.ended_at = now
    attempt.elapsed_ms = _ms(attempt.started_at, attempt.ended_at or now)


_ROW_FIELDS = ("position", "line", "cards_home", "moves", "redeals", "undos", "status",
               "version", "last_action", "last_action_at", "ended_at", "elapsed_ms")


def _write(attempt: Attempt, *, from_version: int) -> bool:
    """Store the attempt's row and its new actions in one SQL statement, on
    condition that the row is still at ``from_version``: an UPDATE ... WHERE
    version = v, which locks the row while it runs, so of two requests made
    from one version only one can succeed; the actions are inserted only if
    the update happened (the unique (attempt, number) stands behind it too).
    One round trip, no transaction block. False: another request changed
    the attempt first (nothing was written)."""
    a, b = Attempt._meta, AttemptAction._meta
    col = {f: a.get_field(f).column for f in _ROW_FIELDS}
    sets = ", ".join(f'"{col[f]}" = %s' for f in _ROW_FIELDS)
    rows = ", ".join(["(%s, %s, %s, %s, %s)"] * len(attempt.new_actions))
    sql = (
        f'WITH moved AS (UPDATE "{a.db_table}" SET {sets} '
        f'WHERE "{a.pk.column}" = %s AND "{col["version"]}" = %s RETURNING 1) '
        f'INSERT INTO "{b.db_table}" ("{b.get_field("attempt").column}", "number", "kind", '
        f'"move", "at") SELECT v.* FROM (VALUES {rows}) AS v, moved'
    )
    params = [getattr(attempt, f) for f in _ROW_FIELDS] + [attempt.pk, from_version]
    for number, kind, move, at in attempt.new_actions:
        params += [attempt.pk, number, kind, move, at]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        done = cursor.rowcount == len(attempt.new_actions)
    attempt.new_actions = []
    return done


def _apply(*, user, attempt_id: int, version: int, tokens: list[str], step) -> tuple:
    """Read the attempt (no lock), answer a retry again, apply ``step`` to it
    in memory and _write it on condition that nobody changed it meanwhile;
    when somebody did, read it again and decide again (the version check
    then answers stale_version, or replayed when it was this very request).
    Returns (attempt, replayed)."""
    for _round in range(5):
        attempt = attempt_get(user=user, attempt_id=attempt_id)
        if _check_version(attempt, version=version, tokens=tokens):
            return attempt, True
        attempt.new_actions = []
        step(attempt)
        if _write(attempt, from_version=version):
            return attempt, False
    raise StaleVersion(extra={"state": None})  # pragma: no cover - five writers in a row


def move_parse(text) -> solitaire.Move:
    try:
        return solitaire.Move.parse(text)
    except solitaire.InvalidMoveError as error:
        raise InvalidMove(str(error)) from None


def _move_step(attempt: Attempt, parsed: solitaire.Move, *, now: dt.datetime) -> None:
    """Apply one move to the attempt in memory and count it (one action);
    a batch loops over it and writes once."""
    token = parsed.token()
    _check_playable(attempt, now)
    board = attempt.board()
    try:
        board.push(parsed)
    except solitaire.IllegalMoveError as error:
        raise IllegalMove(
            illegal_move_message(error, game=board.position.game),
            extra={"move": token, "reason": error.reason or "illegal"},
        ) from None
    attempt.set_board(board)
    attempt.status = _status_of(board.position)
    _record_action(attempt, kind=AttemptAction.Kind.MOVE, move=token, now=now)


def move_apply(*, user, attempt_id: int, move: str, version: int, now: dt.datetime):
    """Apply one move (written on condition of the version). Returns (attempt, replayed)."""
    parsed = move_parse(move)
    attempt, replayed = _apply(
        user=user, attempt_id=attempt_id, version=version, tokens=[parsed.token()],
        step=lambda attempt: _move_step(attempt, parsed, now=now),
    )
    if not replayed:
        metrics.MOVES.labels(attempt.deal.game).inc()
    return attempt, replayed


def moves_apply(*, user, attempt_id: int, moves: list[str], version: int, now: dt.datetime):
    """Apply several moves in order, written in one statement: all or none.
    The version rules are those of one move, for the batch as a whole:
    ``version`` is the version before the first move; a retry (the last
    ``len(moves)`` actions are these moves, from that version) is answered
    again. Returns (attempt, replayed)."""
    parsed = [move_parse(m) for m in moves]
    tokens = [m.token() for m in parsed]

    def steps(attempt):
        for index, move in enumerate(parsed):
            try:
                _move_step(attempt, move, now=now)
            except PlayError as error:  # illegal, finished, day over, action limit
                error.extra = {**(error.extra or {}), "index": index}
                raise

    attempt, replayed = _apply(
        user=user, attempt_id=attempt_id, version=version, tokens=tokens, step=steps)
    if not replayed:
        metrics.MOVES.labels(attempt.deal.game).inc(len(parsed))
    return attempt, replayed


def _undo_step(attempt: Attempt, *, now: dt.datetime) -> None:
    _check_playable(attempt, now)
    board = attempt.board()
    if not board.move_stack:
        raise NothingToUndo()
    # The exact earlier layout (an undone redeal too): the board rebuilds
    # the positions along its line from the start.
    board.undo()
    attempt.set_board(board)
    attempt.status = _status_of(board.position)
    _record_action(attempt, kind=AttemptAction.Kind.UNDO, move="", now=now)


def move_undo(*, user, attempt_id: int, version: int, now: dt.datetime):
    """Take back the last move of the line (counted). Returns (attempt, replayed)."""
    return _apply(user=user, attempt_id=attempt_id, version=version, tokens=["undo"],
                  step=lambda attempt: _undo_step(attempt, now=now))


def attempt_finish(*, user, attempt_id: int, now: dt.datetime) -> Attempt:
    """End the attempt: won/blocked/stalled stay, playing becomes abandoned.
    Finishing twice changes nothing. A frozen ranked attempt (its day is
    over) may be finished too, but its counters and time stay as they stood
    at midnight: only the status and ended_at change."""
    with transaction.atomic():
        attempt = _lock(user=user, attempt_id=attempt_id)
        if attempt.finished:
            return attempt
        if attempt.status == Attempt.Status.PLAYING:
            attempt.status = Attempt.Status.ABANDONED
        attempt.ended_at = now
        if not attempt.frozen(now):
            attempt.elapsed_ms = _ms(attempt.started_at, now)
        attempt.save()
    return attempt


def attempt_replay(*, attempt: Attempt) -> dict:
    """Replay the stored log from the start and check it ends where the row says."""
    actions = list(attempt.actions.order_by("number"))
    try:
        board = solitaire.Board(solitaire.parse_position(attempt.start_position))
        for action in actions:
            if action.kind == AttemptAction.Kind.UNDO:
                board.undo()
            else:
                board.push(solitaire.Move.parse(action.move))
        ok = (
            board.position.notation() == attempt.position
            and board.undos == attempt.undos
            and board.redeals == attempt.redeals
            and len(board.move_stack) == attempt.moves
            and [a.number for a in actions] == list(range(1, attempt.version + 1))
        )
    except (solitaire.SolitaireError, IndexError):
        ok = False
    return {
        "start": attempt.start_position,
        "actions": [a.token for a in actions],
        "replay_ok": ok,
    }
