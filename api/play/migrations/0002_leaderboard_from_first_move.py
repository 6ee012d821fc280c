"""A ranked attempt is on the leaderboard from its first move: the index
behind the board carries the same condition as its queries (version > 0)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="attempt", name="play_leaderboard"),
        migrations.AddIndex(
            model_name="attempt",
            index=models.Index(
                models.F("deal"), models.OrderBy(models.F("cards_home"), descending=True),
                models.F("undos"), models.F("redeals"), models.F("elapsed_ms"),
                condition=models.Q(("ranked", True), ("version__gt", 0)),
                name="play_leaderboard",
            ),
        ),
    ]
