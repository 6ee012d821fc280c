"""/api/v1/me and /api/v1/auth/*: guests, registration keeping records, login, tokens, CSRF."""


def test_a_first_visit_gets_a_guest_player_and_a_csrf_cookie(api):
    player = api()
    me = player.get("/api/v1/me").body
    assert me["is_guest"] is True
    assert me["display_name"]
    assert player.cookie("csrftoken") and player.cookie("sessionid")
    assert player.get("/api/v1/me").body["id"] == me["id"]  # same session, same guest


def test_a_guest_who_registers_keeps_every_record(api, todays_deals):
    player = api()
    attempt = player.start("cruel")
    reply = player.post("/api/v1/auth/register", {
        "username": "dora", "password": "a long enough passphrase", "display_name": "Dora"})
    assert reply.status == 201, reply.body
    assert reply.body == {**reply.body, "username": "dora", "display_name": "Dora", "is_guest": False}
    assert player.get(f"/api/v1/attempts/{attempt['id']}").status == 200
    player.post("/api/v1/auth/logout")
    again = player.post("/api/v1/auth/login", {"username": "dora", "password": "a long enough passphrase"})
    assert again.status == 200 and again.body["id"] == reply.body["id"]
    assert player.get(f"/api/v1/attempts/{attempt['id']}").status == 200


def test_registering_twice_or_with_a_taken_name_or_weak_password_is_refused(api, alice):
    player = api()
    reply = player.post("/api/v1/auth/register", {"username": "alice", "password": "another long passphrase"})
    assert reply.status == 409 and reply.error_code == "username_taken"
    reply = player.post("/api/v1/auth/register", {"username": "erin", "password": "123"})
    assert reply.status == 400 and "password" in reply.body["error"]["fields"]
    assert player.post("/api/v1/auth/register",
                       {"username": "erin", "password": "a long enough passphrase"}).status == 201
    reply = player.post("/api/v1/auth/register", {"username": "erin2", "password": "a long enough passphrase"})
    assert reply.status == 409 and reply.error_code == "already_registered"


def test_wrong_credentials_are_a_clear_400(api, alice):
    reply = api().post("/api/v1/auth/login", {"username": "alice", "password": "nope"})
    assert reply.status == 400 and reply.error_code == "bad_credentials"


def test_logout_ends_the_session_and_the_next_visit_is_a_new_guest(as_alice):
    assert as_alice.post("/api/v1/auth/logout").status == 204
    assert as_alice.get("/api/v1/me").body["is_guest"] is True


def test_the_display_name_can_be_changed(as_alice):
    assert as_alice.patch("/api/v1/me", {"display_name": "Queen of Clubs"}).body["display_name"] == "Queen of Clubs"
    assert as_alice.get("/api/v1/me").body["display_name"] == "Queen of Clubs"
    assert as_alice.patch("/api/v1/me", {"display_name": ""}).status == 400
    assert as_alice.patch("/api/v1/me", {"display_name": 7}).status == 400


def test_an_api_client_plays_with_a_token_and_no_cookies(bare_api, alice, password, todays_deals):
    import urllib.request

    reply = bare_api().post("/api/v1/auth/token", {"username": "alice", "password": password})
    assert reply.status == 200
    client = bare_api(token=reply.body["token"])
    client.opener = urllib.request.build_opener()  # no cookie jar: no session, no CSRF
    assert client.get("/api/v1/me").body["username"] == "alice"
    assert client.start("cruel")["ranked"] is True
    assert bare_api(token="not-a-token").get("/api/v1/me").error_code == "not_authenticated"


def test_a_session_without_the_csrf_header_is_refused(api, todays_deals):
    player = api()
    reply = player.request("POST", "/api/v1/attempts", {"game": "cruel"}, csrf=False)
    assert reply.status == 403 and reply.error_code == "csrf_failed"
    reply = player.request("POST", "/api/v1/auth/login", {"username": "x", "password": "y"}, csrf=False)
    assert reply.status == 403 and reply.error_code == "csrf_failed"


def test_a_guest_named_in_portuguese_gets_its_username_as_name_when_registering_in_english(api):
    player = api(language="pt-PT")
    assert player.get("/api/v1/me").body["display_name"][-2:].isdigit()  # a made-up name
    player.language = "en"
    reply = player.post("/api/v1/auth/register", {"username": "frank", "password": "a long pass phrase 42"})
    assert reply.status == 201, reply.body
    assert reply.body["display_name"] == "frank" and reply.body["is_guest"] is False


def test_a_chosen_name_is_kept_when_registering(api):
    player = api()
    player.patch("/api/v1/me", {"display_name": "Grace H."})
    reply = player.post("/api/v1/auth/register", {"username": "grace", "password": "a long pass phrase 42"})
    assert reply.body["display_name"] == "Grace H."
