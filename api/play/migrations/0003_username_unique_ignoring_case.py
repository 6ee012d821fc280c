"""Usernames unique regardless of case, in the database: a unique index on
lower(username) of auth_user (PostgreSQL and SQLite alike).

Rows that already differ only in case (two registrations racing) would make
the index fail: the oldest account keeps its username, each later one is
renamed to "<username>~<id>" (a name registration cannot produce, so it
collides with nothing), and the renaming is logged for the operator."""

import logging

from django.conf import settings
from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

log = logging.getLogger(__name__)

INDEX = "auth_user_username_lower_uniq"


def rename_case_duplicates(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    clashes = (
        User.objects.annotate(key=Lower("username")).values("key")
        .annotate(n=Count("id")).filter(n__gt=1).values_list("key", flat=True)
    )
    for key in list(clashes):
        users = list(User.objects.annotate(key=Lower("username")).filter(key=key).order_by("id"))
        for user in users[1:]:
            old = user.username
            user.username = f"{old[:140]}~{user.pk}"
            user.save(update_fields=["username"])
            log.warning("username %r renamed to %r: %r already has it (ignoring case)",
                        old, user.username, users[0].username)


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0002_leaderboard_from_first_move"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(rename_case_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username))",
            reverse_sql=f"DROP INDEX {INDEX}",
        ),
    ]
