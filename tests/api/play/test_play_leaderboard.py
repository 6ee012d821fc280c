"""GET /api/v1/leaderboard/{game}/{date}: ranked attempts only, order, ties, own rank."""

import datetime as dt

import pytest
from django.core.cache import cache

from api import clock
from api.play.attempts import post_mortem
from api.play.models import Attempt, Player
from api.play.names import guest_name_shown


def _ranked(deal, user, *, cards_home, undos=0, redeals=0, seconds=60, ranked=True, version=1):
    now = dt.datetime.now(dt.timezone.utc)
    return Attempt.objects.create(
        player=user, deal=deal, ranked=ranked, version=version, moves=min(version, 1),
        start_position=deal.position, position=deal.position,
        cards_home=cards_home, undos=undos, redeals=redeals, elapsed_ms=seconds * 1000,
        started_at=now, last_action_at=now,
    )


# Counted live (a small board) and from cached bucket counts (a threshold of
# one makes every board large): the same ranks, ties and shares.
@pytest.mark.parametrize("cached_counts_from", [20_000, 1], ids=["exact", "bucket_counts"])
def test_it_orders_by_cards_home_then_undos_redeals_and_time_and_ties_share_a_rank(
    api, login, make_player, todays_deals, today, settings, cached_counts_from
):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = cached_counts_from
    deal = todays_deals["cruel"]
    people = {name: make_player(name) for name in "abcdefg"}
    _ranked(deal, people["a"], cards_home=40, undos=0, redeals=0, seconds=10)
    _ranked(deal, people["b"], cards_home=52, undos=3, redeals=0, seconds=10)
    _ranked(deal, people["c"], cards_home=52, undos=1, redeals=5, seconds=10)
    _ranked(deal, people["d"], cards_home=52, undos=1, redeals=2, seconds=99)
    _ranked(deal, people["e"], cards_home=52, undos=1, redeals=2, seconds=99)  # tie with d
    _ranked(deal, people["f"], cards_home=52, undos=1, redeals=2, seconds=20)
    _ranked(deal, people["g"], cards_home=52, undos=0, redeals=9, seconds=500, ranked=False)

    viewer = login(api, people["e"])
    board = viewer.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?limit=10").body
    assert board["total"] == 6  # the practice attempt never counts
    ranks = [(e["display_name"], e["rank"]) for e in board["entries"]]
    assert ranks == [("F", 1), ("D", 2), ("E", 2), ("C", 4), ("B", 5), ("A", 6)]
    assert [e["is_me"] for e in board["entries"]] == [False, False, True, False, False, False]
    me = board["me"]
    assert me["rank"] == 2 and me["display_name"] == "E"
    assert me["beaten"] == 3  # C, B, A; D is a tie, not beaten
    assert me["beaten_share"] == 0.6  # 3 of the 5 others
    # The day's distribution of cards home, ranked attempts only, as the total counts them.
    assert board["cards_home"] == [{"cards_home": 40, "count": 1}, {"cards_home": 52, "count": 5}]


@pytest.mark.parametrize("cached_counts_from", [20_000, 1], ids=["exact", "bucket_counts"])
def test_time_counts_in_the_tenths_the_answer_gives(
    api, login, make_player, todays_deals, today, settings, cached_counts_from
):
    """Times within one tenth of a second read the same and share a rank."""
    settings.LEADERBOARD_CACHED_COUNTS_FROM = cached_counts_from
    deal = todays_deals["cruel"]
    people = {name: make_player(name) for name in "abcd"}
    for name, ms in {"a": 7_040, "b": 7_099, "c": 7_000, "d": 7_100}.items():
        attempt = _ranked(deal, people[name], cards_home=52)
        Attempt.objects.filter(pk=attempt.pk).update(elapsed_ms=ms)
    board = login(api, people["b"]).get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    shown = sorted((e["display_name"], e["rank"], e["elapsed_seconds"]) for e in board["entries"])
    assert shown == [("A", 1, 7.0), ("B", 1, 7.0), ("C", 1, 7.0), ("D", 4, 7.1)]
    assert board["me"]["rank"] == 1 and board["me"]["beaten"] == 1 and board["me"]["elapsed_seconds"] == 7.0


