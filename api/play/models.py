"""Players, attempts and the log of every action taken in an attempt."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from api.play import domain
from api.play.names import name_key_of


class Player(models.Model):
    """What a user is to the game: a display name, and whether it is a guest.

    A guest is a real ``auth.User`` with no usable password, created on its
    first request; registering gives that same user a username and password,
    so every record it made stays its own."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=40)
    # The display name's look-alike skeleton (api.play.names.name_key_of),
    # kept by save(): unique but for "" (a guest's made-up name), so no two
    # players' names look alike, however many claim one at the same instant.
    name_key = models.CharField(max_length=200, default="", editable=False)
    is_guest = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name_key"], condition=~Q(name_key=""),
                                    name="play_player_name_key_unique"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs):
        self.name_key = name_key_of(display_name=self.display_name,
                                    username=self.user.get_username())
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


# A ranked attempt is on its deal's leaderboard from its first move: it has
# moves standing, or undos (an undo takes back a move). A finish or the
# day's end alone puts nobody on it. The same rule says when a day was
# played (the streaks, days played and earned freezes of
# api.play.records.selectors.history): starting and finishing with no move
# plays nothing. The play_leaderboard index carries this condition and
# api.play.records.leaderboard.ON_BOARD_SQL says it in SQL.
ON_BOARD = Q(ranked=True) & (Q(moves__gt=0) | Q(undos__gt=0))


class Attempt(models.Model):
    """One try at one daily deal by one player.

    The current position and the record counters are kept on the row
    (denormalised from the action log) so that reading an attempt and ranking
    a million of them needs no replay. ``version`` counts the actions (moves,
    undos and the finish) applied; a move names the version it was made from.
    The row is read and written only through api.play.attempts.store, as
    an api.play.domain.AttemptState."""

    class Status(models.TextChoices):
        PLAYING = domain.PLAYING, _("playing")
        WON = domain.WON, _("won")
        BLOCKED = domain.BLOCKED, _("blocked")
        STALLED = domain.STALLED, _("stalled")
        ABANDONED = domain.ABANDONED, _("abandoned")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts"
    )
    deal = models.ForeignKey("deals.DailyDeal", on_delete=models.PROTECT, related_name="attempts")
    ranked = models.BooleanField()
    # Started by "try again from here" (POST /attempts/{id}/retry): practice
    # that makes no day's record, from whichever move it starts.
    is_retry = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    version = models.PositiveIntegerField(default=0)

    start_position = models.TextField()
    position = models.TextField()
    # The moves of the line being played, tokens separated by spaces; an undo
    # drops the last one. The full history, undos included, is AttemptAction.
    line = models.TextField(blank=True, default="")

    cards_home = models.PositiveSmallIntegerField()
    redeals = models.PositiveIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    # The time of the record: from the start to the last action, or to the
    # end once the attempt is over. Measured by the server only.
    elapsed_ms = models.BigIntegerField(default=0)

    started_at = models.DateTimeField()
    last_action_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    last_action = models.CharField(max_length=8, blank=True, default="")
    # Machine pace (api.play.domain, _paced): the run of requests in a
    # row that came faster than a person plays, and whether a run ever
    # reached the bound. Such a ranked result is kept, marked, and ranked
    # after every result played at a person's pace.
    fast_run = models.PositiveIntegerField(default=0)
    machine_pace = models.BooleanField(default=False)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            # One ranked attempt per player and deal, even when two tabs start at once.
            models.UniqueConstraint(
                fields=["player", "deal"],
                condition=Q(ranked=True),
                name="play_one_ranked_attempt_per_player_and_deal",
            ),
            models.CheckConstraint(
                condition=Q(cards_home__gte=0) & Q(cards_home__lte=52),
                name="play_cards_home_0_to_52",
            ),
        ]
        indexes = [
            # The leaderboard's order, so the top N and the counts behind a
            # player's rank are index scans (see records.leaderboard).
            models.Index(
                F("deal"),
                F("machine_pace"),
                F("cards_home").desc(),
                F("undos"),
                F("redeals"),
                F("elapsed_ms"),
                # On the board from the first move (selectors.py).
                condition=ON_BOARD,
                name="play_leaderboard",
            ),
            models.Index(fields=["player", "deal"], name="play_attempt_player_deal"),
        ]

    def __str__(self) -> str:
        return f"attempt {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.ended_at is not None


