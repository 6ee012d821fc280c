"""Bad input is a clear 400 (or 409), never a 500: deeply nested JSON, and
display names that hide, reorder, pile up or imitate."""

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from api.play.models import Player
from api.play.names import display_name_clean, display_name_key
from api.play.rest import parsers


@pytest.mark.parametrize("path, method", [
    ("/api/v1/attempts", "POST"), ("/api/v1/auth/login", "POST"), ("/api/v1/me", "PATCH"),
    ("/api/v1/auth/register", "POST"), ("/api/v1/attempts/1/moves", "POST"),
])
def test_deeply_nested_json_is_a_400_on_every_body(api, path, method):
    player = api()
    for raw in (b"[" * 2000 + b"]" * 2000, b'{"a":' * 1500 + b"1" + b"}" * 1500):
        reply = player.request(method, path, raw=raw)
        assert reply.status == 400 and reply.error_code == "bad_request", (path, reply.body)
        assert "nested" in reply.body["error"]["message"]


def test_brackets_inside_strings_do_not_count_as_nesting(api, todays_deals):
    player = api()
    reply = player.patch("/api/v1/me", {"display_name": "[[[[" * 9 + "x"})
    assert reply.status == 200 and reply.body["display_name"] == "[[[[" * 9 + "x", reply.body


