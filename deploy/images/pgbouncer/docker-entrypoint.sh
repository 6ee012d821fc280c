#!/bin/bash
# PgBouncer in transaction pooling in front of one PostgreSQL database.
#   DATABASE_HOST, DATABASE_PORT (5432), DATABASE_NAME, DATABASE_USER: the server
#   DATABASE_PASSWORD_FILE: the user's password (a compose secret), read as
#     root, written to the user list that only "postgres" reads
#   POOL_SIZE (20): server connections per database and user, the cap on
#     what every web, worker and beat process together open
#   MAX_CLIENT_CONN (2000): client connections accepted
set -euo pipefail

if [ "$1" = pgbouncer ] && [ "$(id -u)" = 0 ]; then
    password="$(< "$DATABASE_PASSWORD_FILE")"
    umask 077
    printf '"%s" "%s"\n' "$DATABASE_USER" "$password" > /etc/pgbouncer/userlist.txt
    cat > /etc/pgbouncer/pgbouncer.ini <<INI
[databases]
${DATABASE_NAME} = host=${DATABASE_HOST} port=${DATABASE_PORT:-5432} dbname=${DATABASE_NAME}

[pgbouncer]
listen_addr = *
listen_port = 6432
unix_socket_dir = /var/run/postgresql
auth_type = scram-sha-256
auth_file = /etc/pgbouncer/userlist.txt
admin_users = ${DATABASE_USER}
stats_users = ${DATABASE_USER}
pool_mode = transaction
default_pool_size = ${POOL_SIZE:-20}
max_client_conn = ${MAX_CLIENT_CONN:-2000}
; A client waits this long for a server connection, then gets an error
; (the application answers 503 unavailable): never a hang.
query_wait_timeout = ${QUERY_WAIT_TIMEOUT:-10}
server_connect_timeout = 5
server_login_retry = 1
ignore_startup_parameters = extra_float_digits
logfile =
log_connections = 0
log_disconnections = 0
INI
    chown postgres:postgres /etc/pgbouncer/userlist.txt /etc/pgbouncer/pgbouncer.ini
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

exec "$@"