class AttemptAction(models.Model):
    """One row per action, in order: the attempt can be replayed and re-checked."""

    class Kind(models.TextChoices):
        MOVE = domain.MOVE, _("move")
        UNDO = domain.UNDO, _("undo")
        FINISH = domain.FINISH, _("finish")

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField(help_text="The attempt's version after this action.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    move = models.CharField(max_length=8, blank=True, default="")
    at = models.DateTimeField()

    class Meta:
        ordering = ["attempt", "number"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "number"], name="play_action_number_unique")
        ]


class Session(AbstractBaseSession):
    """A browser's session (SESSION_ENGINE ``api.sessions``): Django's
    session row, with the user it is logged in as, so that a request reads
    its session and its user in one query. Deleting the user deletes its
    sessions. No database constraint: a session saved while its user is
    being deleted must not fail the request; such a row names nobody and is
    read as Django reads a session of a deleted user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, db_constraint=False, related_name="+")

    class Meta(AbstractBaseSession.Meta):
        db_table = "play_session"

    @classmethod
    def get_session_store_class(cls):
        from api.sessions import SessionStore

        return SessionStore


class LoginFailure(models.Model):
    """Wrong passwords given for one username (api.play.accounts.lockout),
    kept in the database so that the bound holds while the cache is down.

    The username is stored only as a digest of its case-folded form (any
    username may be tried, taken or not); the row goes on a right password."""

    username_digest = models.CharField(max_length=64, primary_key=True)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField()
    locked_until = models.DateTimeField(null=True, blank=True)


class HintLine(models.Model):
    """The line an attempt's last hint came from (api.play.attempts.hints):
    the position it starts from and its moves, a win that visits no
    position twice. A hint from a position along it is its next move."""

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, primary_key=True,
                                   related_name="hint_line")
    start = models.TextField()
    line = models.TextField()


class AttemptAnalysis(models.Model):
    """What the solver says of a finished attempt that was not won: the
    move where the win slipped away (api.play.attempts.analysis). Made by
    the ``analyse_attempt`` task, which claims the row like a deal's
    verification (a conditional UPDATE), so a second run changes nothing."""

    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        ANALYSING = "analysing", _("analysing")
        DONE = "done", _("done")

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, primary_key=True,
                                   related_name="analysis")
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    # "won", "lost", "still_winnable" or "undecided" (the budget decided
    # nothing for sure: never shown as a verdict).
    verdict = models.CharField(max_length=16, blank=True, default="")
    # With "lost": the number of the move that lost the win (1-based along
    # the line), that move, and a solution from the position before it.
    lost_at = models.PositiveIntegerField(null=True, blank=True)
    lost_move = models.CharField(max_length=8, blank=True, default="")
    keeping_line = models.TextField(blank=True, default="")
    solver_calls = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=100, blank=True, default="")
    analysed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of attempt {self.attempt_id} ({self.state} {self.verdict})"


class PositionVerdict(models.Model):
    """A position the solver decided, kept by its notation's SHA-256: many
    players share a deal's first moves, so their analyses share probes.
    A table, not the cache: every worker sees it, a restart keeps it, and
    a decided position never changes its answer."""

    key = models.CharField(max_length=64, primary_key=True)
    game = models.CharField(max_length=8)
    # "solved" (with a winning line from it) or "unsolvable".
    status = models.CharField(max_length=12)
    line = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)


class DayPostMortem(models.Model):
    """A past day's deal seen from its ranked attempts, computed after
    midnight by beat (api.play.attempts.post_mortem): who won, where the
    others lost the win, the commonest losing moves, and the deal's par."""

    deal = models.OneToOneField("deals.DailyDeal", on_delete=models.CASCADE, primary_key=True,
                                related_name="post_mortem")
    summary = models.JSONField(default=dict)
    computed_at = models.DateTimeField()


# Private leagues and calendar feeds live in their own wings; their models
# are the play app's.
from api.play.leagues.models import League, LeagueMember  # noqa: E402,F401
from api.play.reminders.models import CalendarFeed  # noqa: E402,F401