def test_a_recursion_error_in_the_decoder_is_a_400_too(api, monkeypatch, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10**9  # only the decoder's own limit left
    for bound in ("MAX_DEPTH", "MAX_CONTAINERS"):
        monkeypatch.setattr(parsers, bound, 10**9)
    reply = api().request("POST", "/api/v1/attempts", raw=b"[" * 100_000 + b"]" * 100_000)
    assert reply.status == 400 and reply.error_code == "bad_request", reply.body


def test_a_large_body_is_a_413_and_many_small_lists_a_400_on_every_body(
        api, bare_api, alice, password, settings):
    """Bounded in the web process, whatever the proxy in front does (the
    laptop default has none), signed in by session or by token."""
    token = bare_api().post("/api/v1/auth/token", {"username": "alice", "password": password})
    many = b"[" + b",".join([b"[]"] * 800_000) + b"]"  # 2.4 MB, two deep
    for player in (api(), bare_api(token=token.body["token"])):
        for path, method in [("/api/v1/attempts", "POST"), ("/api/v1/me", "PATCH"),
                             ("/api/v1/attempts/1/moves", "POST"), ("/api/v1/auth/login", "POST")]:
            _refused(player, path, method, many, settings)
    player = api()
    # Within the bounds, bodies are read as ever.
    assert player.patch("/api/v1/me", {"display_name": "Bounded"}).status == 200


def _refused(player, path, method, many, settings):
    reply = player.request(method, path, raw=many)
    assert (reply.status, reply.error_code) == (413, "payload_too_large"), (path, reply.body)
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes" in reply.body["error"]["message"]
    few = b"[" + b",".join([b"[]"] * 1000) + b"]"  # 3 KB: small, yet a thousand lists
    reply = player.request(method, path, raw=few)
    assert (reply.status, reply.error_code) == (400, "bad_request"), (path, reply.body)
    assert "objects and lists" in reply.body["error"]["message"]


LONE = "\ud800"  # JSON's escape for a lone surrogate: no character, and no UTF-8 for it


def test_text_that_cannot_be_encoded_is_a_400_naming_the_field_on_every_endpoint(
        api, todays_deals):
    player = api(language="pt-PT")
    attempt = player.start("cruel")
    asked = [
        ("POST", "/api/v1/auth/login", {"username": LONE, "password": "x"}, "username"),
        ("POST", "/api/v1/auth/token", {"username": "alice", "password": "a" + LONE}, "password"),
        ("POST", "/api/v1/auth/token", {"username": "x" + LONE + "y", "password": "x"}, "username"),
        ("POST", "/api/v1/auth/register", {"username": "carol", "password": "long enough pass",
                                           "display_name": LONE}, "display_name"),
        ("PATCH", "/api/v1/me", {"display_name": "Ana " + LONE}, "display_name"),
        ("POST", "/api/v1/attempts", {"game": LONE}, "game"),
        ("POST", f"/api/v1/attempts/{attempt['id']}/moves", {"move": LONE, "version": 0}, "move"),
        ("POST", f"/api/v1/attempts/{attempt['id']}/moves",
         {"moves": ["QC>F", LONE], "version": 0}, "moves"),
        ("POST", f"/api/v1/attempts/{attempt['id']}/undo", {"version": 0, "why": [{"x": LONE}]},
         "why"),
    ]
    for method, path, body, field in asked:
        reply = player.request(method, path, body)
        assert reply.status == 400 and reply.error_code == "bad_request", (path, reply.body)
        assert list(reply.body["error"]["fields"]) == [field], (path, reply.body)
        assert "\\ud800" in reply.body["error"]["fields"][field][0]
    # A key that cannot be encoded, or a bare string: the body as a whole.
    for raw in (b'{"\\ud800": 1}', b'"\\udfff"'):
        reply = player.request("POST", "/api/v1/auth/login", raw=raw)
        assert reply.status == 400 and list(reply.body["error"]["fields"]) == ["non_field_errors"]
    # Nothing was changed on the way.
    assert player.get("/api/v1/me").body["display_name"] != "Ana"
    assert player.get(f"/api/v1/attempts/{attempt['id']}").body["version"] == 0
    # A pair of surrogates is a character (JSON's way to write U+1F600): it goes through.
    reply = player.patch("/api/v1/me", {"display_name": "Ana \U0001F600"})
    assert reply.status == 200 and reply.body["display_name"] == "Ana \U0001F600", reply.body


@pytest.mark.parametrize("name", [
    "\u202eevil",            # right-to-left override
    "\u200b\u200b",          # zero-width spaces only
    "a\u2066b\u2069",        # bidirectional isolate
    "two\nlines",            # newline
    "tab\there",
    "x" + "\u0300" * 39,     # 39 combining marks
    "e\u0301\u0302\u0303",   # three accents on one letter
    "\u3164",                # Hangul filler (draws nothing)
    "   ",
    "\ue000private",
])
def test_display_names_that_hide_or_pile_up_are_refused(as_alice, name):
    reply = as_alice.patch("/api/v1/me", {"display_name": name})
    assert reply.status == 400 and "display_name" in reply.body["error"]["fields"], reply.body
    assert as_alice.get("/api/v1/me").body["display_name"] == "Alice"


def test_display_names_are_stored_in_nfc_with_spaces_tidied(as_alice):
    reply = as_alice.patch("/api/v1/me", {"display_name": "  Jose\u0301   Sa\u0301 "})
    assert reply.status == 200 and reply.body["display_name"] == "Jos\u00e9 S\u00e1"
    assert as_alice.patch("/api/v1/me", {"display_name": "Vi\u1ec7t \u05e9\u05dc\u05d5\u05dd"}).status == 200


def test_a_look_alike_of_another_players_name_is_refused(api, alice, bob):
    player = api()
    for lookalike in ("\u0410lice", "alice", "ALICE", "A1ice", "B\u043eb"):
        reply = player.patch("/api/v1/me", {"display_name": lookalike})
        assert reply.status == 409 and reply.error_code == "display_name_taken", (lookalike, reply.body)
    assert player.patch("/api/v1/me", {"display_name": "Alicia"}).status == 200
    reply = api().post("/api/v1/auth/register", {
        "username": "mallory", "password": "a long enough passphrase", "display_name": "B\u043eb"})
    assert reply.status == 409 and reply.error_code == "display_name_taken"


def test_a_player_may_keep_or_recase_their_own_name(as_alice):
    assert as_alice.patch("/api/v1/me", {"display_name": "Alice"}).status == 200
    assert as_alice.patch("/api/v1/me", {"display_name": "ALICE"}).status == 200


def test_registering_keeps_the_guest_name_when_the_username_looks_like_another(api, alice):
    player = api()
    guest_name = player.get("/api/v1/me").body["display_name"]
    reply = player.post("/api/v1/auth/register",
                        {"username": "a1ice", "password": "a long enough passphrase"})
    assert reply.status == 201 and reply.body["display_name"] == guest_name


# Names every player may choose: letters (accented ones too), digits,
# punctuation and spaces, with at least one letter or digit.
_visible_names = st.text(
    st.sampled_from("abcxyzABCXYZ019 .-_'áéçãõñüßøÆ"), min_size=1, max_size=40,
).filter(lambda text: any(c.isalnum() for c in text))


@hsettings(max_examples=300, deadline=None)
@given(_visible_names)
def test_a_clean_name_is_stable_and_visible(text):
    name = display_name_clean(text)  # refusing a visible name fails the test
    assert display_name_clean(name) == name
    assert name == name.strip() and "\n" not in name and len(name) <= 40
    assert any(c.isalnum() for c in name)
    assert display_name_key(name) == display_name_key(name.casefold())


def test_existing_players_have_keys(make_player):
    make_player("zed", "Zed")
    assert Player.objects.get(user__username="zed").name_key == display_name_key("Zed")


def test_inputs_validated_at_once_in_threads_keep_their_own_data_and_errors():
    """Input serializers share their bound fields between requests: bodies
    validated at the same time in many threads each get their own answer."""
    import threading

    from api.play.rest.inputs import MoveIn

    bodies = []
    for i in range(400):
        if i % 4 == 0:
            bodies.append({"move": f"{i % 13 + 1}C>F", "version": i})
        elif i % 4 == 1:
            bodies.append({"moves": [f"{i % 13 + 1}D>{i % 8 + 1}"] * (i % 5 + 1), "version": i})
        elif i % 4 == 2:
            bodies.append({"move": "x" * 17, "version": -i})  # two fields wrong
        else:
            bodies.append({"move": "R", "moves": ["R"], "version": i})  # both sent

    def expected(body):
        if "move" in body and "moves" in body:
            return ("invalid", ["non_field_errors"])
        if len(body.get("move", "")) > 16:
            return ("invalid", ["move", "version"])
        return ("valid", dict(body))

    def validate(body):
        serializer = MoveIn(data=body)
        if serializer.is_valid():
            return ("valid", dict(serializer.validated_data))
        return ("invalid", sorted(serializer.errors))

    answers = [None] * len(bodies)
    start = threading.Barrier(8)

    def worker(k):
        start.wait()
        for i in range(k, len(bodies), 8):
            answers[i] = validate(bodies[i])

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [expected(body) for body in bodies]
    assert validate({"move": "4H>F", "version": 3}) == ("valid", {"move": "4H>F", "version": 3})
