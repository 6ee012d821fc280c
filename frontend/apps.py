from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """The pages people use: they draw what the play API returns and send moves back."""

    name = "frontend"
    verbose_name = "Pages"
