"""Private leagues through /api/v1/leagues: making, joining by invite code,
leaving, removal, closing; boards that are the public board filtered to the
members (same order, same ties); standings; no reading of another league."""

import datetime as dt

import pytest

from api.play.leagues.models import League
from api.play.models import Attempt

DAY = dt.timedelta(days=1)


def _ranked(deal, user, *, cards_home, undos=0, redeals=0, seconds=60):
    now = dt.datetime.now(dt.timezone.utc)
    return Attempt.objects.create(
        player=user, deal=deal, ranked=True, version=1, moves=1,
        start_position=deal.position, position=deal.position,
        cards_home=cards_home, undos=undos, redeals=redeals, elapsed_ms=seconds * 1000,
        started_at=now, last_action_at=now,
    )


def _make(client, name="Friday Club") -> dict:
    reply = client.post("/api/v1/leagues", {"name": name})
    assert reply.status == 201, reply.body
    return reply.body


def _join(client, code) -> dict:
    reply = client.post("/api/v1/leagues/join", {"code": code})
    assert reply.status == 200, reply.body
    return reply.body


def _rerank(entries: list[dict]) -> list[tuple[str, int]]:
    """Competition ranks (1, 2, 2, 4) of a board's entries, in its order and ties."""
    ranks, out = {}, []
    for i, e in enumerate(entries):
        ranks.setdefault(e["rank"], i + 1)
        out.append((e["display_name"], ranks[e["rank"]]))
    return out


def test_a_registered_player_makes_a_league_and_others_join_by_its_code(
    api, login, as_alice, bob, carol
):
    league = _make(as_alice, "  Friday   Club ")
    assert league["name"] == "Friday Club"  # cleaned as display names are
    assert league["is_owner"] is True and league["member_count"] == 1
    code = league["invite_code"]
    assert len(code) >= 32 and league["invite_path"] == f"/leagues/join/{code}/"

    as_bob = login(api, bob)
    joined = _join(as_bob, code)
    assert joined["id"] == league["id"] and joined["invite_code"] is None  # the owner's only
    assert _join(as_bob, code)["member_count"] == 2  # joining twice changes nothing
    names = [(m["display_name"], m["is_owner"], m["is_me"]) for m in joined["members"]]
    assert names == [("Alice", True, False), ("Bob", False, True)]
    assert [lg["name"] for lg in as_bob.get("/api/v1/leagues").body["leagues"]] == ["Friday Club"]

    as_carol = login(api, carol)
    other_last = "y" if code[-1] == "x" else "x"  # a code one character off, never the same
    wrong = as_carol.post("/api/v1/leagues/join", {"code": code[:-1] + other_last})
    assert (wrong.status, wrong.error_code) == (404, "unknown_invite")


def test_guests_may_not_make_or_join_leagues_and_bad_names_are_clear(api, as_alice):
    guest = api()
    reply = guest.post("/api/v1/leagues", {"name": "Mine"})
    assert (reply.status, reply.error_code) == (403, "registration_required")
    code = _make(as_alice)["invite_code"]
    reply = guest.post("/api/v1/leagues/join", {"code": code})
    assert (reply.status, reply.error_code) == (403, "registration_required")
    for bad in ["", "\u200bZero", "x" * 41, 12]:
        reply = as_alice.post("/api/v1/leagues", {"name": bad})
        assert reply.status == 400 and "name" in reply.body["error"]["fields"], bad
    assert League.objects.count() == 1


def test_an_invite_names_its_league_and_who_invites_to_a_guest_too(api, login, as_alice, bob):
    league = _make(as_alice)
    path = f"/api/v1/leagues/invites/{league['invite_code']}"
    guest = api()
    reply = guest.get(path)
    assert reply.status == 200, reply.body
    assert reply.body == {"name": "Friday Club", "invited_by": "Alice", "member_count": 1,
                          "max_members": reply.body["max_members"], "is_member": False,
                          "league_id": None}
    as_bob = login(api, bob)
    _join(as_bob, league["invite_code"])
    mine = as_bob.get(path).body
    assert (mine["is_member"], mine["league_id"], mine["member_count"]) == (True, league["id"], 2)
    renewed = as_alice.post(f"/api/v1/leagues/{league['id']}/invite").body
    assert renewed["invite_code"] != league["invite_code"]
    reply = guest.get(path)  # the old code names nothing any more
    assert (reply.status, reply.error_code) == (404, "unknown_invite")


