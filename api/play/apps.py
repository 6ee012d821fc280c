from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "api.play"
    label = "play"
    verbose_name = "Play: players, attempts, records"
