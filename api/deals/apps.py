from django.apps import AppConfig


class DealsConfig(AppConfig):
    name = "api.deals"
    label = "deals"
    verbose_name = "Daily deals"