def test_a_renewed_code_retires_the_old_link(api, login, as_alice, bob):
    league = _make(as_alice)
    renewed = as_alice.post(f"/api/v1/leagues/{league['id']}/invite").body
    assert renewed["invite_code"] != league["invite_code"]
    as_bob = login(api, bob)
    assert as_bob.post("/api/v1/leagues/join", {"code": league["invite_code"]}).status == 404
    assert _join(as_bob, renewed["invite_code"])["member_count"] == 2
    # Only the owner renews.
    reply = as_bob.post(f"/api/v1/leagues/{league['id']}/invite")
    assert (reply.status, reply.error_code) == (403, "not_league_owner")


def test_leaving_removal_and_closing(api, login, as_alice, bob, carol):
    league = _make(as_alice)
    path = f"/api/v1/leagues/{league['id']}"
    as_bob, as_carol = login(api, bob), login(api, carol)
    _join(as_bob, league["invite_code"])
    _join(as_carol, league["invite_code"])

    assert as_bob.post(f"{path}/leave").status == 204
    assert as_bob.get(path).status == 404
    assert as_bob.get("/api/v1/leagues").body["leagues"] == []
    reply = as_alice.post(f"{path}/leave")
    assert (reply.status, reply.error_code) == (409, "owner_stays")

    members = as_alice.get(path).body["members"]
    carol_id = next(m["id"] for m in members if m["display_name"] == "Carol")
    reply = as_carol.request("DELETE", f"{path}/members/{carol_id}")
    assert (reply.status, reply.error_code) == (403, "not_league_owner")
    assert as_alice.request("DELETE", f"{path}/members/{carol_id}").status == 204
    assert as_carol.get(path).status == 404
    assert [m["display_name"] for m in as_alice.get(path).body["members"]] == ["Alice"]

    _join(as_bob, league["invite_code"])
    assert as_bob.request("DELETE", path).status == 403  # only the owner closes
    assert as_alice.request("DELETE", path).status == 204
    assert as_alice.get(path).status == 404 and as_bob.get(path).status == 404
    assert as_bob.post("/api/v1/leagues/join", {"code": league["invite_code"]}).status == 404


def test_a_removed_member_rejoins_by_the_link_until_the_owner_renews_it(
        api, login, as_alice, bob):
    league = _make(as_alice)
    as_bob = login(api, bob)
    path = f"/api/v1/leagues/{league['id']}"
    _join(as_bob, league["invite_code"])
    bob_id = next(m["id"] for m in as_alice.get(path).body["members"] if m["display_name"] == "Bob")
    assert as_alice.request("DELETE", f"{path}/members/{bob_id}").status == 204
    assert _join(as_bob, league["invite_code"])["member_count"] == 2  # removing is not banning
    bob_id = next(m["id"] for m in as_alice.get(path).body["members"] if m["display_name"] == "Bob")
    assert as_alice.request("DELETE", f"{path}/members/{bob_id}").status == 204
    renewed = as_alice.post(f"{path}/invite").body
    reply = as_bob.post("/api/v1/leagues/join", {"code": league["invite_code"]})
    assert (reply.status, reply.error_code) == (404, "unknown_invite")
    assert as_alice.get(path).body["member_count"] == 1 and renewed["member_count"] == 1


def test_league_names_may_look_alike_where_display_names_may_not(api, login, as_alice, bob):
    """A league's name is not unique and names no player: look-alikes of a
    player's name or of another league's are taken, cleaned as names are."""
    as_bob = login(api, bob)
    cyrillic_alice = "\u0410lice"  # Cyrillic A
    reply = as_bob.patch("/api/v1/me", {"display_name": cyrillic_alice})
    assert (reply.status, reply.error_code) == (409, "display_name_taken"), reply.body
    first = _make(as_bob, cyrillic_alice)
    second = _make(as_alice, "Friday Club")
    third = _make(as_bob, "FRIDAY  CLUB")
    assert first["name"] == cyrillic_alice
    assert (second["name"], third["name"]) == ("Friday Club", "FRIDAY CLUB")
    reply = as_bob.post("/api/v1/leagues", {"name": "\u202eevil"})  # reordering text: refused as in names
    assert reply.status == 400 and "name" in reply.body["error"]["fields"], reply.body


