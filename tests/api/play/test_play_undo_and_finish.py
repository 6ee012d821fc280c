"""POST /attempts/{id}/undo and /finish; GET /attempts/{id}/log."""

CRUEL = ("cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/"
         "JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H")


def _undo(player, attempt, version=None):
    return player.post(f"/api/v1/attempts/{attempt['id']}/undo",
                       {"version": attempt["version"] if version is None else version})


def test_undo_restores_the_exact_layout_before_a_redeal_and_is_counted(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    start = player.start("cruel")
    moved = player.move(start, "4D>2")
    redealt = player.move(moved, "R")
    reply = _undo(player, redealt)
    assert reply.status == 200
    undone = reply.body
    assert undone["position"] == moved["position"]
    assert undone["counters"] == {"cards_home": 4, "redeals": 0, "undos": 1, "moves": 1}
    assert undone["version"] == 3
    assert undone["last_action"] == "undo"
    log = player.get(f"/api/v1/attempts/{start['id']}/log").body
    assert log["actions"] == ["4D>2", "R", "undo"]
    assert log["replay_ok"] is True


def test_a_retried_undo_is_not_applied_twice(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    moved = player.move(player.move(player.start("cruel"), "4D>2"), "2C>F")
    first, retry = _undo(player, moved), _undo(player, moved)
    assert first.body["replayed"] is False and retry.body["replayed"] is True
    assert retry.body["counters"]["undos"] == 1 and retry.body["counters"]["moves"] == 1


def test_undo_with_nothing_to_undo_is_a_conflict(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    reply = _undo(player, player.start("cruel"))
    assert reply.status == 409 and reply.error_code == "nothing_to_undo"


def test_finishing_a_playing_attempt_abandons_it_and_stops_the_clock(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.move(player.start("cruel"), "4D>2")
    finished = player.post(f"/api/v1/attempts/{attempt['id']}/finish").body
    assert finished["status"] == "abandoned" and finished["finished"] is True
    assert finished["can_undo"] is False and finished["legal"] == []
    again = player.post(f"/api/v1/attempts/{attempt['id']}/finish").body
    assert again["ended_at"] == finished["ended_at"]
    assert again["elapsed_seconds"] == finished["elapsed_seconds"]
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": "2C>F", "version": finished["version"]})
    assert reply.status == 409 and reply.error_code == "attempt_finished"
    reply = _undo(player, finished)
    assert reply.status == 409 and reply.error_code == "attempt_finished"


def test_the_log_detects_a_tampered_row(api, make_deal, today):
    from api.play.models import Attempt

    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.move(player.start("cruel"), "4D>2")
    Attempt.objects.filter(pk=attempt["id"]).update(cards_home=52)
    Attempt.objects.filter(pk=attempt["id"]).update(position=CRUEL)
    assert player.get(f"/api/v1/attempts/{attempt['id']}/log").body["replay_ok"] is False
