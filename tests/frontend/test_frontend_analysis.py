"""After the game, in the page: the end panel says where the win slipped
away, the history page says it again, and the replay of the player's own
attempt opens at that move with the line that kept the win."""

from __future__ import annotations

import datetime as dt
import re

from certified_deals import known_loss
from frontend_steps import api_get, certified, click_move, confirm_finish, move_words, start_attempt

from api import clock

WORDS = {
    "en": {"lost": "The win was lost at move {k} ({move}); {keeping} kept it.",
           "sealed": "The whole line that kept it comes when the day ends.",
           "foundation": "foundation", "redeal": "redeal", "kept": "The line that kept the win"},
    "pt-PT": {"lost": "A vitória perdeu-se na jogada {k} ({move}); {keeping} tê-la-ia mantido.",
              "sealed": "A linha completa que a mantinha chega quando o dia acabar.",
              "foundation": "fundação", "redeal": "redistribuir",
              "kept": "A linha que mantinha a vitória"},
}


def test_the_end_panel_history_and_replay_say_where_the_win_was_lost(
        deals, open_page, analysis_in_process, monkeypatch, settings, today):
    """While the day lasts the page gives the losing move and the one move
    that kept the win, and says the line comes at the day's end; after it,
    the replay shows that line too."""
    position, certificate = certified("cruel")
    line, k = known_loss(position, certificate)
    line = line[:k]  # up to the move that loses the win: the page may block what follows
    real_now = clock.now
    after_the_day = {"on": False}
    monkeypatch.setattr(clock, "now", lambda: clock.day_end(today) + dt.timedelta(seconds=1)
                        if after_the_day["on"] else real_now())
    for locale, words in WORDS.items():
        after_the_day["on"] = False
        page = open_page("/play/cruel/", locale=locale)  # a new visitor: a ranked attempt
        start_attempt(page)
        for token in line:
            click_move(page, token)
        page.locator('[data-ref="finish"]').click()
        if page.locator('[data-ref="finish-dialog"]').is_visible():
            confirm_finish(page)
        page.wait_for_selector('[data-play][data-busy="false"]')
        panel = page.locator('[data-ref="analysis"][data-verdict="lost"]')
        panel.wait_for()
        mine = next(d for d in api_get(page, "/daily")["deals"] if d["game"] == "cruel")["my_attempts"]
        analysis = api_get(page, f"/attempts/{mine[-1]['id']}/analysis")
        keeping = analysis["lost_at"]["keeping_move"]
        sentence = words["lost"].format(k=k, move=move_words(line[k - 1], words),
                                        keeping=move_words(keeping, words))
        assert analysis["sealed"] is True and "keeping_line" not in analysis["lost_at"]
        assert panel.inner_text().startswith(f"{sentence} {words['sealed']}"), panel.inner_text()

        # The replay of the attempt, opened at the position before that move:
        # the player's own line only while the day lasts.
        panel.get_by_role("link").click()
        page.wait_for_selector(f'[data-replay][data-line="mine"][data-step="{k - 1}"]')
        lost = page.locator('.moves li[data-lost="lost"]')
        assert lost.inner_text().strip() == move_words(line[k - 1], words)
        assert page.locator('[data-ref="intro"]').inner_text() == f"{sentence} {words['sealed']}"
        assert page.get_by_role("button", name=words["kept"]).count() == 0

        # The day is over: the line that kept the win is in the replay.
        after_the_day["on"] = True
        page.reload()
        page.wait_for_selector(f'[data-replay][data-line="mine"][data-step="{k - 1}"]')
        assert page.locator('[data-ref="intro"]').inner_text() == sentence
        page.get_by_role("button", name=words["kept"]).click()
        page.wait_for_selector(f'[data-replay][data-line="kept"][data-step="{k - 1}"]')
        assert page.locator('.moves li[data-lost="kept"]').inner_text().strip() == move_words(keeping, words)
        page.locator('.moves li[data-lost="kept"] button').click()
        page.wait_for_selector(f'[data-replay][data-step="{k}"]')

        # The history page says it too.
        page.goto(re.sub(r"/replay/.*", "/history/", page.url))
        line_shown = page.locator(f'[data-analysis="{analysis["attempt_id"]}"]')
        line_shown.wait_for()
        assert line_shown.inner_text().startswith(sentence), line_shown.inner_text()


def test_a_past_day_shows_its_post_mortem_beside_the_solution(deals, open_page, today):
    import datetime as dt

    from django.utils import timezone

    from api.play.models import DayPostMortem

    deal = deals["cruel-yesterday"]
    DayPostMortem.objects.create(deal=deal, computed_at=timezone.now(), summary={
        "ranked": 5, "won": 2, "lost": 3, "still_winnable": 0, "undecided": 0, "pending": 0,
        "lost_at": [{"move_number": 8, "count": 2}, {"move_number": 12, "count": 1}],
        "losing_moves": [{"move_number": 8, "move": "R", "count": 2}],
        "par": {"moves": 40, "redeals": 1}})
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    for locale, won, par, move in (
            ("en", "2 of 5 ranked players won.", "Par: 40 moves and 1 redeals.",
             "Move 8, redeal: 2 players"),
            ("pt-PT", "Ganharam 2 de 5 jogadores classificados.",
             "Par: 40 jogadas e 1 redistribuições.", "Jogada 8, redistribuir: 2 jogadores")):
        page = open_page(f"/replay/cruel/{yesterday}/", locale=locale)
        section = page.locator('[data-ref="post-mortem"]')
        section.wait_for()
        assert section.locator('[data-ref="post-mortem-won"]').inner_text() == won
        assert section.locator('[data-ref="post-mortem-par"]').inner_text() == par
        assert section.locator("tbody tr").count() == 2
        assert section.locator('[data-ref="post-mortem-moves"] li').inner_text() == move
