#!/bin/bash
# As the official postgres image's entrypoint, for what compose uses:
# POSTGRES_USER (default postgres), POSTGRES_DB (default the user),
# POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE (required), PGDATA.
set -euo pipefail

if [ "${1#-}" != "$1" ]; then
    set -- postgres "$@"
fi

# NAME_FILE=/run/secrets/... gives NAME from a file (compose secrets).
file_env() {
    local name=$1 file_name="${1}_FILE"
    if [ -n "${!name:-}" ] && [ -n "${!file_name:-}" ]; then
        echo "error: both $name and $file_name are set (only one may be)" >&2
        exit 1
    fi
    if [ -n "${!file_name:-}" ]; then
        export "$name"="$(< "${!file_name}")"
        unset "$file_name"
    fi
}

if [ "$1" = postgres ]; then
    if [ "$(id -u)" = 0 ]; then
        mkdir -p "$PGDATA" /var/run/postgresql
        chown postgres:postgres "$PGDATA" /var/run/postgresql
        chmod 700 "$PGDATA"
        # The secret is read here, as root, before the server drops to postgres.
        file_env POSTGRES_PASSWORD
        exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
    fi
    file_env POSTGRES_PASSWORD
    export POSTGRES_USER="${POSTGRES_USER:-postgres}"
    export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"

    if [ ! -s "$PGDATA/PG_VERSION" ]; then
        if [ -z "${POSTGRES_PASSWORD:-}" ]; then
            echo "error: the database is not initialized and POSTGRES_PASSWORD is not set" >&2
            exit 1
        fi
        pwfile=$(mktemp)
        printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
        initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
            --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
        rm -f "$pwfile"
        printf '\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
        printf "\nlisten_addresses = '*'\n" >> "$PGDATA/postgresql.auto.conf"
        if [ "$POSTGRES_DB" != postgres ]; then
            # On the socket only while the database is made.
            pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
            createdb --username="$POSTGRES_USER" "$POSTGRES_DB"
            pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
        fi
        echo "PostgreSQL init process complete; ready for start up."
    fi
    unset POSTGRES_PASSWORD
fi

exec "$@"
