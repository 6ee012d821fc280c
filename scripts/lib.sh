# Shared by scripts/serve and scripts/test (sourced, not run).

# The virtual environment in .venv, with the project installed editable and
# its dev extras. Reinstalled when pyproject.toml, setup.py or a C source of
# the solver changes (the install compiles them), or when the set of top-level
# packages changes (an editable install only maps the packages it saw).
ensure_venv() {
    local python=${PYTHON:-python3}
    if [ ! -x .venv/bin/python ]; then
        echo "Creating .venv with $("$python" --version 2>&1)"
        "$python" -m venv .venv
    fi
    local stamp
    stamp=$({ cat pyproject.toml setup.py solitaire/solver/*.c solitaire/solver/*_c/* 2>/dev/null; ls -d -- */__init__.py 2>/dev/null; } | sha256sum | cut -c1-16)
    if [ "$(cat .venv/.installed 2>/dev/null)" != "$stamp" ]; then
        echo "Installing the project and its dev extras into .venv"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
        echo "$stamp" > .venv/.installed
    fi
    export VIRTUAL_ENV="$PWD/.venv"
    export PATH="$VIRTUAL_ENV/bin:$PATH"
}

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq "$seconds"); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 1
    done
    echo "$what did not come up within ${seconds}s" >&2
    return 1
}

# PostgreSQL on 127.0.0.1:5432, started with the machine's cluster if down.
ensure_postgres() {
    if ! pg_isready -q -h 127.0.0.1 -p 5432; then
        echo "Starting PostgreSQL"
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
    fi
    wait_for 30 "PostgreSQL" pg_isready -q -h 127.0.0.1 -p 5432
}

# Redis on 127.0.0.1:6379, started (keeping nothing on disk) if down.
ensure_redis() {
    if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        echo "Starting Redis"
        redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    fi
    wait_for 30 "Redis" redis-cli -h 127.0.0.1 -p 6379 ping
}
