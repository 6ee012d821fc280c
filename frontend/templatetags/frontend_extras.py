from django import template
from django.urls import reverse
from django.utils.translation import get_language

from frontend.catalog import catalog_version

register = template.Library()


@register.simple_tag
def js_catalog_url() -> str:
    """The address of the page's JavaScript catalog, in its language, at its version."""
    return reverse("frontend:jsi18n-versioned", args=[get_language() or "pt-pt", catalog_version()])
