"""Prometheus metrics (prometheus_client), served at ``/metrics``.

- ``solitaire_http_request_duration_seconds{view,method,status}``: latency
  per endpoint (the URL pattern's name), a histogram (count = requests).
- ``solitaire_moves_total{game}``: validated moves applied (rate = moves/s).
- ``solitaire_hints_total{game,source}``: hints answered from the ``cache``,
  by the ``solver``, or refused as ``busy`` (503).
- ``solitaire_solver_seconds{game,kind}``: solver time of a ``hint`` or of a
  deal's ``verify``.
- ``solitaire_analyses_total{game,verdict}``, ``solitaire_analysis_seconds{game}``
  and ``solitaire_analysis_solver_calls_total{game,source}`` (``solver`` or
  ``table``): the analyses of finished attempts, what each took, and where
  its positions' answers came from.
- ``solitaire_replica_lag_seconds`` and ``solitaire_db_public_reads_total{target}``
  (``replica`` or ``primary``): api.replica.
- ``solitaire_deal_verifications_total{game,outcome}``: each candidate's
  verification: ``solved``, ``unsolvable``, ``unknown`` (budget spent) or
  ``bad_certificate``.

Under gunicorn every worker is a process: with ``PROMETHEUS_MULTIPROC_DIR``
set (an empty folder, emptied at each start: deploy/gunicorn.conf.py does
both) each process writes its values there and ``/metrics`` adds them up.
Without it, ``/metrics`` shows the one process that answers. A process
started with it naming a folder not made yet (a management command beside
the server) makes the folder rather than fail at its first metric.

Who may read them: under gunicorn its master serves them on a port of their
own (METRICS_PORT, deploy/gunicorn.conf.py), never the application's; the
application's ``/metrics`` answers only the socket addresses in
METRICS_ALLOWED_ADDRESSES (loopback on a laptop, nobody by default in
production), 404 to anyone else."""

from __future__ import annotations

import ipaddress
import os
import socket
import time

from django.conf import settings
from django.http import Http404, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

REQUEST_SECONDS = Histogram(
    "solitaire_http_request_duration_seconds", "Request latency per endpoint",
    ["view", "method", "status"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter("solitaire_moves_total", "Validated moves applied", ["game"])
HINTS = Counter("solitaire_hints_total", "Hints by where the answer came from",
                ["game", "source"])
SOLVER_SECONDS = Histogram(
    "solitaire_solver_seconds", "Solver time", ["game", "kind"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 60),
)
ANALYSES = Counter(
    "solitaire_analyses_total", "Attempts analysed, by verdict", ["game", "verdict"])
ANALYSIS_SECONDS = Histogram(
    "solitaire_analysis_seconds", "Time to analyse one attempt", ["game"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60),
)
ANALYSIS_SOLVER_CALLS = Counter(
    "solitaire_analysis_solver_calls_total",
    "Positions an analysis asked of the solver, or found decided in the table",
    ["game", "source"])
DEAL_VERIFICATIONS = Counter(
    "solitaire_deal_verifications_total", "Deal verifications by outcome", ["game", "outcome"])
# api.replica: the replica's lag as each process last measured it (+Inf:
# unreachable), and public reads by the database that served them.
REPLICA_LAG = Gauge("solitaire_replica_lag_seconds", "Replica lag behind the primary",
                    multiprocess_mode="livemax")
PUBLIC_READS = Counter("solitaire_db_public_reads_total", "Public reads by database", ["target"])


class MetricsMiddleware:
    """Times every request by the name of the URL pattern it matched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        view = (match.view_name if match else "") or "unmatched"
        REQUEST_SECONDS.labels(view, request.method, str(response.status_code)).observe(
            time.perf_counter() - start)
        if settings.SERVED_BY_HEADER:  # which of several web replicas answered
            response["X-Served-By"] = _HOSTNAME
        return response


_HOSTNAME = socket.gethostname()


def metrics_allowed(address: str) -> bool:
    """True when the socket address is in METRICS_ALLOWED_ADDRESSES."""
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(client in ipaddress.ip_network(network, strict=False)
               for network in settings.METRICS_ALLOWED_ADDRESSES)


def metrics_registry():
    """Every process's metrics under gunicorn (PROMETHEUS_MULTIPROC_DIR), else this one's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return REGISTRY


def metrics_view(request):
    if not metrics_allowed(request.META.get("REMOTE_ADDR", "")):
        raise Http404("Not found.")
    return HttpResponse(generate_latest(metrics_registry()), content_type=CONTENT_TYPE_LATEST)
