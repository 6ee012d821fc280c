"""Accounts: sessions that last while used and the beat task that cleans
what is not; passwords checked against the username; usernames unique
regardless of case in the database; tokens that end on logout and expire;
and the play services importable in a fresh process."""

import datetime as dt
import os
import subprocess
import sys
import threading
import time
from importlib import import_module

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from rest_framework.authtoken.models import Token

from api.play.accounts import sessions as play_sessions
from api.play.models import Attempt, Session
from api.play.tasks import clean_sessions_and_guests

User = get_user_model()
SessionStore = import_module(django_settings.SESSION_ENGINE).SessionStore
PASSWORD = "correct horse battery staple"
DAY = dt.timedelta(days=1)


def _session_of(client) -> Session:
    return Session.objects.get(session_key=client.cookie("sessionid"))


def test_a_session_in_use_is_refreshed_once_half_its_age_has_passed(api):
    player = api()
    session = _session_of(player)
    age = django_settings.SESSION_COOKIE_AGE
    # Nine days later (of fourteen): five days left, less than half.
    store = SessionStore(session_key=session.session_key)
    store[play_sessions.REFRESHED_KEY] = time.time() - 9 * 86400
    store.save()
    Session.objects.filter(pk=session.pk).update(expire_date=timezone.now() + 5 * DAY)
    for cookie in player.cookies:
        if cookie.name == "sessionid":
            cookie.expires = int(time.time()) + 5 * 86400  # as the browser has it
    assert player.get("/api/v1/me").status == 200
    left = _session_of(player).expire_date - timezone.now()
    assert left > dt.timedelta(seconds=age) - dt.timedelta(minutes=5)
    sent = next(c for c in player.cookies if c.name == "sessionid")
    assert sent.expires >= time.time() + age - 300  # the cookie was sent again
    # A fresh session is not written again on the next request.
    before = _session_of(player).expire_date
    sent.expires = int(time.time()) + 86400
    assert player.get("/api/v1/me").status == 200
    assert _session_of(player).expire_date == before
    assert next(c for c in player.cookies if c.name == "sessionid").expires == sent.expires


def test_the_beat_task_deletes_expired_sessions_and_long_idle_empty_guests(
        api, todays_deals, make_player):
    old = timezone.now() - (django_settings.PLAY_GUEST_IDLE_DAYS + 1) * DAY
    idle_empty, idle_player, idle_registered, fresh = api(), api(), api(), api()
    idle_player.start("cruel")
    assert idle_registered.post("/api/v1/auth/register", {
        "username": "rita", "password": "a long enough passphrase"}).status == 201
    ids = {name: client.get("/api/v1/me").body["id"]
           for name, client in [("idle_empty", idle_empty), ("idle_player", idle_player),
                                ("idle_registered", idle_registered), ("fresh", fresh)]}
    User.objects.filter(pk__in=[ids["idle_empty"], ids["idle_player"], ids["idle_registered"]]
                        ).update(date_joined=old, last_login=old)
    expired = SessionStore()
    expired["x"] = 1
    expired.create()
    Session.objects.filter(pk=expired.session_key).update(expire_date=timezone.now() - DAY)

    result = clean_sessions_and_guests.apply().get()
    assert result == {"sessions": 1, "guests": 1}
    assert not Session.objects.filter(pk=expired.session_key).exists()
    left = set(User.objects.values_list("pk", flat=True))
    assert ids["idle_empty"] not in left
    assert {ids["idle_player"], ids["idle_registered"], ids["fresh"]} <= left
    assert Attempt.objects.filter(player_id=ids["idle_player"]).count() == 1
    assert "play-clean-sessions-and-guests" in django_settings.CELERY_BEAT_SCHEDULE


def test_a_password_like_the_username_is_refused(api):
    reply = api().post("/api/v1/auth/register",
                       {"username": "sebastian.cardoso", "password": "sebastian.cardoso"})
    assert reply.status == 400 and "password" in reply.body["error"]["fields"], reply.body
    assert "username" in " ".join(reply.body["error"]["fields"]["password"]).lower()


