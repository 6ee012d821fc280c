"""Display names held unique by the database: of parallel claims of one
name exactly one wins; look-alikes are mapped before case folds; a
username becomes a display name only through the display names' cleaning;
names that already collide are settled by the migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from play_calls import at_once

from api.play.models import Player
from api.play.names import display_name_key

PASSWORD = "a long pass phrase 42"
CLAIMS = 12


# Capital Cyrillic and Greek letters that fold to a lower case with no Latin look-alike.
@pytest.mark.parametrize("latin, lookalike", [
    ("Bobby616", "\u0412obby616"), ("Hank", "\u041dank"), ("Kate", "\u041aate"),
    ("Tom", "\u0422om"), ("Max", "\u039cax"), ("Nina", "\u039dina"), ("Eve", "\u0395ve"),
    ("Xena", "\u03a7ena"),
])
def test_capital_look_alikes_share_the_latin_names_key(latin, lookalike):
    assert display_name_key(lookalike) == display_name_key(latin)
    assert display_name_key(lookalike.upper()) == display_name_key(latin.lower())


def test_a_capital_cyrillic_look_alike_is_refused_beside_the_latin_name(api, make_player):
    make_player("bobby", display_name="Bobby616")
    reply = api().patch("/api/v1/me", {"display_name": "\u0412obby616"})
    assert reply.status == 409 and reply.error_code == "display_name_taken", reply.body
    reply = api().post("/api/v1/auth/register", {
        "username": "impostor", "password": PASSWORD, "display_name": "\u0412OBBY616"})
    assert reply.status == 409 and reply.error_code == "display_name_taken", reply.body


def test_twelve_parallel_registrations_with_one_name_give_one_winner(api):
    guests = [api() for _ in range(CLAIMS)]
    replies = at_once([
        (lambda n=n, guest=guest: guest.post("/api/v1/auth/register", {
            "username": f"claimant{n}", "password": PASSWORD, "display_name": "Jackpot"}))
        for n, guest in enumerate(guests)])
    assert sorted(r.status for r in replies) == [201] + [409] * (CLAIMS - 1), [r.body for r in replies]
    assert {r.error_code for r in replies if r.status == 409} == {"display_name_taken"}
    assert Player.objects.filter(name_key=display_name_key("Jackpot")).count() == 1
    # The losers are still guests, free to register under another name.
    loser = guests[next(i for i, r in enumerate(replies) if r.status == 409)]
    assert loser.get("/api/v1/me").body["is_guest"] is True
    assert loser.post("/api/v1/auth/register", {
        "username": "second", "password": PASSWORD, "display_name": "Runner-up"}).status == 201


def test_twelve_parallel_renames_to_one_name_give_one_winner(api):
    players = [api() for _ in range(CLAIMS)]
    replies = at_once([
        (lambda player=player: player.patch("/api/v1/me", {"display_name": "Queen of Hearts"}))
        for player in players])
    assert sorted(r.status for r in replies) == [200] + [409] * (CLAIMS - 1), [r.body for r in replies]
    assert {r.error_code for r in replies if r.status == 409} == {"display_name_taken"}
    assert Player.objects.filter(display_name="Queen of Hearts").count() == 1


def test_a_username_that_draws_nothing_is_refused(api):
    reply = api().post("/api/v1/auth/register",
                       {"username": "\u3164" * 5, "password": PASSWORD})
    assert reply.status == 400 and "username" in reply.body["error"]["fields"], reply.body
    assert not Player.objects.filter(display_name__contains="\u3164").exists()


def test_a_username_the_cleaning_refuses_leaves_the_made_up_name(api):
    guest = api()
    made_up = guest.get("/api/v1/me").body["display_name"]
    reply = guest.post("/api/v1/auth/register", {"username": "___", "password": PASSWORD})
    assert reply.status == 201, reply.body
    assert reply.body["display_name"] == made_up


def test_made_up_guest_names_may_repeat(api):
    first, second = api(), api()
    stored = Player.objects.get(user__username=first.get("/api/v1/me").body["username"]).display_name
    Player.objects.filter(user__username=second.get("/api/v1/me").body["username"]).update(
        display_name=stored)
    player = Player.objects.get(user__username=second.get("/api/v1/me").body["username"])
    player.save()  # the same made-up name as another guest's: no conflict
    assert player.name_key == ""


def test_the_migration_keeps_one_holder_of_each_name_and_renames_the_others(
        make_player, transactional_db):
    holder = make_player("first", display_name="Bobby")
    second = make_player("second", display_name="Other")
    guest = make_player("guesty", display_name="Third")
    Player.objects.filter(user=guest).update(is_guest=True)
    # Names as they were before the index: look-alikes of one another.
    Player.objects.filter(user=second).update(display_name="\u0412obby", name_key="x1")
    Player.objects.filter(user=guest).update(display_name="BOBBY", name_key="x2")
    migration = importlib.import_module("api.play.migrations.0012_player_name_key_unique")
    migration._keys_again(apps, None)
    names = {p.user.username: p for p in Player.objects.select_related("user")}
    assert names["first"].display_name == "Bobby"
    assert names["second"].display_name == "\u0412obby 2"
    assert names["guesty"].display_name.startswith("guest:") and names["guesty"].name_key == ""
    keys = [p.name_key for p in names.values() if p.name_key]
    assert len(keys) == len(set(keys))
    assert names["first"].name_key == display_name_key("Bobby") and holder.pk
