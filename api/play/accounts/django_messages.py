"""Django's own messages a player can read, marked here so that makemessages
keeps them in this app's catalog with their pt-PT wording: Django's "pt"
catalog leaves some untranslated (the password length, with its plural) and
words others as in Brazil. Nothing imports this module; its strings are the
ones django.contrib.auth.password_validation uses, character for character."""

from django.utils.translation import gettext_noop, ngettext_lazy

PASSWORD_MESSAGES = [
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
]
