"""Player.name_key: the display name's look-alike skeleton, filled in for
every existing player (api.play.names.display_name_key)."""

from django.db import migrations, models


def fill_name_keys(apps, schema_editor):
    from api.play.names import display_name_key

    Player = apps.get_model("play", "Player")
    batch = []
    for player in Player.objects.only("id", "display_name").iterator(chunk_size=2000):
        player.name_key = display_name_key(player.display_name)
        batch.append(player)
        if len(batch) >= 2000:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0003_username_unique_ignoring_case"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
