"""GET /api/v1/attempts/{id}/hint: the next move of a solution, or the news
that the position can no longer be won; never on a ranked attempt in play."""

import datetime as dt

import solitaire

# Won by KH>F QS>F KS>F; but a redeal first makes one pile QS KS KH, from
# which KH goes home and then nothing moves: lost.
CRUEL_SMALL = "cruel QS/KSKH/-/-/-/-/-/-/-/-/-/-"


def test_a_practice_attempt_gets_a_move_that_leads_to_a_win(api, todays_deals):
    player = api()
    for game in ("cruel", "flower"):
        ranked = player.start(game)
        practice = player.start(game)
        # No hint on the deal while the ranked attempt is in play on its day.
        assert player.post(f"/api/v1/attempts/{ranked['id']}/finish").status == 200
        assert practice["ranked"] is False
        reply = player.get(f"/api/v1/attempts/{practice['id']}/hint")
        assert reply.status == 200, reply.body
        assert reply.body["status"] == "solved" and reply.body["version"] == practice["version"]
        move = reply.body["move"]
        position = solitaire.parse_position(practice["position"]["notation"])
        assert solitaire.Move.parse(move) in position.legal_moves()
        # The hinted move is still winnable afterwards, and the API takes it.
        after = position.apply(solitaire.Move.parse(move))
        assert solitaire.solve(after, max_seconds=10).status is solitaire.SolveStatus.SOLVED
        assert player.move(practice, move)["version"] == practice["version"] + 1


def test_a_ranked_attempt_gets_no_hint_until_it_is_finished(api, todays_deals):
    player = api(language="pt-PT")
    ranked = player.start("cruel")
    assert ranked["ranked"] is True
    reply = player.get(f"/api/v1/attempts/{ranked['id']}/hint")
    assert reply.status == 403 and reply.error_code == "hint_not_for_ranked"
    assert "As dicas são para treino" in reply.body["error"]["message"]
    finished = player.post(f"/api/v1/attempts/{ranked['id']}/finish", {})
    assert finished.status == 200, finished.body
    reply = player.get(f"/api/v1/attempts/{ranked['id']}/hint")
    assert reply.status == 200 and reply.body["status"] == "solved"


def test_a_lost_position_is_reported_as_such_with_no_move(api, make_deal, today):
    past = today - dt.timedelta(days=3)
    make_deal("cruel", past, position=CRUEL_SMALL, certificate="KH>F QS>F KS>F")
    player = api()
    attempt = player.start("cruel", past.isoformat())
    reply = player.get(f"/api/v1/attempts/{attempt['id']}/hint")
    assert reply.status == 200 and reply.body["status"] == "solved"
    after = player.move(attempt, "R")
    assert solitaire.solve(solitaire.parse_position(after["position"]["notation"])).status.value == "unsolvable"
    reply = player.get(f"/api/v1/attempts/{attempt['id']}/hint")
    assert reply.status == 200, reply.body
    assert reply.body == {"status": "unsolvable", "move": None, "version": 1}


def test_someone_elses_attempt_gets_no_hint(api, todays_deals):
    owner, other = api(), api()
    ranked = owner.start("flower")
    practice = owner.start("flower")
    assert owner.post(f"/api/v1/attempts/{ranked['id']}/finish").status == 200
    reply = other.get(f"/api/v1/attempts/{practice['id']}/hint")
    assert reply.status == 404 and reply.error_code == "not_found"
