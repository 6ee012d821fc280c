#!/bin/bash
# A PostgreSQL streaming replica of PRIMARY_HOST, by PostgreSQL's own means:
# on first start (an empty PGDATA) pg_basebackup copies the primary and
# writes primary_conninfo and primary_slot_name (-R), creating the
# replication slot REPLICATION_SLOT if the primary has none yet (the slot
# keeps the WAL the replica has not received, so it catches up after a
# stop). Then the server runs as a hot standby, read-only.
#   PRIMARY_HOST, POSTGRES_USER, POSTGRES_PASSWORD_FILE, REPLICATION_SLOT, PGDATA
# The password reaches libpq (pg_basebackup, the WAL receiver) through a
# password file outside the data directory, written at each start.
set -euo pipefail
export PGPASSFILE=/var/lib/postgresql/.pgpass

if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" /var/run/postgresql
    chown postgres:postgres "$PGDATA" /var/run/postgresql
    chmod 700 "$PGDATA"
    umask 077
    printf '%s:*:*:%s:%s\n' "$PRIMARY_HOST" "$POSTGRES_USER" "$(< "$POSTGRES_PASSWORD_FILE")" > "$PGPASSFILE"
    chown postgres:postgres "$PGPASSFILE"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready -q -h "$PRIMARY_HOST" -U "$POSTGRES_USER" -d postgres; do
        echo "waiting for the primary $PRIMARY_HOST"
        sleep 1
    done
    slot=$(psql -h "$PRIMARY_HOST" -U "$POSTGRES_USER" -d postgres -tAc \
        "select 1 from pg_replication_slots where slot_name = '$REPLICATION_SLOT'")
    create=(--create-slot)
    [ "$slot" = 1 ] && create=()
    pg_basebackup -h "$PRIMARY_HOST" -U "$POSTGRES_USER" -D "$PGDATA" \
        --wal-method=stream --write-recovery-conf --slot="$REPLICATION_SLOT" "${create[@]}"
    echo "base backup of $PRIMARY_HOST taken; streaming from slot $REPLICATION_SLOT"
fi
exec "$@"
