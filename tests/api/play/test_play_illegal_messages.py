"""Why a move is illegal, in the player's language (Accept-Language), with a stable reason code."""

import pytest

from api.play.models import Player
from api.play.names import guest_name_shown

CRUEL = ("cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/QD6SJCJH/"
         "JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H")
FLOWER = ("flower 8D5C3H2DQS6C/AHQCTC4C8S5H/6DJSKDQH9C2S/TD2CTH7DAC4H/5S6H4S2HQD3D/7SKH3C7CJCJD "
          "TS8C6S9H9SKC4DAD3SJHKS5D8HAS7H9D")


def _illegal(player, attempt, move):
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves",
                        {"move": move, "version": attempt["version"]})
    assert reply.status == 422 and reply.error_code == "illegal_move", reply.body
    assert reply.body["error"]["move"] == move
    return reply.body["error"]


CRUEL_CASES = [
    ("4D>F", "foundation_needs",
     "4\u2666 goes to the foundation only after 3\u2666; the foundation needs 2\u2666 next.",
     "O 4\u2666 só vai para a fundação depois do 3\u2666; a fundação precisa primeiro do 2\u2666."),
    ("4D>3", "not_same_suit_one_higher",
     "Pile 3 shows 3\u2665; 4\u2666 goes only onto the same suit one rank higher.",
     "A pilha 3 mostra o 3\u2665; o 4\u2666 só vai para cima da carta do mesmo naipe um valor acima."),
    ("5C>F", "not_available", "5\u2663 is not on top of a pile.",
     "O 5\u2663 não está no topo de uma pilha."),
    ("R", "redeal_changes_nothing", "A redeal now would give the same layout, so it is not allowed.",
     "Redistribuir agora daria a mesma disposição, por isso não é permitido."),
]


@pytest.mark.parametrize(("move", "reason", "english", "portuguese"), CRUEL_CASES)
def test_an_illegal_cruel_move_is_explained_in_english_and_in_portuguese(
    api, make_deal, today, move, reason, english, portuguese
):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    for language, expected in (("en", english), ("pt-PT", portuguese)):
        player = api(language=language)
        error = _illegal(player, player.start("cruel"), move)
        assert error["reason"] == reason
        assert error["message"] == expected


def test_an_empty_pile_stays_empty_in_both_languages(api, make_deal, today):
    position = CRUEL.replace("KD3S8C5D", "-").replace("5C9H2D4D", "5C9H2D4DKD3S8C5D")
    make_deal("cruel", today, position=position, certificate="4H>4")
    english = api(language="en")
    assert _illegal(english, english.start("cruel"), "5D>2")["message"] == (
        "Pile 2 is empty, and an empty pile stays empty."
    )
    portuguese = api(language="pt-PT")
    error = _illegal(portuguese, portuguese.start("cruel"), "5D>2")
    assert error["reason"] == "empty_pile_stays_empty"
    assert error["message"] == "A pilha 2 está vazia, e uma pilha vazia fica vazia."


def test_illegal_flower_garden_moves_in_portuguese(api, make_deal, today):
    make_deal("flower", today, position=FLOWER, certificate="AD>F")
    player = api(language="pt-PT")
    attempt = player.start("flower")
    assert _illegal(player, attempt, "R")["message"] == "O Flower Garden não tem redistribuição."
    error = _illegal(player, attempt, "5D>2")
    assert error["reason"] == "not_one_rank_lower"
    assert error["message"] == "A coluna 2 mostra o 5\u2665; só lá vai uma carta um valor abaixo."
    error = _illegal(player, attempt, "6C>F")
    assert error["reason"] == "foundation_needs"
    assert error["message"] == "O 6\u2663 só vai para a fundação depois do 5\u2663; a fundação precisa primeiro do A\u2663."
    assert _illegal(player, attempt, "5C>3")["message"] == (
        "O 5\u2663 não está no topo de uma coluna nem no bouquet."
    )
    english = api(language="en")
    attempt = english.start("flower")
    assert _illegal(english, attempt, "5H>2")["message"] == "5\u2665 is already on column 2."
    assert _illegal(english, attempt, "AD>7")["message"] == (
        "There is no column 7: there are only 6 columns."
    )


def test_the_other_api_messages_are_in_portuguese_too(api, bare_api, make_deal, today):
    make_deal("cruel", today, position=CRUEL, certificate="4D>2")
    player = api(language="pt-PT")
    attempt = player.start("cruel")
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/moves", {"move": "4D>2", "version": 5})
    assert reply.error_code == "stale_version"
    assert reply.body["error"]["message"] == "A tentativa mudou desde essa versão (outro separador jogou primeiro)."
    reply = player.post(f"/api/v1/attempts/{attempt['id']}/undo", {"version": 0})
    assert reply.body["error"]["message"] == "Não há nenhuma jogada para anular."
    reply = player.post("/api/v1/auth/login", {"username": "nobody", "password": "wrong password"})
    assert reply.body["error"]["message"] == "Nome de utilizador ou palavra-passe errados."
    reply = player.get(f"/api/v1/daily/{today.isoformat()}/spider")
    assert reply.body["error"]["message"] == "Jogo desconhecido 'spider': use um destes: cruel, flower."
    me = player.get("/api/v1/me").body
    stored = Player.objects.get(user__username=me["username"]).display_name
    assert me["display_name"] == guest_name_shown(stored, "pt-pt")
