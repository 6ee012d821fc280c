from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "api.play"
    label = "play"
    verbose_name = "Play: players, attempts, records"

    def ready(self) -> None:
        # The tasks, registered with Celery: services queue them by name.
        from api.play import tasks  # noqa: F401
