"""Several moves in one request, and the forced/safe moves home every answer carries."""

import datetime as dt
import threading

FORCED_CRUEL = "cruel KCQC/KDQD/KHQH/KSQS/-/-/-/-/-/-/-/-"
STUCK_CRUEL = "cruel QCKC/KDQD/KHQH/KSQS/-/-/-/-/-/-/-/-"
SAFE_FLOWER = "flower QCKC/KD/KH/KS/QD/QH QS"
CRUEL = ("cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/"
         "JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H")


def _batch(player, attempt, moves, version=None):
    return player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                       {"moves": moves, "version": attempt["version"] if version is None else version})


def _log(player, attempt):
    return player.get(f"/api/v1/attempts/{attempt['id']}/log").body


def test_the_forced_finish_is_listed_and_plays_as_one_batch_of_ordinary_moves(
    api, make_deal, today
):
    make_deal("cruel", today, position=FORCED_CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel")
    assert attempt["forced"] == ["QC>F", "QD>F", "QH>F", "QS>F", "KC>F", "KD>F", "KH>F", "KS>F"]
    assert attempt["safe"] == attempt["forced"]
    reply = _batch(player, attempt, attempt["forced"])
    assert reply.status == 200, reply.body
    won = reply.body
    assert won["status"] == "won" and won["finished"] is True
    assert won["version"] == 8 and won["counters"]["moves"] == 8
    assert won["counters"]["cards_home"] == 52
    assert won["forced"] == [] and won["safe"] == [] and won["replayed"] is False
    log = _log(player, attempt)
    assert log["actions"] == attempt["forced"] and log["replay_ok"] is True
    # A retry of the whole batch is answered again, not applied twice.
    again = _batch(player, attempt, attempt["forced"])
    assert again.status == 200 and again.body["replayed"] is True
    assert again.body["version"] == 8
    assert len(_log(player, attempt)["actions"]) == 8


def test_safe_moves_follow_the_solvers_rule_and_cruel_has_none_until_forced(
    api, make_deal, today
):
    make_deal("cruel", today, position=STUCK_CRUEL, certificate="x")
    make_deal("flower", today, position=SAFE_FLOWER, certificate="x")
    player = api()
    cruel = player.start("cruel")
    assert cruel["forced"] == [] and cruel["safe"] == []
    flower = player.start("flower")
    assert flower["forced"] == []
    assert flower["safe"] == ["QD>F", "QH>F", "QS>F"]
    reply = _batch(player, flower, flower["safe"])
    assert reply.status == 200 and reply.body["counters"]["cards_home"] == 47
    assert reply.body["safe"] == [] and reply.body["status"] == "playing"


def test_an_illegal_move_in_a_batch_changes_nothing_and_names_its_index(api, make_deal, today):
    # Practice (a past day's deal): on a ranked attempt a batch holds only moves home.
    past = (today - dt.timedelta(days=1)).isoformat()
    make_deal("cruel", past, position=CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel", past)
    reply = _batch(player, attempt, ["4D>2", "2C>F", "4D>3"])
    assert reply.status == 422 and reply.error_code == "illegal_move"
    assert reply.body["error"]["move"] == "4D>3" and reply.body["error"]["index"] == 2
    assert "4\u2666" in reply.body["error"]["message"]
    state = player.get(f"/api/v1/attempts/{attempt['id']}").body
    assert state["version"] == 0 and state["position"] == attempt["position"]
    assert _log(player, attempt)["actions"] == []
    # The legal prefix alone goes through, in order.
    reply = _batch(player, attempt, ["4D>2", "2C>F"])
    assert reply.status == 200 and reply.body["version"] == 2
    assert _log(player, attempt)["actions"] == ["4D>2", "2C>F"]


def test_a_batch_follows_the_version_rules(api, make_deal, today):
    # Practice (a past day's deal): on a ranked attempt a batch holds only moves home.
    past = (today - dt.timedelta(days=1)).isoformat()
    make_deal("cruel", past, position=CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel", past)
    player.move(attempt, "4D>2")  # another tab
    reply = _batch(player, attempt, ["2C>F", "2H>F"])
    assert reply.status == 409 and reply.error_code == "stale_version"
    assert reply.body["error"]["state"]["version"] == 1
    # From version 1 the batch goes; the same batch again from 1 is a retry;
    # a different batch from 1 is stale.
    assert _batch(player, attempt, ["2C>F", "2H>F"], version=1).body["version"] == 3
    assert _batch(player, attempt, ["2C>F", "2H>F"], version=1).body["replayed"] is True
    other = _batch(player, attempt, ["2H>F", "2C>F"], version=1)
    assert other.status == 409 and other.error_code == "stale_version"
    assert _log(player, attempt)["actions"] == ["4D>2", "2C>F", "2H>F"]


def test_a_batch_past_the_win_is_refused_whole(api, make_deal, today):
    make_deal("cruel", today, position=FORCED_CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel")
    reply = _batch(player, attempt, attempt["forced"] + ["KS>F"])
    # The batch wins at its 8th move: the 9th comes after the win.
    assert reply.status == 409 and reply.error_code == "attempt_finished", reply.body
    assert reply.body["error"]["index"] == 8
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["version"] == 0


def test_bad_batches_are_400_and_change_nothing(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel")
    url = f"/api/v1/attempts/{attempt['id']}/moves"
    for body in [{"moves": [], "version": 0}, {"moves": "4D>2", "version": 0},
                 {"moves": [42], "version": 0}, {"moves": ["4D>2"], "move": "4D>2", "version": 0},
                 {"moves": ["4D>2"] * 53, "version": 0}, {"moves": ["4D>2"]},
                 {"version": 0}, {"moves": {"a": 1}, "version": 0}]:
        reply = player.request("POST", url, body)
        assert reply.status == 400 and reply.error_code == "bad_request", (body, reply.body)
    reply = player.request("POST", url, {"moves": ["4D>2", "4D-2"], "version": 0})
    assert reply.status == 400 and reply.error_code == "invalid_move"
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["version"] == 0


def test_two_tabs_sending_batches_at_once_never_interleave(api, make_deal, today):
    # Practice (a past day's deal): on a ranked attempt a batch holds only moves home.
    past = (today - dt.timedelta(days=1)).isoformat()
    make_deal("cruel", past, position=CRUEL, certificate="x")
    player = api()
    for _round in range(4):
        attempt = player.start("cruel", past)
        replies = {}
        barrier = threading.Barrier(2)

        def tab(name, moves):
            barrier.wait()
            replies[name] = _batch(player, attempt, moves)

        threads = [threading.Thread(target=tab, args=("a", ["2C>F", "4D>2"])),
                   threading.Thread(target=tab, args=("b", ["2H>F", "4H>4"]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status for r in replies.values()) == [200, 409]
        log = _log(player, attempt)
        assert log["actions"] in (["2C>F", "4D>2"], ["2H>F", "4H>4"]) and log["replay_ok"]


def test_the_schema_documents_the_batch_and_the_new_fields(api):
    schema = api().get("/api/v1/schema/?format=json").body
    move_in = schema["components"]["schemas"]["MoveIn"]["properties"]
    assert move_in["moves"]["type"] == "array" and move_in["moves"]["maxItems"] == 52
    attempt = schema["components"]["schemas"]["AttemptOut"]["properties"]
    assert attempt["forced"]["type"] == "array" and attempt["safe"]["type"] == "array"
    post = schema["paths"]["/api/v1/attempts/{attempt_id}/moves"]["post"]
    assert post["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/AttemptOut")


def test_a_ranked_batch_holds_only_the_moves_home_the_game_lists(api, make_deal, today):
    """A ranked attempt takes in one batch only what the page's automation
    sends (forced or safe moves home), so a whole line cannot be posted at
    once; the same free moves one at a time are fine."""
    make_deal("cruel", today, position=CRUEL, certificate="x")
    player = api()
    attempt = player.start("cruel")
    assert attempt["ranked"] is True
    # Cruel lists no safe moves home, and this deal has no forced finish.
    reply = _batch(player, attempt, ["2C>F", "4D>2"])
    assert reply.status == 422 and reply.error_code == "batch_not_home", reply.body
    assert reply.body["error"]["index"] == 0 and reply.body["error"]["move"] == "2C>F"
    assert _log(player, attempt)["actions"] == []
    attempt = player.move(attempt, "4D>2")
    assert attempt["version"] == 1