@pytest.mark.parametrize("ms, tenths", [(150, 0.1), (7_099, 7.0), (7_100, 7.1), (59, 0.0)])
def test_a_record_reads_the_same_tenths_on_the_attempt_the_board_and_the_history(
        api, todays_deals, today, ms, tenths):
    """One rule for a record's time: whole tenths, cut (never rounded)."""
    player = api()
    attempt = player.start("flower")
    attempt = player.finish(player.move(attempt, _pile_move(attempt)))
    Attempt.objects.filter(pk=attempt["id"]).update(elapsed_ms=ms)
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["elapsed_seconds"] == tenths
    summary = player.get("/api/v1/attempts?game=flower").body["results"][0]
    assert summary["elapsed_seconds"] == tenths
    board = player.get(f"/api/v1/leaderboard/flower/{today.isoformat()}").body
    assert board["entries"][0]["elapsed_seconds"] == tenths
    assert board["me"]["elapsed_seconds"] == tenths
    history = player.get("/api/v1/history?game=flower").body
    assert history["days"][0]["flower"]["elapsed_seconds"] == tenths
    assert history["best"]["flower"]["elapsed_seconds"] == tenths
    month = player.get(f"/api/v1/calendar/flower/{today.strftime('%Y-%m')}").body
    assert next(d for d in month["days"] if d["today"])["record"]["elapsed_seconds"] == tenths


def test_the_top_is_limited_and_my_rank_is_given_even_below_it(api, login, make_player,
                                                                 todays_deals, today):
    deal = todays_deals["flower"]
    for i in range(5):
        _ranked(deal, make_player(f"p{i}"), cards_home=52 - i)
    last = make_player("last")
    _ranked(deal, last, cards_home=3)
    board = login(api, last).get(f"/api/v1/leaderboard/flower/{today.isoformat()}?limit=2").body
    assert [e["rank"] for e in board["entries"]] == [1, 2]
    assert board["me"]["rank"] == 6 and board["me"]["beaten_share"] == 0.0


def test_a_player_without_a_ranked_attempt_has_no_rank(api, todays_deals, today):
    board = api().get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert dt.datetime.fromisoformat(board.pop("counts_as_of"))
    assert board == {"game": "cruel", "date": today.isoformat(), "registered": False, "total": 0,
                     "entries": [], "me": None, "cards_home": []}


def test_invalid_leaderboard_requests_are_clear_4xx(api, todays_deals, today):
    player = api()
    assert player.get(f"/api/v1/leaderboard/chess/{today.isoformat()}").error_code == "unknown_game"
    assert player.get("/api/v1/leaderboard/cruel/yesterday").error_code == "bad_date"
    assert player.get("/api/v1/leaderboard/cruel/2026-13-01").status == 400
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    assert player.get(f"/api/v1/leaderboard/cruel/{tomorrow}").error_code == "future_date"
    assert player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?limit=0").status == 400
    assert player.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?limit=x").status == 400


def _pile_move(attempt: dict) -> str:
    """A legal move that sends no card home (so cards home stays as dealt)."""
    return next(f"{m['card']}>{t}" for m in attempt["legal"] for t in m["targets"] if t != "F")


@pytest.mark.parametrize("cached_counts_from", [20_000, 1], ids=["exact", "bucket_counts"])
def test_a_ranked_attempt_enters_the_board_at_its_first_move_so_idling_never_beats_playing(
    api, login, make_player, todays_deals, today, settings, cached_counts_from
):
    """The documented rule (docs/API.md): on the board from the first move, in the
    order cards home, undos, redeals, time; an untouched attempt is not on it."""
    settings.LEADERBOARD_CACHED_COUNTS_FROM = cached_counts_from
    idle = login(api, make_player("idle"))
    player = login(api, make_player("player"))
    untouched = idle.start("cruel")
    attempt = player.start("cruel")
    attempt = player.move(attempt, _pile_move(attempt))
    assert attempt["counters"]["cards_home"] == untouched["counters"]["cards_home"]
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"

    seen_by_idle = idle.get(url).body
    assert [(e["display_name"], e["rank"]) for e in seen_by_idle["entries"]] == [("Player", 1)]
    assert seen_by_idle["total"] == 1 and seen_by_idle["me"] is None

    # The first move puts the idle attempt on the board, after the faster player.
    idle.move(untouched, _pile_move(untouched))
    Attempt.objects.filter(pk=untouched["id"]).update(elapsed_ms=10**9)
    cache.clear()  # bucket counts may lag by LEADERBOARD_COUNTS_TTL, as documented
    board = idle.get(url).body
    assert [e["display_name"] for e in board["entries"]] == ["Player", "Idle"]
    assert board["total"] == 2 and board["me"]["rank"] == 2


