"""Messages a player may read come in the request's language, with no raw
game code: Django's own password messages included (pt-PT wording)."""

import datetime as dt

import pytest


@pytest.mark.parametrize("language, expected", [
    ("pt-PT", ["Esta palavra-passe é demasiado curta. Tem de ter pelo menos 8 caracteres.",
               "Esta palavra-passe é demasiado comum.", "Esta palavra-passe só tem algarismos."]),
    ("en", ["This password is too short. It must contain at least 8 characters.",
            "This password is too common.", "This password is entirely numeric."]),
])
def test_password_messages_are_in_the_pages_language(bare_api, transactional_db, language, expected):
    guest = bare_api(language=language)
    guest.get("/api/v1/me")
    reply = guest.post("/api/v1/auth/register", {"username": "maria", "password": "1234"})
    assert reply.status == 400
    assert reply.body["error"]["fields"]["password"] == expected


def test_a_day_without_a_deal_is_named_by_the_games_name(api, make_deal, today):
    day = today - dt.timedelta(days=2)
    reply = api(language="pt-PT").get(f"/api/v1/daily/{day.isoformat()}/flower")
    assert reply.error_code == "deal_not_ready"
    assert "Flower Garden" in reply.body["error"]["message"]
    assert " flower " not in reply.body["error"]["message"]
