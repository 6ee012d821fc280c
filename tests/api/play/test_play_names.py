"""Display names: invisible code points refused, NFC before the length, and
guests' made-up names shown in the reader's language and never claimable."""

from __future__ import annotations

import unicodedata

import pytest

from api.play.models import Player
from api.play.names import ADJECTIVES, ANIMALS, guest_name_reserved, guest_name_shown


@pytest.mark.parametrize("mark", ["\u034f", "\ufe0f", "\u17b4", "\U000e0100", "\u00ad", "\u2064"])
def test_every_default_ignorable_code_point_is_refused(as_alice, bob, mark):
    name = as_alice.get("/api/v1/me").body["display_name"]
    reply = as_alice.patch("/api/v1/me", {"display_name": f"Bob{mark}"})
    assert reply.status == 400 and reply.error_code == "bad_request"
    reply = as_alice.patch("/api/v1/me", {"display_name": f"Victim One{mark}"})
    assert reply.status == 400 and list(reply.body["error"]["fields"]) == ["display_name"], reply.body
    assert as_alice.get("/api/v1/me").body["display_name"] == name


def test_the_length_is_counted_after_nfc(as_alice):
    name = "é" * 40
    decomposed = unicodedata.normalize("NFD", name)
    assert len(decomposed) == 80
    reply = as_alice.patch("/api/v1/me", {"display_name": decomposed})
    assert reply.status == 200, reply.body
    assert reply.body["display_name"] == name
    reply = as_alice.patch("/api/v1/me", {"display_name": "é" * 41})
    assert reply.status == 400 and list(reply.body["error"]["fields"]) == ["display_name"], reply.body


def test_a_guest_is_shown_an_adjective_and_an_animal_in_the_readers_language(api):
    guest = api(language="pt-PT")
    me = guest.get("/api/v1/me").body
    stored = Player.objects.get(user__username=me["username"]).display_name
    assert stored.startswith("guest:")
    assert me["display_name"] == guest_name_shown(stored, "pt-pt")
    guest.language = "en"
    assert guest.get("/api/v1/me").body["display_name"] == guest_name_shown(stored, "en")


def test_portuguese_puts_the_adjective_after_the_animal_and_agrees_with_it():
    assert guest_name_shown("guest:swift-fox-37", "en") == "Swift Fox 37"
    assert guest_name_shown("guest:swift-fox-37", "pt-pt") == "Raposa Veloz 37"
    assert guest_name_shown("guest:brave-owl-12", "pt-pt") == "Coruja Corajosa 12"
    assert guest_name_shown("guest:brave-bear-12", "pt-pt") == "Urso Corajoso 12"
    assert guest_name_shown("guest:purple-fox-12", "en") is None
    assert len(ADJECTIVES) >= 30 and len(ANIMALS) >= 30


@pytest.mark.parametrize("name", [
    "Swift Fox 37", "Raposa Veloz 37", "swift  fox 37", "Swift Fox", "Raposa Veloz",
    "Ѕwift Fox 37", "Guest a0a1cf55", "Convidado a0a1cf55", "guest:swift-fox-37",
])
def test_no_player_may_take_a_name_that_looks_like_a_guests(name):
    assert guest_name_reserved(name)


@pytest.mark.parametrize("name", ["Swift", "Fox Hunter", "Guest Star", "Maria", "Swift Fox Fan"])
def test_ordinary_names_stay_free(name):
    assert not guest_name_reserved(name)


def test_a_guests_shown_name_cannot_be_claimed_through_the_api(api, as_alice):
    guest = api()
    shown_en = guest.get("/api/v1/me").body["display_name"]
    guest.language = "pt-PT"
    shown_pt = guest.get("/api/v1/me").body["display_name"]
    for name in (shown_en, shown_pt):
        reply = as_alice.patch("/api/v1/me", {"display_name": name})
        assert reply.status == 400 and list(reply.body["error"]["fields"]) == ["display_name"], (name, reply.body)
    reply = api().post("/api/v1/auth/register", {
        "username": "mallory", "password": "a long pass phrase 42", "display_name": shown_en})
    assert reply.status == 400 and list(reply.body["error"]["fields"]) == ["display_name"], reply.body


def test_an_older_guest_keeps_its_name_and_registering_gives_it_the_username(api, make_player):
    guest = api()
    username = guest.get("/api/v1/me").body["username"]
    Player.objects.filter(user__username=username).update(
        display_name=f"Convidado {username[len('guest-'):]}")
    assert guest.get("/api/v1/me").body["display_name"] == f"Guest {username[len('guest-'):]}"
    reply = guest.post("/api/v1/auth/register",
                       {"username": "olderguest", "password": "a long pass phrase 42"})
    assert reply.status == 201 and reply.body["display_name"] == "olderguest"


def test_a_new_guest_registering_without_a_name_is_shown_by_its_username(api):
    reply = api().post("/api/v1/auth/register",
                       {"username": "newcomer", "password": "a long pass phrase 42"})
    assert reply.status == 201 and reply.body["display_name"] == "newcomer"


def test_the_refusal_is_in_the_readers_language(as_alice):
    as_alice.language = "pt-PT"
    reply = as_alice.patch("/api/v1/me", {"display_name": "Swift Fox 37"})
    message = reply.body["error"]["fields"]["display_name"][0]
    assert "nome de um convidado" in message, reply.body