@pytest.mark.parametrize("cached_counts_from", [20_000, 1], ids=["exact", "bucket_counts"])
def test_finishing_with_no_move_keeps_an_attempt_off_the_board_and_an_undo_keeps_it_on(
    api, login, make_player, todays_deals, today, settings, monkeypatch, cached_counts_from
):
    """The finish moves the version, but only a first move puts an attempt on
    the board: finished untouched (or at the day's end) it is nowhere."""
    settings.LEADERBOARD_CACHED_COUNTS_FROM = cached_counts_from
    quitter = login(api, make_player("quitter"))
    undoer = login(api, make_player("undoer"))
    finished = quitter.finish(quitter.start("cruel"))
    assert finished["version"] == 1 and finished["counters"]["moves"] == 0
    attempt = undoer.start("cruel")
    attempt = undoer.move(attempt, _pile_move(attempt))
    undone = undoer.post(f"/api/v1/attempts/{attempt['id']}/undo", {"version": attempt["version"]})
    assert undone.status == 200 and undone.body["counters"]["moves"] == 0
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    board = quitter.get(url).body
    assert [e["display_name"] for e in board["entries"]] == ["Undoer"]
    assert board["total"] == 1 and board["me"] is None
    assert undoer.get(url).body["me"]["rank"] == 1
    # After the day: not among the ranked of the post-mortem, nor in the share of wins.
    after = clock.day_end(today) + dt.timedelta(hours=1)
    monkeypatch.setattr(clock, "now", lambda: after)
    assert api().get(f"/api/v1/daily/{today.isoformat()}/cruel").body["won_share"] == 0.0
    assert post_mortem.post_mortem_summary(deal=todays_deals["cruel"])["ranked"] == 1


def test_a_guests_made_up_name_is_shown_in_the_readers_language(api, bare_api, todays_deals, today):
    pt_guest = bare_api(language="pt-PT")
    pt_guest.get("/api/v1/me")
    attempt = pt_guest.start("cruel")
    pt_guest.move(attempt, _pile_move(attempt))
    made = pt_guest.get("/api/v1/me").body["display_name"]
    stored = Player.objects.get(user__attempts__isnull=False).display_name
    english, portuguese = guest_name_shown(stored, "en"), guest_name_shown(stored, "pt-pt")
    assert made == portuguese and english != portuguese
    url = f"/api/v1/leaderboard/cruel/{today.isoformat()}"
    assert [e["display_name"] for e in api(language="en").get(url).body["entries"]] == [english]
    assert [e["display_name"] for e in api(language="pt-PT").get(url).body["entries"]] == [portuguese]
    assert pt_guest.get(url).body["me"]["display_name"] == portuguese
    # A chosen name is shown as written.
    pt_guest.patch("/api/v1/me", {"display_name": "Maria"})
    assert [e["display_name"] for e in api(language="en").get(url).body["entries"]] == ["Maria"]


def test_a_line_posted_at_machine_pace_is_marked_and_ranked_after_a_person_s(
        api, make_deal, certificate_of, today, monkeypatch, settings):
    """Two guests win the same deal by the same line: one at a person's pace
    (a second a move), one as a program would (10 ms a move). The program
    is faster and would rank first; it is kept, marked, and ranked after."""
    from api import clock

    position, line = certificate_of("flower")
    make_deal("flower", today, position=position, certificate=line)
    moment = [clock.day_start(today) + dt.timedelta(hours=12)]
    monkeypatch.setattr(clock, "now", lambda: moment[0])

    def play(step: dt.timedelta):
        player = api()
        attempt = player.start("flower")
        for move in line.split():
            moment[0] += step
            attempt = player.move(attempt, move)
        assert attempt["status"] == "won"
        return player

    person = play(dt.timedelta(seconds=1))
    program = play(dt.timedelta(milliseconds=10))
    board = person.get(f"/api/v1/leaderboard/flower/{today.isoformat()}").body
    first, second = board["entries"]
    assert first["is_me"] and first["rank"] == 1 and first["machine_pace"] is False
    assert second["rank"] == 2 and second["machine_pace"] is True
    assert second["elapsed_seconds"] < first["elapsed_seconds"]
    mine = program.get(f"/api/v1/leaderboard/flower/{today.isoformat()}").body["me"]
    assert mine["rank"] == 2 and mine["machine_pace"] is True and mine["beaten"] == 0
    # The mark needs a run: the same pace for fewer requests than the bound is a person's.
    settings.PLAY_MACHINE_PACE_RUN = len(line.split()) + 1
    quick = play(dt.timedelta(milliseconds=10))
    entry = quick.get(f"/api/v1/leaderboard/flower/{today.isoformat()}").body["me"]
    assert entry["machine_pace"] is False and entry["rank"] == 1
