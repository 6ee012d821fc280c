"""django.contrib.admin with our site (api.admin_site: login throttled).
Kept apart from the site so that loading the app imports nothing else."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "api.admin_site.AdminSite"
