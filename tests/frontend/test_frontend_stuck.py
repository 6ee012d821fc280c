"""Blocked and stalled positions in the browser: today's deal is a position
built in notation that one known move blocks or stalls; the page announces
it (English and pt-PT), offers undo, which brings the position back, and
finish, which ends the attempt with its record shown."""

from __future__ import annotations

import pytest
from frontend_steps import (
    api_get,
    card_slot,
    click_move,
    confirm_finish,
    counters,
    drawn_board,
    expected_board,
    latest_attempt,
    start_attempt,
    wait_for_version,
)

import solitaire
from api.deals.models import DailyDeal
from solitaire.solver import is_stalled

# Cards missing from a line are on their foundations (docs/notation.md).
# Cruel: KH home leaves QS under KS, and a redeal would give the same layout.
CRUEL_BLOCKED_BY_KH = "cruel QSKS/KH/-/-/-/-/-/-/-/-/-/-"
# Flower Garden: JD into the empty column 2 frees nothing that can ever reach a
# foundation, yet 10♣ can still go to and fro between J♦ and J♥.
FLOWER_STALLED_BY_JD = "flower QCJCTC/-/QHTDTHQSKCQDJH/KH/TSKSJD/9D9S9CKD JS"
# Flower Garden: 10♠ home, and no card has anywhere left to go.
FLOWER_BLOCKED_BY_TS = "flower JCQCQDTCKD/QSJSTHKH/TDQHJH/KS/KC/JDTS -"

BANNERS = {
    ("blocked", "en"): "No move is left: the game is blocked. Undo a move, or finish to keep this record.",
    ("blocked", "pt-PT"): "Não há mais jogadas: o jogo está bloqueado. Anule uma jogada ou termine para guardar este registo.",
    ("stalled", "en"): "No card can reach a foundation any more: the game is stalled. "
                       "Undo a move, or finish to keep this record.",
    ("stalled", "pt-PT"): "Já nenhuma carta pode chegar a uma fundação: o jogo não tem saída. "
                          "Anule uma jogada ou termine para guardar este registo.",
}
STATUS_SENTENCES = {
    ("blocked", "en"): "No move is left: the game is blocked.",
    ("blocked", "pt-PT"): "Não há mais jogadas: o jogo está bloqueado.",
    ("stalled", "en"): "No card can reach a foundation any more: the game is stalled.",
    ("stalled", "pt-PT"): "Já nenhuma carta pode chegar a uma fundação: o jogo não tem saída.",
}
END_TITLE = {"en": "Attempt over", "pt-PT": "Fim da tentativa"}


def engine_status(position) -> str:
    """The status the API computes, from the engine and the solver (api.play.attempts.services)."""
    if position.outcome().status is solitaire.Status.BLOCKED:
        return "blocked"
    return "stalled" if is_stalled(position) else "playing"


def deal_today(game: str, date, position: str, move: str) -> DailyDeal:
    """Today's verified deal of `game`, the given position. Its certificate is
    only a placeholder (the constraint wants one; nothing here replays it)."""
    return DailyDeal.objects.create(
        game=game, date=date, seed=0, position=position, certificate=move,
        state=DailyDeal.State.VERIFIED, solution_length=1, redeals=0, difficulty=1.0,
    )


CASES = [
    # game, position, move, status after the move, language, cards home after the move
    ("cruel", CRUEL_BLOCKED_BY_KH, "KH>F", "blocked", "en", 50),
    ("cruel", CRUEL_BLOCKED_BY_KH, "KH>F", "blocked", "pt-PT", 50),
    ("flower", FLOWER_STALLED_BY_JD, "JD>2", "stalled", "en", 33),
    ("flower", FLOWER_STALLED_BY_JD, "JD>2", "stalled", "pt-PT", 33),
    ("flower", FLOWER_BLOCKED_BY_TS, "TS>F", "blocked", "en", 37),
]


def test_the_constructed_positions_are_what_the_cases_say():
    for _game, text, move, status, _lang, home in CASES:
        position = solitaire.parse_position(text)
        assert engine_status(position) == "playing", text
        assert solitaire.Move.parse(move) in position.legal_moves(), (text, move)
        after = position.apply(solitaire.Move.parse(move))
        assert engine_status(after) == status, (text, move)
        assert after.cards_home() == home
        if status == "stalled":
            assert after.legal_moves(), "stalled, not blocked: some card can still move"