def test_usernames_are_unique_regardless_of_case_in_the_database(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ALICE", password=PASSWORD)


def test_parallel_registrations_differing_in_case_make_one_account(api):
    players = [api() for _ in range(8)]
    names = ["dave", "Dave", "dAve", "daVe", "davE", "DAVE", "DaVe", "dAvE"]
    replies = [None] * 8
    barrier = threading.Barrier(8)

    def register(i):
        barrier.wait()
        replies[i] = players[i].post("/api/v1/auth/register",
                                     {"username": names[i], "password": "a long enough passphrase"})

    threads = [threading.Thread(target=register, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [201] + [409] * 7, [r.body for r in replies]
    assert {r.error_code for r in replies if r.status == 409} == {"username_taken"}
    assert User.objects.filter(username__iexact="dave").count() == 1


def test_the_migration_renames_later_case_duplicates_before_the_index(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate([("play", "0002_leaderboard_from_first_move")])
    try:
        first = User.objects.create(username="gina")
        second = User.objects.create(username="GINA")
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes("play"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert User.objects.get(pk=first.pk).username == "gina"
    assert User.objects.get(pk=second.pk).username == f"GINA~{second.pk}"


def test_logout_revokes_the_token(api, bare_api, alice):
    token = api().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD})
    assert token.status == 200 and token.body["expires_at"]
    with_token = bare_api(token=token.body["token"])
    assert with_token.get("/api/v1/me").body["username"] == "alice"
    assert with_token.post("/api/v1/auth/logout").status == 204
    reply = with_token.get("/api/v1/me")
    assert reply.status == 401 and reply.error_code == "not_authenticated"
    assert not Token.objects.filter(user=alice).exists()


def test_tokens_expire(api, bare_api, alice, settings):
    settings.API_TOKEN_TTL_SECONDS = 3600
    key = api().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD}).body["token"]
    Token.objects.filter(key=key).update(created=timezone.now() - dt.timedelta(seconds=3601))
    reply = bare_api(token=key).get("/api/v1/me")
    assert reply.status == 401 and reply.error_code == "not_authenticated"
    assert "expired" in reply.body["error"]["message"]
    assert not Token.objects.filter(key=key).exists()
    fresh = api().post("/api/v1/auth/token", {"username": "alice", "password": PASSWORD}).body["token"]
    assert fresh != key
    assert bare_api(token=fresh).get("/api/v1/me").body["username"] == "alice"


def test_the_play_services_import_in_a_fresh_process():
    code = ("import django; django.setup(); from api.play.attempts import services; "
            "from api.play.rest import auth, views, errors; print('ok')")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "api.settings"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=django_settings.BASE_DIR, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


# -- a session read with its user ------------------------------------------------------


def test_a_session_row_names_its_user_and_django_still_decides_on_the_user_read_with_it(
        as_alice, alice, bob):
    from django.contrib.auth.hashers import make_password

    assert _session_of(as_alice).user_id == alice.pk
    assert as_alice.get("/api/v1/me").body["username"] == "alice"
    # A row naming another user does not make the session theirs: the data decides.
    Session.objects.filter(pk=_session_of(as_alice).pk).update(user=bob)
    assert as_alice.get("/api/v1/me").body["username"] == "alice"
    # A row naming nobody (made before the column): the user is read apart.
    Session.objects.filter(pk=_session_of(as_alice).pk).update(user=None)
    assert as_alice.get("/api/v1/me").body["username"] == "alice"
    # A new password set elsewhere ends the session made with the old one.
    User.objects.filter(pk=alice.pk).update(password=make_password("another long passphrase"))
    after = as_alice.get("/api/v1/me").body
    assert after["username"] != "alice" and after["is_guest"], after


def test_a_deactivated_user_s_session_reads_as_nobody(as_alice, alice):
    assert as_alice.get("/api/v1/me").body["username"] == "alice"
    User.objects.filter(pk=alice.pk).update(is_active=False)
    after = as_alice.get("/api/v1/me").body
    assert after["username"] != "alice" and after["is_guest"], after


def test_the_user_read_with_a_session_serves_that_request_only(alice, password):
    from django.test import Client

    from api import sessions

    client = Client()
    assert client.post("/api/v1/auth/login", {"username": "alice", "password": password},
                       content_type="application/json").status_code == 200
    assert client.get("/api/v1/me").json()["username"] == "alice"
    assert sessions._users_read.get() is None  # cleared as the response left
    assert sessions.user_read_with_session(alice.pk) is None


def test_deleting_a_user_deletes_its_sessions(as_alice, alice):
    key = _session_of(as_alice).pk
    alice.delete()
    assert not Session.objects.filter(pk=key).exists()


def test_the_migration_keeps_djangos_sessions_with_their_user(transactional_db, alice):
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session as DjangoSession

    executor = MigrationExecutor(connection)
    executor.migrate([("play", "0008_attempt_analysis")])
    try:
        logged = DjangoStore()
        logged.update({"_auth_user_id": str(alice.pk), "x": 1})
        logged.create()
        guestless = DjangoStore()
        guestless["y"] = 2
        guestless.create()
        gone = DjangoStore()
        gone["z"] = 3
        gone.create()
        DjangoSession.objects.filter(pk=gone.session_key).update(expire_date=timezone.now() - DAY)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes("play"))
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    copied = {s.session_key: s for s in Session.objects.all()}
    assert copied[logged.session_key].user_id == alice.pk
    assert copied[guestless.session_key].user_id is None
    assert gone.session_key not in copied
    assert not DjangoSession.objects.exists()  # one home: play_session
    assert SessionStore(session_key=logged.session_key).load() == {
        "_auth_user_id": str(alice.pk), "x": 1}
