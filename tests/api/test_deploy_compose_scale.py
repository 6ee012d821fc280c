"""deploy/compose.scale.yaml, on top of deploy/compose.yaml, scales the stack
out on each engine's own machinery: web replicas behind the one proxy,
PgBouncer in transaction pooling, a streaming replica, Redis watched by
three Sentinels with nothing evicted, and beat exactly once."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BASE = DEPLOY / "compose.yaml"
SCALE = DEPLOY / "compose.scale.yaml"
README = DEPLOY.parent / "README.md"
APP_SERVICES = ("migrate", "web", "worker", "beat")


def _scale() -> dict:
    return yaml.safe_load(SCALE.read_text())


def _merged_services() -> dict:
    """Each service's keys, the override's over the base's (as compose merges
    them, for the keys these tests read)."""
    base, scale = yaml.safe_load(BASE.read_text())["services"], _scale()["services"]
    merged = {}
    for name in base.keys() | scale.keys():
        service = {**base.get(name, {}), **scale.get(name, {})}
        for key in ("environment", "depends_on"):
            service[key] = {**base.get(name, {}).get(key, {}), **scale.get(name, {}).get(key, {})}
        merged[name] = service
    return merged


def _readme_command() -> str:
    """The scaled stack's command as README writes it (continuation lines joined)."""
    text = README.read_text().replace("\\\n", " ")
    commands = [line for line in text.splitlines() if "compose.scale.yaml" in line and " up " in line]
    assert commands, "README gives no command bringing the scaled stack up"
    return re.sub(r"\s+", " ", commands[0])


def test_the_readme_brings_it_up_with_one_command_web_x3_workers_x2():
    command = _readme_command()

    assert "-f deploy/compose.yaml -f deploy/compose.scale.yaml" in command
    assert "--scale web=3" in command and "--scale worker=2" in command
    assert "beat=" not in command


def test_web_replicas_publish_no_port_only_the_proxy_does():
    services = _merged_services()

    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    # A fixed name or address would stop `--scale web=3`.
    assert "container_name" not in services["web"]
    assert "networks" not in services["web"]


def test_beat_runs_exactly_once():
    services = _merged_services()

    beat = services["beat"]
    assert "deploy" not in beat and "scale" not in beat
    assert [name for name, s in services.items() if "beat" in str(s.get("command", ""))] == ["beat"]


def test_every_django_process_reaches_postgresql_through_pgbouncer_in_transaction_pooling():
    services = _merged_services()
    entrypoint = (DEPLOY / "images" / "pgbouncer" / "docker-entrypoint.sh").read_text()

    for name in APP_SERVICES:
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://solitaire@pgbouncer:6432/"), name
        assert environment["DATABASE_TRANSACTION_POOLING"] == "true", name
        # Debian bookworm's PgBouncer 1.18 cannot carry prepared statements.
        assert environment["DATABASE_PREPARED_STATEMENTS"] == "false", name
        # Sessions (migrations, beat's lock) go straight to the primary.
        assert environment["DATABASE_DIRECT_URL"].startswith("postgres://solitaire@postgres:5432/"), name
    assert "pool_mode = transaction" in entrypoint
    assert services["pgbouncer"]["build"]["context"] == "images/pgbouncer"
    assert "ports" not in services["pgbouncer"]


def test_public_reads_have_a_streaming_replica_from_a_replication_slot():
    services = _merged_services()
    replica = services["postgres-replica"]
    entrypoint = (DEPLOY / "postgres" / "replica-entrypoint.sh").read_text()
    hba = (DEPLOY / "postgres" / "pg_hba.conf").read_text()

    for name in APP_SERVICES:
        assert services[name]["environment"]["DATABASE_REPLICA_URL"].startswith(
            "postgres://solitaire@postgres-replica:5432/"), name
    assert replica["environment"]["PRIMARY_HOST"] == "postgres"
    assert replica["environment"]["REPLICATION_SLOT"]
    # PostgreSQL's own machinery: a base backup that writes primary_conninfo
    # and the slot (-R), then a hot standby.
    assert "pg_basebackup" in entrypoint and "--write-recovery-conf" in entrypoint
    assert '--slot="$REPLICATION_SLOT"' in entrypoint
    assert re.search(r"^host replication all all scram-sha-256$", hba, re.M)
    assert "hba_file=/etc/postgresql-solitaire/pg_hba.conf" in services["postgres"]["command"]


def test_redis_is_a_master_and_two_replicas_with_nothing_evicted():
    services = _merged_services()
    nodes = {name: s for name, s in services.items() if re.fullmatch(r"redis(-\d)?", name)}

    assert sorted(nodes) == ["redis", "redis-2", "redis-3"]
    for name, node in nodes.items():
        command = node["command"]
        # The broker's queue must never be evicted.
        assert command[command.index("--maxmemory-policy") + 1] == "noeviction", name
        assert command[command.index("--replica-announce-ip") + 1] == name, name
    replicas = [name for name, node in nodes.items() if "--replicaof" in node["command"]]
    assert sorted(replicas) == ["redis-2", "redis-3"]


def test_three_sentinels_with_a_quorum_of_two_and_the_clients_find_the_master_through_them():
    services = _merged_services()
    sentinels = sorted(name for name in services if name.startswith("sentinel-"))

    assert sentinels == ["sentinel-1", "sentinel-2", "sentinel-3"]
    for name in sentinels:
        script = " ".join(services[name]["command"])
        assert "sentinel monitor solitaire redis 6379 2" in script, name
        assert "--sentinel" in script, name
        assert services[name]["environment"]["SENTINEL_NAME"] == name
    for name in APP_SERVICES:
        environment = services[name]["environment"]
        assert environment["REDIS_SENTINEL_MASTER"] == "solitaire"
        for variable, db in (("CELERY_BROKER_URL", 0), ("CACHE_URL", 1)):
            urls = environment[variable].split(";")
            assert urls == [f"sentinel://{s}:26379/{db}" for s in sentinels], (name, variable)
