"""The line an attempt's hints follow (api.play.attempts.hints)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0009_sessions_with_their_user'),
    ]

    operations = [
        migrations.CreateModel(
            name='HintLine',
            fields=[
                ('attempt', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='hint_line', serialize=False, to='play.attempt')),
                ('start', models.TextField()),
                ('line', models.TextField()),
            ],
        ),
    ]
