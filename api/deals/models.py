from django.db import models
from django.db.models import Q


class Game(models.TextChoices):
    CRUEL = "cruel", "Cruel"
    FLOWER = "flower", "Flower Garden"


class DailyDeal(models.Model):
    """The deal of one game on one date, and what the solver proved about it.

    The position is derived from a secret, the game, the date and a candidate
    number (api.deals.services.deal_seed). Candidates are tried in order until
    the solver finds a solution, whose moves are kept as the certificate.
    Once a deal has been verified its position never changes: it may have
    been served.
    """

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        VERIFYING = "verifying", "Verifying"
        VERIFIED = "verified", "Verified"
        FAILED = "failed", "Failed"

    game = models.CharField(max_length=16, choices=Game.choices)
    date = models.DateField()
    candidate = models.PositiveIntegerField(
        default=0, help_text="Which candidate of this game and date the position is (0 first)."
    )
    seed = models.BigIntegerField(help_text="solitaire.deal(game, seed=seed) gives the position.")
    position = models.TextField(help_text="The position in notation (docs/notation.md).")

    state = models.CharField(
        max_length=16, choices=State.choices, default=State.PENDING, db_index=True
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=200, blank=True)
    failure = models.TextField(blank=True, help_text="Why the last verification did not succeed.")

    certificate = models.TextField(blank=True, help_text="The solver's solution, moves in notation.")
    solution_length = models.PositiveIntegerField(null=True, blank=True)
    redeals = models.PositiveIntegerField(null=True, blank=True)
    nodes = models.BigIntegerField(null=True, blank=True)
    solve_seconds = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "game"]
        constraints = [
            models.UniqueConstraint(fields=["game", "date"], name="deals_one_deal_per_game_and_date"),
            models.CheckConstraint(
                condition=Q(game__in=Game.values), name="deals_game_is_known"
            ),
            models.CheckConstraint(
                condition=~Q(state="verified") | ~Q(certificate=""),
                name="deals_verified_has_certificate",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.date.isoformat()} ({self.state})"

    @property
    def is_verified(self) -> bool:
        return self.state == self.State.VERIFIED
