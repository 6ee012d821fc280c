"""The tables emptied after each test that commits (a live server's test, a
transactional one): one DELETE a table in one transaction, instead of
Django's flush. On PostgreSQL the flush is a TRUNCATE of every table, which
writes new files for each (about a second a test on a busy machine), and
then its post_migrate signal creates every content type and permission
again. Here the content types and permissions the migrations made stay;
those a test added go. What a test sees is the same: empty tables, but for
the rows the migrations' signals make.

tests/conftest.py installs it once the test database exists."""

from __future__ import annotations

# Filled by migrate's post_migrate signal, which the flush sends again.
KEPT = ("django_content_type", "auth_permission")


def empty_tables(connection, kept_ids: dict[str, int]) -> None:
    """Every table of the project's models emptied, but the rows of KEPT up
    to ``kept_ids`` (each table's largest id after migrate)."""
    from django.db import transaction

    quote = connection.ops.quote_name
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        # Foreign keys are checked at commit, when the rows they point to are gone too.
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in sorted(tables):
            if table in kept_ids:
                cursor.execute(f"DELETE FROM {quote(table)} WHERE id > %s", [kept_ids[table]])
            else:
                cursor.execute(f"DELETE FROM {quote(table)}")


def largest_ids(connection) -> dict[str, int]:
    with connection.cursor() as cursor:
        found = {}
        for table in KEPT:
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {connection.ops.quote_name(table)}")
            found[table] = cursor.fetchone()[0]
        return found


def install() -> None:
    """TransactionTestCase's teardown empties the tables with empty_tables
    (what to keep read before the first such test); a test that asks for
    more of it (serialized rollback, a subset of the apps, fixtures) keeps
    Django's flush."""
    from django.db import connections
    from django.test import TransactionTestCase

    setup = TransactionTestCase._fixture_setup.__func__  # a classmethod
    flush = TransactionTestCase._fixture_teardown
    kept: dict[str, dict[str, int]] = {}

    def flushed(test) -> bool:
        return test.available_apps is not None or test.serialized_rollback or bool(test.fixtures)

    def _fixture_setup(cls):
        for alias in cls._databases_names(include_mirrors=False):
            if alias not in kept:
                kept[alias] = largest_ids(connections[alias])
        return setup(cls)

    def _fixture_teardown(self):
        if flushed(self):
            return flush(self)
        for alias in self._databases_names(include_mirrors=False):
            empty_tables(connections[alias], kept[alias])

    TransactionTestCase._fixture_setup = classmethod(_fixture_setup)
    TransactionTestCase._fixture_teardown = _fixture_teardown
