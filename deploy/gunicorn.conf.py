"""gunicorn settings for the web tier: `gunicorn -c deploy/gunicorn.conf.py api.wsgi`.

Each value can be changed through the environment without rebuilding the image.
"""

import multiprocessing
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# Requests are short: a move is about two round trips to PostgreSQL and one
# to Redis around CPU work that holds the GIL. One process per core uses the
# cores; a few threads each overlap the waits. More processes than cores
# only add switching (BENCHMARKS.md, "Service": 1, 2 and 4 workers).
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
# Each worker listens on its own socket (SO_REUSEPORT), so the kernel spreads
# new connections evenly; on one shared socket, one worker can take nearly
# every keep-alive connection and leave the other cores idle. SO_REUSEPORT
# would also let a second gunicorn bind the same port and silently share its
# traffic: on_starting refuses to start when the port is taken.
reuse_port = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then, staggered, so no slow leak builds up; a
# restart costs about 1.5 s of CPU, so at hundreds of moves a second not
# every few seconds.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "200000"))
max_requests_jitter = max_requests // 10
# Heartbeat files in memory: container file systems can stall on fsync.
worker_tmp_dir = "/dev/shm"
# No control socket (gunicorn 27's `gunicornc`): its default place is under
# the working directory, which the app's user cannot write in the image.
control_socket_disable = True
# Trust X-Forwarded-* only from the proxy in front (FORWARDED_ALLOW_IPS).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# One line per request on stdout; GUNICORN_ACCESS_LOG="" turns it off where the
# proxy in front keeps the access log (it costs gunicorn a third of its own
# CPU per request: BENCHMARKS.md, "Service").
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

# Prometheus metrics from every worker (api.metrics): each process writes its
# values into this folder and /metrics adds them up. Emptied at each start,
# and a dead worker's live gauges are dropped. One folder per server: by
# default named by its port (on_starting refuses a port already served), so
# two servers on one host neither mix nor empty each other's values.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR",
                      f"/dev/shm/solitaire-metrics-{os.environ.get('PORT', '8000')}")


# Metrics on their own port, served by the master from every worker's
# values (api.metrics), never on the application's port. 0: not served.
# The address is the loopback unless set (compose sets 0.0.0.0 inside the
# container and publishes nothing, so only the scraper on its network reads it).
metrics_address = os.environ.get("METRICS_ADDRESS", "127.0.0.1")
metrics_port = int(os.environ.get("METRICS_PORT", "9100"))


def _port_taken(address: str) -> str | None:
    """Why ``host:port`` cannot be ours alone (None: it is free). Bound
    without SO_REUSEPORT, so a listener that has it still counts."""
    import socket

    host, _, port = address.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, int(port)))
    except OSError as error:
        return str(error)
    finally:
        probe.close()
    return None


def on_starting(server):
    import shutil

    # A re-executed master (USR2) or systemd socket activation is handed its
    # sockets: they are taken by design.
    if not os.environ.get("GUNICORN_FD") and not os.environ.get("LISTEN_FDS"):
        for address in server.cfg.address:
            if isinstance(address, tuple):
                why = _port_taken(f"{address[0]}:{address[1]}")
                if why:
                    raise RuntimeError(
                        f"{address[0]}:{address[1]} is in use ({why}): another server "
                        "listens there; stop it first (with SO_REUSEPORT both would "
                        "silently share its connections)")
    folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder, exist_ok=True)


def when_ready(server):
    if metrics_port:
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_http_server(metrics_port, addr=metrics_address, registry=registry)
        server.log.info("Metrics on http://%s:%s/metrics", metrics_address, metrics_port)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