@pytest.mark.parametrize(
    "game, position, move, status, locale, home", CASES,
    ids=[f"{c[0]}-{c[3]}-{c[4]}" for c in CASES],
)
def test_a_stuck_position_is_announced_and_offers_undo_and_finish(
    game, position, move, status, locale, home, transactional_db, today, open_page, screenshot, audit,
):
    deal_today(game, today, position, move)
    page = open_page(f"/play/{game}/", locale=locale)
    start_attempt(page)
    start = latest_attempt(page)
    assert start["status"] == "playing"
    card = move.split(">")[0]
    source = card_slot(page, card).get_attribute("data-index")
    stuck = page.locator('[data-ref="stuck"]')
    assert stuck.is_hidden()

    click_move(page, move)
    play = page.locator("[data-play]")
    assert play.get_attribute("data-status") == status
    stuck.wait_for()
    assert page.locator('[data-ref="stuck-text"]').inner_text() == BANNERS[(status, locale)]
    # Announced to screen readers too, with the move.
    page.wait_for_function(
        "(text) => document.querySelector('#live-region').textContent.includes(text)",
        arg=STATUS_SENTENCES[(status, locale)],
    )
    assert counters(page)["cards_home"] == f"{home}/52"
    # Nothing on the board invites a move any more; undo and finish are offered.
    assert page.locator(".slot--movable").count() == 0
    assert page.locator('[data-ref="stuck-undo"]').is_enabled()
    assert page.locator('[data-ref="stuck-finish"]').is_enabled()
    assert page.locator('[data-ref="undo"]').is_enabled()
    assert page.locator('[data-ref="end"]').is_hidden()
    screenshot(page, f"play-{game}-{locale}-{status}")
    assert audit(page) == []

    # Undo brings the earlier position back, counted, and the banner goes.
    page.locator('[data-ref="stuck-undo"]').click()
    wait_for_version(page, 2)
    assert play.get_attribute("data-status") == "playing"
    assert stuck.is_hidden()
    assert drawn_board(page) == expected_board(start["position"])
    assert card_slot(page, card).get_attribute("data-index") == source
    assert counters(page)["undos"] == "1"
    assert counters(page)["cards_home"] == f"{start['counters']['cards_home']}/52"
    assert page.locator(".slot--movable").count() > 0

    # The same move again, then finish: the attempt ends with its record.
    click_move(page, move)
    stuck.wait_for()
    page.locator('[data-ref="stuck-finish"]').click()
    confirm_finish(page)  # a blocked ranked attempt can still be played (undo)
    end = page.locator('[data-ref="end"]')
    end.wait_for()
    page.wait_for_selector('[data-play][data-busy="false"]')
    assert stuck.is_hidden()
    assert end.locator("h2").inner_text() == END_TITLE[locale]
    assert page.locator('[data-ref="end-status"]').inner_text() == STATUS_SENTENCES[(status, locale)]
    record = page.evaluate(
        "() => [...document.querySelectorAll('[data-ref=\"record\"] div')]"
        ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])"
    )
    values = [value for _name, value in record]
    assert values[0] == f"{home}/52"
    # Moves (the one move standing after the undo), redeals (Cruel only), undos.
    assert values[1:-1] == (["1", "0", "1"] if game == "cruel" else ["1", "1"]), record
    page.wait_for_function("() => document.querySelector('[data-ref=\"rank\"]').textContent.length > 0")
    assert page.locator('[data-ref="undo"]').is_disabled()
    assert page.locator('[data-ref="finish"]').is_disabled()
    share = page.locator('[data-ref="share-text"]').input_value()
    assert f"{home}/52" in share
    screenshot(page, f"play-{game}-{locale}-{status}-finished")
    assert audit(page) == []

    final = latest_attempt(page)
    assert final["finished"] is True
    assert final["status"] == status, "finishing keeps blocked/stalled, it does not turn into abandoned"
    assert final["counters"] == {"cards_home": home, "redeals": 0, "undos": 1, "moves": 1}
    log = api_get(page, f"/attempts/{final['id']}/log")
    assert log["actions"] == [move, "undo", move, "finish"] and log["replay_ok"] is True
