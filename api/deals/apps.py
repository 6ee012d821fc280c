from django.apps import AppConfig


class DealsConfig(AppConfig):
    name = "api.deals"
    label = "deals"
    verbose_name = "Daily deals"

    def ready(self) -> None:
        # The tasks, registered with Celery: services queue them by name.
        from api.deals import tasks  # noqa: F401
