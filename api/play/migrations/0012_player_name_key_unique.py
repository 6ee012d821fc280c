"""Player.name_key held unique by the database (but for "", a guest's
made-up name), computed again with look-alikes mapped before case folds.

Names that already share a key: the first registered player to have taken
it (else the oldest) keeps it; every other guest gets a made-up name again,
and every other registered player the name with a number after it
("Bobby 2"), the lowest that is free."""

from django.db import migrations, models
from django.db.models import Q


def _keys_again(apps, schema_editor):
    from api.play.names import (
        MAX_LENGTH,
        display_name_key,
        guest_name_new,
        name_key_of,
    )

    Player = apps.get_model("play", "Player")
    players = (Player.objects.select_related("user")
               .order_by("is_guest", "created_at", "id").iterator(chunk_size=2000))
    taken: set[str] = set()
    batch = []
    for player in players:
        username = player.user.username
        key = name_key_of(display_name=player.display_name, username=username)
        if key and key in taken:
            if player.is_guest:
                player.display_name = guest_name_new()
                key = ""
            else:
                base, number = player.display_name[:MAX_LENGTH - 4].rstrip(), 2
                while display_name_key(f"{base} {number}") in taken:
                    number += 1
                player.display_name = f"{base} {number}"
                key = display_name_key(player.display_name)
        if key:
            taken.add(key)
        player.name_key = key
        batch.append(player)
        if len(batch) >= 2000:
            Player.objects.bulk_update(batch, ["display_name", "name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["display_name", "name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0011_leaderboard_from_first_move_not_finish"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=200),
        ),
        migrations.RunPython(_keys_again, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=~Q(name_key=""), fields=("name_key",),
                name="play_player_name_key_unique"),
        ),
    ]
