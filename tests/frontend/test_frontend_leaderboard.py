"""The leaderboard reads right: ranks use exactly what the table shows
(time in tenths of a second), so equal rows share a rank; the sentence
about one's place reads right alone and in a tie; on a phone every column
fits, or the table scrolls with focus."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from frontend_steps import certified, click_move, latest_attempt, start_attempt

from api.play.models import Attempt, Player


def _player(name: str):
    user = get_user_model().objects.create_user(username=name, password="not-used-here-1")
    Player.objects.create(user=user, display_name=name.title(), is_guest=False)
    return user


def _copy(mine: Attempt, user, elapsed_ms: int) -> None:
    now = dt.datetime.now(dt.timezone.utc)
    Attempt.objects.create(
        player=user, deal=mine.deal, ranked=True, version=1, moves=1,
        start_position=mine.start_position,
        position=mine.position, cards_home=mine.cards_home, undos=mine.undos, redeals=mine.redeals,
        elapsed_ms=elapsed_ms, started_at=now, last_action_at=now,
    )


def _open_board(page, today, locale):
    page.goto(page.url.split("/play/")[0] + f"/leaderboard/?game=cruel&date={today.isoformat()}")
    page.wait_for_function("() => document.querySelector('[data-ref=\"summary\"]').textContent.length > 0")


@pytest.mark.parametrize(("locale", "width", "height"), [("en", 1280, 800), ("pt-PT", 390, 844)])
def test_equal_rows_share_a_rank_and_the_place_reads_right(
    locale, width, height, deals, today, open_page, screenshot, audit
):
    page = open_page("/play/cruel/", locale=locale, width=width, height=height)
    start_attempt(page)
    click_move(page, certified("cruel")[1].split()[0])
    mine = Attempt.objects.get(pk=latest_attempt(page)["id"])

    # Alone on the board.
    _open_board(page, today, locale)
    alone = {"en": "Rank 1 of 1: the only ranked player so far.",
             "pt-PT": "1.º lugar em 1: por agora, o único jogador classificado."}[locale]
    assert page.locator('[data-ref="me"]').inner_text() == alone

    # Eight more with the same record to the tenth of a second, one a tenth slower.
    Attempt.objects.filter(pk=mine.pk).update(elapsed_ms=5_050)
    for i, ms in enumerate([5_000, 5_010, 5_020, 5_030, 5_060, 5_070, 5_080, 5_099]):
        _copy(mine, _player(f"tied{i}"), ms)
    _copy(mine, _player("slower"), 5_100)
    _open_board(page, today, locale)
    rows = page.locator('[data-ref="rows"] tr')
    assert rows.count() == 10
    table = [[cell.inner_text().strip() for cell in row.locator("td").all()] for row in rows.all()]
    assert [r[0] for r in table] == ["1"] * 9 + ["10"]
    tenths = {"en": ("0:05.0", "0:05.1"), "pt-PT": ("0:05,0", "0:05,1")}[locale]
    assert [r[-1] for r in table] == [tenths[0]] * 9 + [tenths[1]]
    shared = {"en": "Rank 1 of 10, shared with 8 other players. You did better than 11% of the other players.",
              "pt-PT": "1.º lugar em 10, partilhado com 8 outros jogadores. "
                       "Ficou à frente de 11% dos outros jogadores."}[locale]
    assert page.locator('[data-ref="me"]').inner_text() == shared

    # Every column is on screen (or the table is a focusable scrolling region).
    fit = page.evaluate(
        "() => { const s = document.querySelector('.table-scroll');"
        " return {scroll: s.scrollWidth, client: s.clientWidth, tabindex: s.getAttribute('tabindex'),"
        " page: document.documentElement.scrollWidth}; }"
    )
    assert fit["scroll"] <= fit["client"], fit
    assert fit["tabindex"] == "0" and fit["page"] <= width
    screenshot(page, f"leaderboard-ties-{locale}-{width}")
    assert audit(page) == []


def test_registered_players_only_leaves_the_guests_out(deals, today, open_page, audit):
    page = open_page("/play/cruel/", locale="pt-PT")
    start_attempt(page)
    click_move(page, certified("cruel")[1].split()[0])
    mine = Attempt.objects.get(pk=latest_attempt(page)["id"])  # a guest's
    _copy(mine, _player("registered"), 5_000)
    _open_board(page, today, "pt-PT")
    assert page.locator('[data-ref="rows"] tr').count() == 2

    page.get_by_label("Só jogadores registados").check()
    page.wait_for_function("() => document.querySelectorAll('[data-ref=\"rows\"] tr').length === 1")
    assert "Registered" in page.locator('[data-ref="rows"] tr').inner_text()
    assert page.locator('[data-ref="me"]').inner_text() == ""
    assert "registered=true" in page.url
    assert audit(page) == []
    page.reload()  # the choice is in the address
    page.wait_for_function("() => document.querySelectorAll('[data-ref=\"rows\"] tr').length === 1")
    assert page.get_by_label("Só jogadores registados").is_checked()


@pytest.mark.parametrize(("locale", "width", "height"), [("pt-PT", 1280, 800), ("en", 390, 844)])
def test_the_board_opens_on_the_game_played_last_and_filters_apply_at_once(
        locale, width, height, deals, today, open_page, screenshot, audit):
    page = open_page("/play/flower/", locale=locale, width=width, height=height)
    start_attempt(page)
    click_move(page, certified("flower")[1].split()[0])
    page.goto(page.url.split("/play/")[0] + "/leaderboard/")
    page.wait_for_function("() => document.querySelector('[data-ref=\"summary\"]').textContent.length > 0")
    form = page.locator('[data-ref="form"]')
    assert form.locator("select[name=game]").input_value() == "flower"
    assert page.locator('[data-ref="rows"] tr').count() == 1
    # The rule in one line; the whole of it a click away. No "Show" button: a filter applies as it changes.
    assert page.locator('[data-ref="rule-short"]').is_visible()
    assert page.locator('[data-ref="rule"]').is_hidden()
    assert form.locator("button").count() == 0
    form.locator("select[name=game]").select_option("cruel")
    page.wait_for_function("() => document.querySelectorAll('[data-ref=\"rows\"] tr').length === 0")
    assert "game=cruel" in page.url
    screenshot(page, f"leaderboard-last-played-{locale}-{width}")
    assert audit(page) == []
