"""api.env: settings read from the environment fail loudly on bad values."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from api.env import (
    env_bool,
    env_database_url,
    env_float,
    env_int,
    env_list,
    env_secret,
    env_str,
    env_time_zone,
    parse_database_url,
)


def test_a_missing_required_string_is_an_error_that_names_it():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is required"):
        env_str("SECRET_KEY", environ={})


def test_a_blank_value_counts_as_missing():
    assert env_str("NAME", "default", environ={"NAME": "   "}) == "default"


@pytest.mark.parametrize(("text", "value"), [("1", True), ("TRUE", True), ("on", True), ("no", False), ("0", False)])
def test_booleans_are_read_in_their_usual_spellings(text, value):
    assert env_bool("DEBUG", not value, environ={"DEBUG": text}) is value


def test_a_boolean_that_is_not_one_is_an_error():
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        env_bool("DEBUG", True, environ={"DEBUG": "maybe"})


def test_numbers_are_checked_for_form_and_range():
    assert env_int("N", 3, environ={"N": "1_000"}) == 1000
    with pytest.raises(ImproperlyConfigured, match="N='ten' is not a whole number"):
        env_int("N", 3, environ={"N": "ten"})
    with pytest.raises(ImproperlyConfigured, match="below the minimum 1"):
        env_int("N", 3, minimum=1, environ={"N": "0"})
    with pytest.raises(ImproperlyConfigured, match="S='fast' is not a number"):
        env_float("S", 1.0, environ={"S": "fast"})
    with pytest.raises(ImproperlyConfigured, match="not a finite number"):
        env_float("S", 1.0, environ={"S": "nan"})


def test_lists_are_comma_separated():
    assert env_list("HOSTS", environ={"HOSTS": "a.example, b.example,,"}) == ["a.example", "b.example"]
    assert env_list("HOSTS", ["x"], environ={}) == ["x"]


def test_an_unknown_time_zone_is_an_error():
    assert env_time_zone("TZ", "Europe/Lisbon", environ={}) == "Europe/Lisbon"
    with pytest.raises(ImproperlyConfigured, match="'Europe/Lisboa' is not a known IANA time zone"):
        env_time_zone("TZ", "Europe/Lisbon", environ={"TZ": "Europe/Lisboa"})


def test_a_postgres_url_gives_every_connection_setting():
    config = parse_database_url(
        "postgres://deal%40s:p%3Ass@db.internal:6543/solitaire?sslmode=require&conn_max_age=30"
    )
    assert config == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "solitaire",
        "USER": "deal@s",
        "PASSWORD": "p:ss",
        "HOST": "db.internal",
        "PORT": "6543",
        "CONN_MAX_AGE": 30,
        "OPTIONS": {"sslmode": "require"},
    }


def test_a_postgres_url_without_password_or_port_is_fine():
    config = parse_database_url("postgresql://root@127.0.0.1/postgres")
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == ("root", "", "127.0.0.1", "")


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("sqlite:///db.sqlite3", "db.sqlite3"),
        ("sqlite:////var/lib/app/db.sqlite3", "/var/lib/app/db.sqlite3"),
        ("sqlite://:memory:", ":memory:"),
    ],
)
def test_sqlite_urls_name_a_file_or_memory(url, name):
    assert parse_database_url(url) == {"ENGINE": "django.db.backends.sqlite3", "NAME": name}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/app", "scheme 'mysql'"),
        ("postgres://root:secret@localhost/", "must name one database"),
        ("postgres://root@localhost:port/app", "port that is not a number"),
        ("sqlite://somehost/db", "has no host"),
        ("not a url", "scheme ''"),
    ],
)
def test_a_bad_database_url_is_an_error_that_says_what_is_wrong(url, message):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL is not a usable database URL") as error:
        env_database_url("DATABASE_URL", environ={"DATABASE_URL": url})
    assert message in str(error.value)
    assert "secret" not in str(error.value)


def test_a_secret_comes_from_its_variable_or_from_the_file_named_by_name_file(tmp_path):
    secret_file = tmp_path / "secret_key"
    secret_file.write_text("from-a-file\n")

    assert env_secret("SECRET_KEY", environ={"SECRET_KEY": "from-the-variable"}) == "from-the-variable"
    assert env_secret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(secret_file)}) == "from-a-file"
    assert env_secret("SECRET_KEY", "laptop", environ={}) == "laptop"


def test_a_secret_given_both_ways_is_an_error(tmp_path):
    secret_file = tmp_path / "secret_key"
    secret_file.write_text("one")
    with pytest.raises(ImproperlyConfigured, match="Both SECRET_KEY and SECRET_KEY_FILE are set"):
        env_secret("SECRET_KEY", environ={"SECRET_KEY": "two", "SECRET_KEY_FILE": str(secret_file)})


def test_a_secret_file_that_is_missing_or_empty_is_an_error(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE='.*/absent' cannot be read"):
        env_secret("SECRET_KEY", environ={"SECRET_KEY_FILE": str(tmp_path / "absent")})
    (tmp_path / "empty").write_text(" \n")
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE='.*/empty' is an empty file"):
        env_secret("SECRET_KEY", "laptop", environ={"SECRET_KEY_FILE": str(tmp_path / "empty")})


def test_a_required_secret_names_both_ways_to_give_it():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is required .* SECRET_KEY_FILE"):
        env_secret("SECRET_KEY", environ={})
