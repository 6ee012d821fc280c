"""POST /api/v1/attempts/{id}/moves: validation by the engine, retries, stale tabs."""

import threading

CRUEL = ("cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/"
         "JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H")


def _move(player, attempt, move, version=None):
    return player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                       {"move": move, "version": attempt["version"] if version is None else version})


def test_it_lists_the_legal_moves_grouped_by_card(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")  # certificate unused here
    attempt = api().start("cruel")
    legal = {e["card"]: sorted(e["targets"]) for e in attempt["legal"]}
    assert legal == {"2C": ["9", "F"], "2H": ["3", "F"], "3H": ["12"], "4D": ["2"], "4H": ["4"]}
    assert attempt["can_redeal"] is False
    assert attempt["can_undo"] is False
    assert attempt["counters"] == {"cards_home": 4, "redeals": 0, "undos": 0, "moves": 0}


def test_a_move_returns_the_new_position_and_a_redeal_follows_the_rules(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.move(player.start("cruel"), "4D>2")
    assert attempt["position"]["piles"][0] == ["5C", "9H", "2D"]
    assert attempt["position"]["piles"][1] == ["KD", "3S", "8C", "5D", "4D"]
    assert attempt["can_redeal"] is True
    attempt = player.move(attempt, "R")
    assert attempt["position"]["notation"].startswith("cruel 5C9H2DKD/3S8C5D4D/9C9S7D3H/")
    assert attempt["counters"]["redeals"] == 1
    assert attempt["version"] == 2


def test_it_rejects_an_illegal_move_naming_it_and_changes_nothing(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.start("cruel")
    reply = _move(player, attempt, "4D>3")
    assert reply.status == 422
    assert reply.error_code == "illegal_move"
    assert reply.body["error"]["message"] == (
        "Pile 3 shows 3\u2665; 4\u2666 goes only onto the same suit one rank higher."
    )
    assert reply.body["error"]["move"] == "4D>3"
    assert reply.body["error"]["reason"] == "not_same_suit_one_higher"
    again = player.get(f"/api/v1/attempts/{attempt['id']}").body
    assert again["version"] == 0
    assert again["position"] == attempt["position"]
    assert player.get(f"/api/v1/attempts/{attempt['id']}/log").body["actions"] == []


def test_it_rejects_a_redeal_that_would_give_the_same_layout(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    reply = _move(player, player.start("cruel"), "R")
    assert reply.status == 422 and reply.error_code == "illegal_move"
    assert "same layout" in reply.body["error"]["message"]


def test_it_rejects_a_malformed_move_with_400(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.start("cruel")
    for bad in ["4D-2", "ZZ>1", "4D>13", ""]:
        reply = _move(player, attempt, bad)
        assert reply.status == 400, bad
        assert reply.error_code in ("invalid_move", "bad_request"), bad


def test_it_rejects_wrong_json_types_with_400(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.start("cruel")
    url = f"/api/v1/attempts/{attempt['id']}/moves"
    for body in [{"move": 42, "version": 0}, {"move": "4D>2", "version": "0"},
                 {"move": "4D>2", "version": True}, {"move": "4D>2", "version": -1},
                 {"move": "4D>2"}, [1, 2], "4D>2", None]:
        reply = player.request("POST", url, body)
        assert reply.status == 400, body
        assert reply.error_code == "bad_request", (body, reply.body)
    reply = player.request("POST", url, raw=b"{not json")
    assert reply.status == 400 and reply.error_code == "bad_request"
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["version"] == 0


def test_a_retried_move_is_answered_again_without_being_applied_twice(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.start("cruel")
    first = _move(player, attempt, "4D>2")
    retry = _move(player, attempt, "4D>2")
    assert first.status == retry.status == 200
    assert first.body["replayed"] is False and retry.body["replayed"] is True
    assert retry.body["version"] == 1
    assert retry.body["position"] == first.body["position"]
    assert player.get(f"/api/v1/attempts/{attempt['id']}/log").body["actions"] == ["4D>2"]


def test_a_stale_tab_gets_409_with_the_current_state(api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    attempt = player.start("cruel")
    player.move(attempt, "4D>2")  # the other tab
    reply = _move(player, attempt, "2C>F")  # this tab still shows version 0
    assert reply.status == 409
    assert reply.error_code == "stale_version"
    assert reply.body["error"]["state"]["version"] == 1
    assert reply.body["error"]["state"]["last_action"] == "4D>2"
    reply = _move(player, attempt, "2C>F", version=7)
    assert reply.status == 409 and reply.error_code == "stale_version"


def test_two_tabs_moving_at_once_never_lose_or_double_a_move(api, make_deal, today):
    """Many rounds of two real concurrent requests from the same version:
    exactly one is applied; the other is a 409 or (same move) a replay."""
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api()
    for _round in range(8):
        attempt = player.start("cruel")
        replies = {}
        barrier = threading.Barrier(2)

        def tab(name, move):
            barrier.wait()
            replies[name] = _move(player, attempt, move)

        threads = [threading.Thread(target=tab, args=("a", "2C>F")),
                   threading.Thread(target=tab, args=("b", "2H>F"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(r.status for r in replies.values())
        assert statuses == [200, 409], {k: (r.status, r.body) for k, r in replies.items()}
        state = player.get(f"/api/v1/attempts/{attempt['id']}").body
        assert state["version"] == 1
        assert state["counters"]["cards_home"] == 5
        log = player.get(f"/api/v1/attempts/{attempt['id']}/log").body
        assert len(log["actions"]) == 1 and log["replay_ok"]

        # The same move from two tabs at once: applied once, the other replayed.
        replies.clear()
        barrier = threading.Barrier(2)
        attempt = state
        threads = [threading.Thread(target=tab, args=(n, "4D>2")) for n in "ab"]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.status == 200 for r in replies.values())
        assert sorted(r.body["replayed"] for r in replies.values()) == [False, True]
        state = player.get(f"/api/v1/attempts/{attempt['id']}").body
        assert state["version"] == 2 and state["counters"]["moves"] == 2
        player.finish(state)  # the next round's attempt is practice, opened by this


def test_a_move_on_a_blocked_position_is_reported_and_the_attempt_can_be_finished(
    api, make_deal, today
):
    # Everything home but the queens and kings, in two piles of four whose
    # tops are kings: no move, and a redeal would repeat the layout.
    blocked = "cruel QDKCQHKD/QSKHQCKS/-/-/-/-/-/-/-/-/-/-"
    make_deal("cruel", today, position=blocked, certificate="x")
    player = api()
    attempt = player.start("cruel")
    assert attempt["status"] == "blocked"
    assert attempt["legal"] == []
    finished = player.post(f"/api/v1/attempts/{attempt['id']}/finish").body
    assert finished["status"] == "blocked" and finished["finished"] is True


def test_a_write_from_a_version_the_row_has_left_changes_nothing(make_deal, make_player, today):
    """The store writes a change only while the row is still at the version
    it was computed from: of two changes from one version exactly one lands,
    and the other writes nothing (its request reads again)."""
    import solitaire
    from api import clock
    from api.play import domain
    from api.play.attempts import services, store
    from api.play.models import Attempt, AttemptAction

    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    user = make_player("racer")
    started = services.attempt_start(user=user, game="cruel", date=None, now=clock.now())
    read = store.load(attempt_id=started.id, player_id=user.pk)
    first, late = (domain.play(read, [solitaire.Move.parse(move)], now=clock.now(),
                               rules=services.rules()) for move in ("2C>F", "2H>F"))
    assert store.save(first) is True
    assert store.save(late) is False
    row = Attempt.objects.get(pk=started.id)
    assert (row.version, row.line, row.cards_home) == (1, "2C>F", 5)
    assert list(AttemptAction.objects.filter(attempt=row).values_list("move", flat=True)) == ["2C>F"]


def test_a_move_is_three_queries_the_session_with_its_user_the_attempt_and_one_write(
        todays_deals, settings):
    """A move reads the session with its user in one query (from the
    database, api/sessions.py) and the attempt with its deal, and writes
    once: on PostgreSQL one conditional statement, elsewhere a conditional
    update and an insert. The clock's offset is measured first, so its
    query is not counted."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from api import clock

    client = Client()
    client.get("/api/v1/me")
    attempt = client.post("/api/v1/attempts", {"game": "cruel"},
                          content_type="application/json").json()
    token = f"{attempt['legal'][0]['card']}>{attempt['legal'][0]['targets'][0]}"
    settings.CLOCK_SYNC_SECONDS = 3600
    clock.resync()
    clock.now()
    try:
        with CaptureQueriesContext(connection) as captured:
            reply = client.post(f"/api/v1/attempts/{attempt['id']}/moves",
                                {"move": token, "version": 0}, content_type="application/json")
    finally:
        clock.resync()
    # Statements, not transaction control (the test's own transaction adds savepoints).
    statements = [q["sql"] for q in captured.captured_queries
                  if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT"))]
    assert len(statements) == (3 if connection.vendor == "postgresql" else 4), statements
    assert "auth_user" in statements[0] and "play_session" in statements[0], statements
    assert reply.status_code == 200 and reply.json()["version"] == 1
    assert reply.json()["last_action"] == token