def test_a_member_cannot_read_another_league_nor_can_anyone_outside(
    api, login, as_alice, bob, todays_deals, today
):
    mine = _make(as_alice, "Mine")
    as_bob = login(api, bob)
    theirs = _make(as_bob, "Theirs")
    _join(as_bob, mine["invite_code"])  # Bob is in both; Alice only in hers
    outsider = api()
    for path in [f"/api/v1/leagues/{theirs['id']}",
                 f"/api/v1/leagues/{theirs['id']}/boards/cruel/{today.isoformat()}",
                 "/api/v1/leagues/999999"]:
        for client in (as_alice, outsider):
            reply = client.get(path)
            assert (reply.status, reply.error_code) == (404, "not_found"), path
    assert as_alice.post(f"/api/v1/leagues/{theirs['id']}/invite").status == 404
    assert as_alice.request("DELETE", f"/api/v1/leagues/{theirs['id']}").status == 404
    assert League.objects.filter(pk=theirs["id"]).exists()


def test_the_cap_on_members_holds(api, login, make_player, as_alice, settings):
    settings.LEAGUE_MAX_MEMBERS = 2
    code = _make(as_alice)["invite_code"]
    _join(login(api, make_player("bob")), code)
    reply = login(api, make_player("carol")).post("/api/v1/leagues/join", {"code": code})
    assert (reply.status, reply.error_code) == (409, "league_full")


def test_joining_is_throttled_per_player(api, as_alice, login, bob, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "league_join": "3/hour"}}
    as_bob = login(api, bob)
    codes = [as_bob.post("/api/v1/leagues/join", {"code": f"guess{i}"}).status for i in range(4)]
    assert codes == [404, 404, 404, 429]


@pytest.mark.parametrize("cached_counts_from", [20_000, 1], ids=["exact", "bucket_counts"])
def test_a_league_board_is_the_public_board_filtered_to_members_ties_included(
    api, login, make_player, as_alice, alice, todays_deals, today, settings, cached_counts_from
):
    settings.LEADERBOARD_CACHED_COUNTS_FROM = cached_counts_from
    deal = todays_deals["cruel"]
    people = {name: make_player(name) for name in "bcdefgh"}
    _ranked(deal, people["b"], cards_home=40, seconds=10)
    _ranked(deal, people["c"], cards_home=52, undos=3, seconds=10)
    _ranked(deal, people["d"], cards_home=52, undos=1, redeals=2, seconds=99)
    _ranked(deal, people["e"], cards_home=52, undos=1, redeals=2, seconds=99)  # tie with d
    _ranked(deal, people["f"], cards_home=52, undos=1, redeals=2, seconds=20)
    _ranked(deal, people["g"], cards_home=52, undos=1, redeals=2, seconds=99)  # tie, not a member
    _ranked(deal, alice, cards_home=30, seconds=5)
    league = _make(as_alice)
    for name in "bdeh":  # h never plays
        _join(login(api, people[name]), league["invite_code"])

    public = as_alice.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}?limit=100").body
    members = {"Alice", "B", "D", "E", "H"}
    expected = _rerank([e for e in public["entries"] if e["display_name"] in members])
    boards = as_alice.get(f"/api/v1/leagues/{league['id']}/boards/cruel/{today.isoformat()}").body
    assert [(e["display_name"], e["rank"]) for e in boards["entries"]] == expected
    assert expected == [("D", 1), ("E", 1), ("B", 3), ("Alice", 4)]
    public_rows = {e["display_name"]: {**e, "rank": None} for e in public["entries"]}
    assert all({**e, "rank": None} == public_rows[e["display_name"]] for e in boards["entries"])
    assert boards["not_played"] == ["H"]
    assert boards["today"] is True
    # Points: n - rank + 1 among the 4 on the board; the tie shares them.
    week = {s["display_name"]: (s["rank"], s["points"]) for s in boards["week"]["standings"]}
    assert week == {"D": (1, 4), "E": (1, 4), "B": (3, 2), "Alice": (4, 1), "H": (5, 0)}
    assert boards["month"]["standings"] == boards["week"]["standings"]
    assert boards["month"]["start"] == today.replace(day=1).isoformat()


