"""The board redraws a move by moving the few elements it concerns: every
other card keeps its element where it was (an SVG face laid out again is
what made a redraw slow), and the board reads as the position the API sent."""

from __future__ import annotations

import pytest
from frontend_steps import click_move, drawn_board, expected_board, latest_attempt, start_attempt

# Watches the board: each card element put into the page (added to a parent)
# from now on, and a mark on every card element drawn now.
WATCH = """() => {
  window.cardsAdded = [];
  for (const el of document.querySelectorAll('.board .card[data-card]')) el.keptMark = true;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      const cards = n.matches('.card[data-card]') ? [n] : [...n.querySelectorAll('.card[data-card]')];
      window.cardsAdded.push(...cards.map((c) => c.dataset.card));
    }
  }).observe(document.querySelector('.board'), {childList: true, subtree: true});
}"""

MARKED = "() => [...document.querySelectorAll('.board .card[data-card]')].filter((c) => !c.keptMark).length"


def a_move(attempt: dict, *, from_bouquet: bool) -> str:
    """A legal move onto a pile or column (from the bouquet, or not)."""
    bouquet = set(attempt["position"].get("bouquet", []))
    return next(f"{e['card']}>{t}" for e in attempt["legal"] for t in e["targets"]
                if t != "F" and (e["card"] in bouquet) == from_bouquet)


@pytest.mark.parametrize(("game", "from_bouquet"), [("cruel", False), ("flower", True), ("flower", False)])
def test_a_move_puts_only_the_moved_card_in_place(deals, open_page, game, from_bouquet):
    page = open_page(f"/play/{game}/")
    start_attempt(page)
    token = a_move(latest_attempt(page), from_bouquet=from_bouquet)
    page.evaluate(WATCH)

    click_move(page, token)

    # Drawn twice (before the answer, and from it): the moved card is the
    # one card put anywhere, and every card on the board is the element it was.
    assert set(page.evaluate("() => window.cardsAdded")) == {token.split(">")[0]}
    assert page.evaluate(MARKED) == 0
    assert drawn_board(page) == expected_board(latest_attempt(page)["position"])
