"""Why a move is illegal, in the player's language.

The engine says why in English and, besides, gives a stable reason code and
its params (solitaire/errors.py). Here each reason has a gettext template;
cards are written as people read them (4♦, 10♠), not in notation.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import solitaire


def card_display(code: str) -> str:
    """``"TD"`` -> ``"10♦"`` (solitaire.card_name); text that is not a card
    comes back unchanged."""
    try:
        return solitaire.card_name(solitaire.parse_card(str(code)))
    except solitaire.InvalidCardError:
        return str(code)


def _card_below(code: str) -> str | None:
    """The card of the same suit one rank lower, in notation (None below an
    ace, or for text that is not a card)."""
    try:
        card = solitaire.parse_card(str(code))
    except solitaire.InvalidCardError:
        return None
    return solitaire.card_text(card - 1) if card % 13 else None  # rank 0: an ace


def _templates(game: str) -> dict[str, str]:
    cruel = game == "cruel"
    return {
        "redeal_changes_nothing": _(
            "A redeal now would give the same layout, so it is not allowed."
        ),
        "no_redeal": _("Flower Garden has no redeal."),
        "not_available": (
            _("%(card)s is not on top of a pile.")
            if cruel
            else _("%(card)s is neither on top of a column nor in the bouquet.")
        ),
        "no_such_place": (
            _("There is no pile %(target)s: there are only %(count)s piles.")
            if cruel
            else _("There is no column %(target)s: there are only %(count)s columns.")
        ),
        "empty_pile_stays_empty": _(
            "Pile %(target)s is empty, and an empty pile stays empty."
        ),
        "not_same_suit_one_higher": _(
            "Pile %(target)s shows %(top)s; %(card)s goes only onto the same suit one rank higher."
        ),
        "already_there": _("%(card)s is already on column %(target)s."),
        "not_one_rank_lower": _(
            "Column %(target)s shows %(top)s; only a card one rank lower goes there."
        ),
    }


def illegal_move_message(error: solitaire.IllegalMoveError, *, game: str) -> str:
    """The human reason for an illegal move, in the active language."""
    params = {
        key: card_display(value) if key in ("card", "top", "needs") else str(value)
        for key, value in error.params.items()
    }
    if error.reason == "foundation_needs":
        below = _card_below(error.params.get("card", ""))
        if below is None or below == error.params.get("needs"):
            return _("%(card)s goes to the foundation only after %(needs)s.") % params
        return _(
            "%(card)s goes to the foundation only after %(below)s; "
            "the foundation needs %(needs)s next."
        ) % {**params, "below": card_display(below)}
    template = _templates(game).get(error.reason)
    if template is None:
        # A reason this service does not know yet: say at least which move.
        return pgettext("illegal move", "%(move)s is not allowed here.") % {"move": error.move}
    try:
        return template % params
    except (KeyError, TypeError, ValueError):
        return pgettext("illegal move", "%(move)s is not allowed here.") % {"move": error.move}