def test_standings_add_the_days_of_the_week_and_the_month(
    api, login, make_player, make_deal, as_alice, alice, bob, at
):
    # Sunday 2026-03-01 ends a week that began in February; Monday the 2nd starts one.
    days = [dt.date(2026, 2, 28), dt.date(2026, 3, 1), dt.date(2026, 3, 2)]
    deals = [make_deal("flower", day) for day in days]
    as_bob = login(api, bob)
    league = _make(as_alice)
    _join(as_bob, league["invite_code"])
    _ranked(deals[0], alice, cards_home=52)  # 28 Feb: Alice 2, Bob 1
    _ranked(deals[0], bob, cards_home=40)
    _ranked(deals[1], bob, cards_home=52)  # 1 Mar: Bob alone, 1
    _ranked(deals[2], bob, cards_home=20)  # 2 Mar: Alice 2, Bob 1
    _ranked(deals[2], alice, cards_home=30)
    at(dt.datetime(2026, 3, 2, 12, tzinfo=dt.timezone.utc))
    path = f"/api/v1/leagues/{league['id']}/boards/flower"

    sunday = as_alice.get(f"{path}/2026-03-01").body
    assert sunday["today"] is False and sunday["not_played"] == ["Alice"]
    assert (sunday["week"]["start"], sunday["week"]["end"]) == ("2026-02-23", "2026-03-01")
    assert [(s["display_name"], s["points"], s["days_played"])
            for s in sunday["week"]["standings"]] == [("Alice", 2, 1), ("Bob", 2, 2)]
    assert [s["rank"] for s in sunday["week"]["standings"]] == [1, 1]
    assert [(s["display_name"], s["points"]) for s in sunday["month"]["standings"]] == [
        ("Bob", 1), ("Alice", 0)]

    monday = as_alice.get(f"{path}/2026-03-02").body
    assert monday["week"]["start"] == "2026-03-02"
    assert [(s["display_name"], s["points"]) for s in monday["week"]["standings"]] == [
        ("Alice", 2), ("Bob", 1)]
    assert [(s["display_name"], s["points"]) for s in monday["month"]["standings"]] == [
        ("Alice", 2), ("Bob", 2)]
    reply = as_alice.get(f"{path}/2026-03-03")
    assert (reply.status, reply.error_code) == (404, "future_date")
    assert as_alice.get(f"{path}/yesterday").status == 400


def test_my_places_in_each_league_on_a_day(api, login, make_player, as_alice, alice, bob,
                                            todays_deals, today):
    cruel = todays_deals["cruel"]
    other = make_player("o")
    _ranked(cruel, other, cards_home=52)
    _ranked(cruel, bob, cards_home=45)
    _ranked(cruel, alice, cards_home=45, seconds=90)  # behind Bob on time
    friday = _make(as_alice, "Friday Club")
    as_bob = login(api, bob)
    _join(as_bob, friday["invite_code"])
    _join(login(api, other), friday["invite_code"])
    _make(as_alice, "Alone")

    places = as_alice.get(f"/api/v1/leagues/places/{today.isoformat()}").body
    assert places["date"] == today.isoformat()
    got = [(p["league"]["name"], p["game"], p["rank"], p["players"], p["members"])
           for p in places["places"]]
    # By league name, each of the day's games; not on Flower Garden's board yet.
    assert got == [("Alone", "cruel", 1, 1, 1), ("Alone", "flower", None, 0, 1),
                   ("Friday Club", "cruel", 3, 3, 3), ("Friday Club", "flower", None, 0, 3)]
    public = as_alice.get(f"/api/v1/leaderboard/cruel/{today.isoformat()}").body
    assert public["me"]["rank"] == 3  # the league's order is the board's

    assert api().get(f"/api/v1/leagues/places/{today.isoformat()}").body["places"] == []
    reply = as_alice.get(f"/api/v1/leagues/places/{(today + DAY).isoformat()}")
    assert (reply.status, reply.error_code) == (404, "future_date")
    assert as_alice.get("/api/v1/leagues/places/someday").status == 400
