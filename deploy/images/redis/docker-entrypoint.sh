#!/bin/sh
# As the official redis image's entrypoint: `redis-server` (or its flags
# alone) runs as the redis user, with protected mode off unless a
# configuration file is given.
set -eu

if [ "${1#-}" != "$1" ] || [ "${1%.conf}" != "$1" ]; then
    set -- redis-server "$@"
fi

if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
    chown -R redis:redis .
    exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi

if [ "$1" = redis-server ]; then
    shift
    if [ -f "${1:-}" ]; then
        config=$1
        shift
        exec redis-server "$config" "$@"
    fi
    exec redis-server --protected-mode no "$@"
fi

exec "$@"
