"""A ranked attempt is on the leaderboard from its first move, not from any
action: a finish with no move before it (which moves the version) puts
nobody on the board. The index behind the board carries the same condition
as its queries (api.play.models.ON_BOARD)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('deals', '0001_initial'),
        ('play', '0010_attempt_hint_line'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='attempt',
            name='play_leaderboard',
        ),
        migrations.AddIndex(
            model_name='attempt',
            index=models.Index(models.F('deal'), models.F('machine_pace'), models.OrderBy(models.F('cards_home'), descending=True), models.F('undos'), models.F('redeals'), models.F('elapsed_ms'), condition=models.Q(('ranked', True), models.Q(('moves__gt', 0), ('undos__gt', 0), _connector='OR')), name='play_leaderboard'),
        ),
    ]
