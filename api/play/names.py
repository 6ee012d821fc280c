"""The name a player is shown by. A guest who never chose a name is shown as
"Guest 1a2b3c4d" in the reader's language ("Convidado 1a2b3c4d" in pt-PT),
whatever language the guest was made in; a chosen name is shown as written."""

from __future__ import annotations

from django.utils.translation import gettext as _

GUEST_PREFIX = "guest-"


def shown_name(*, display_name: str, is_guest: bool, username: str) -> str:
    if is_guest and username.startswith(GUEST_PREFIX):
        tag = username[len(GUEST_PREFIX):]
        # The made-up name ends with the tag in every language it was made in.
        if tag and display_name.endswith(tag) and len(display_name) <= len(tag) + 12:
            return _("Guest %(tag)s") % {"tag": tag}
    return display_name
