"""Public reads on a real PostgreSQL streaming replica (api.replica): a
primary on 127.0.0.1:5440 and a standby made from it with pg_basebackup
and a replication slot on 5441, both of the test's own. Reads marked public
go to the replica; writes, reads in a transaction and everything else to the
primary; past the lag bound (replay paused) or with the replica stopped,
public reads go to the primary, and come back once it has caught up."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from waiting import wait_until

# Two PostgreSQL servers of its own, alone on the machine.
pytestmark = [pytest.mark.production, pytest.mark.serial]

ROOT = Path(__file__).resolve().parents[2]
BIN = Path("/usr/lib/postgresql/15/bin")
PRIMARY, STANDBY = 5440, 5441


def as_postgres(*args) -> None:
    result = subprocess.run(["runuser", "-u", "postgres", "--", *map(str, args)],
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr


def sql(port: int, statement: str, dbname: str = "postgres"):
    with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname=dbname,
                         autocommit=True, connect_timeout=5) as connection:
        cursor = connection.execute(statement)
        return cursor.fetchall() if cursor.description else None


@pytest.fixture(scope="module")
def streaming_replica():
    if not (BIN / "initdb").exists():
        pytest.fail(f"needs PostgreSQL 15's binaries in {BIN}")
    base = Path(tempfile.mkdtemp(prefix="solitaire-replica-"))
    owner = pwd.getpwnam("postgres")
    os.chown(base, owner.pw_uid, owner.pw_gid)
    primary, standby = base / "primary", base / "standby"
    started = []
    try:
        as_postgres(BIN / "initdb", "-D", primary, "-U", "postgres", "--auth=trust",
                    "-E", "UTF8", "--locale=C")
        with (primary / "postgresql.conf").open("a") as conf:
            conf.write(f"port = {PRIMARY}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{base}'\nwal_level = replica\n"
                       "max_wal_senders = 4\nmax_replication_slots = 4\nfsync = off\n"
                       "shared_buffers = 32MB\n")
        as_postgres(BIN / "pg_ctl", "-D", primary, "-l", base / "primary.log", "-w", "start")
        started.append(primary)
        sql(PRIMARY, "CREATE DATABASE solitaire")
        sql(PRIMARY, "SELECT pg_create_physical_replication_slot('standby')")
        as_postgres(BIN / "pg_basebackup", "-h", "127.0.0.1", "-p", PRIMARY, "-U", "postgres",
                    "-D", standby, "-R", "-S", "standby", "-X", "stream")
        with (standby / "postgresql.conf").open("a") as conf:
            conf.write(f"port = {STANDBY}\n")
        as_postgres(BIN / "pg_ctl", "-D", standby, "-l", base / "standby.log", "-w", "start")
        started.append(standby)
        env = {**os.environ, "DEBUG": "true",
               "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PRIMARY}/solitaire"}
        migrated = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=600)
        assert migrated.returncode == 0, migrated.stderr
        yield {"standby": standby, "base": base}
    finally:
        for data in started:
            subprocess.run(["runuser", "-u", "postgres", "--", str(BIN / "pg_ctl"), "-D", str(data),
                            "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


# A process of the application against both: each line on its stdin is an
# expression, answered with its value as JSON (a web process living through
# the replica's troubles).
SCRIPT = """
import json, sys
from django.contrib.auth.models import Group
from django.db import transaction
from prometheus_client import REGISTRY
from api.replica import STATE, public_alias, public_reads

def where():
    STATE.check_now()
    with public_reads():
        return public_alias()

def lag():
    return REGISTRY.get_sample_value("solitaire_replica_lag_seconds")

def write(name):
    Group.objects.create(name=name)
    return True

def public_read(name):
    with public_reads():
        found = Group.objects.filter(name=name)
        return [found.db, found.exists()]

def in_transaction():
    with transaction.atomic(), public_reads():
        return Group.objects.all().db

def private_read():
    return Group.objects.all().db

for line in sys.stdin:
    print(json.dumps(eval(line)), flush=True)
"""


class App:
    def __init__(self):
        env = {**os.environ, "DEBUG": "true",
               "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PRIMARY}/solitaire",
               "DATABASE_REPLICA_URL": f"postgres://postgres@127.0.0.1:{STANDBY}/solitaire",
               "DATABASE_REPLICA_MAX_LAG_SECONDS": "1", "DATABASE_CONNECT_TIMEOUT": "2"}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", SCRIPT], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, expression: str):
        self.process.stdin.write(expression + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"the app process ended at {expression}"
        return json.loads(line)

    def until(self, expression: str, expected, *, seconds: float = 60):
        seen = []
        wait_until(lambda: seen.append(self(expression)) or seen[-1] == expected,
                   seconds=seconds, every=0.2,
                   explain=lambda: f"{expression} is still {seen[-1]!r}")


def test_public_reads_go_to_the_replica_while_it_keeps_up_and_to_the_primary_otherwise(
        streaming_replica):
    app = App()
    try:
        assert app("where()") == "replica" and app("lag()") == 0.0
        # A write on the primary reaches the replica's public reads by streaming.
        assert app("write('first')")
        app.until("public_read('first')", ["replica", True], seconds=30)
        # Never the replica: inside a transaction, or outside public_reads().
        assert app("in_transaction()") == "default"
        assert app("private_read()") == "default"

        # An idle primary: the replica is not behind, however old its last replay.
        time.sleep(3)
        assert app("where()") == "replica" and app("lag()") == 0.0

        # Replay paused while the primary writes: past the bound, the primary serves.
        sql(STANDBY, "SELECT pg_wal_replay_pause()")
        for n in range(8):
            app(f"write('behind-{n}')")
            app("where()")
            time.sleep(0.25)
        app.until("where()", "default", seconds=10)
        assert app("lag()") > 1
        assert app("public_read('behind-7')") == ["default", True]
        sql(STANDBY, "SELECT pg_wal_replay_resume()")
        app.until("where()", "replica", seconds=30)
        assert app("public_read('behind-7')") == ["replica", True]

        # The replica stopped: the primary serves public reads at once.
        as_postgres(BIN / "pg_ctl", "-D", streaming_replica["standby"], "-m", "immediate", "stop")
        started = time.monotonic()
        assert app("where()") == "default"
        assert time.monotonic() - started < 5
        assert app("lag()") == float("inf")
        assert app("public_read('first')") == ["default", True]
        app("write('while-down')")

        # Started again: it catches up from its slot and serves again.
        as_postgres(BIN / "pg_ctl", "-D", streaming_replica["standby"], "-l",
                    streaming_replica["base"] / "standby.log", "-w", "start")
        app.until("where()", "replica", seconds=60)
        app.until("public_read('while-down')", ["replica", True], seconds=30)
    finally:
        app.process.kill()
        app.process.wait(timeout=30)
