"""Handing tasks to Celery so that no request ever waits on the broker.

``task_send(name, args)`` queues a task once the current transaction commits:

- Inside a request it is kept until the answer has been sent
  (``request_finished``) and then handed to this process's publisher thread:
  the request itself never talks to the broker.
- Outside a request (a worker, beat, a management command) it is published
  at once, in the caller's thread.

Every publish has a deadline: connecting and each exchange with the broker's
Redis take at most ``BROKER_PUBLISH_TIMEOUT`` seconds (socket timeouts), and
a failed publish is not retried there. A circuit breaker (api.cache's, one
per process) stops all publishing for ``BROKER_RETRY_SECONDS`` after a
failure; then the next publish is the trial. The publisher thread keeps what
it could not send (up to ``PENDING_MAX`` tasks) and sends it once a trial
goes through; a direct publish that fails or is skipped is logged and left.

What is lost that way (a process that ends, a full pending list, a skipped
direct publish) is recovered by beat's sweeps, since every task sent here
is recomputed from the database: ``sweep_analyses`` every 15 minutes queues
the analyses not done (``analyse_attempt``), ``prepare_upcoming_deals``
every hour queues the deals not verified (``verify_deal``). Beat's own
tasks (post-mortems, cleaning) come back at their next run.

With no broker (``CELERY_TASK_ALWAYS_EAGER``) the publisher thread runs the
task itself: after the answer is sent, one task at a time per process.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
from typing import NamedTuple

from celery import current_app, signature
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import connections, transaction

from api.cache import CircuitBreaker

log = logging.getLogger(__name__)

# Tasks the publisher thread keeps while the broker is away; past it, new
# ones are dropped (and logged): the sweeps queue them again.
PENDING_MAX = 10_000


class PublishSkipped(Exception):
    """A publish not tried: a recent one failed (the breaker is open)."""


class Job(NamedTuple):
    name: str
    args: tuple
    kwargs: dict


# One per process: every thread learns from one failure. Any error opens it
# (kombu wraps the broker's errors in its own, or lets the socket's through).
BREAKER = CircuitBreaker(errors=(Exception,), skipped=PublishSkipped,
                         retry_setting="BROKER_RETRY_SECONDS")

_local = threading.local()


def task_send(name: str, *, args: tuple = (), kwargs: dict | None = None) -> None:
    """Queue task ``name`` once the current transaction commits (at once
    outside one). Never raises and never waits on the broker in a request."""
    job = Job(name, tuple(args), dict(kwargs or {}))
    transaction.on_commit(lambda: _submit(job))


def _submit(job: Job) -> None:
    after_response = getattr(_local, "after_response", None)
    if after_response is not None:
        after_response.append(job)
    elif current_app.conf.task_always_eager:
        _run_here(job)
    else:
        try:
            BREAKER.call(_publish, job)
        except Exception as error:
            _log_unsent(job, error)


def _log_unsent(job: Job, error: BaseException) -> None:
    level = logging.DEBUG if isinstance(error, PublishSkipped) else logging.WARNING
    log.log(level, "Task %s%r not queued (beat's sweep queues it again): %r",
            job.name, job.args, error)


# -- publishing, under deadlines ----------------------------------------------------


def _connection():
    """This thread's connection to the broker, made with the deadlines."""
    connection = getattr(_local, "connection", None)
    if connection is None:
        timeout = settings.BROKER_PUBLISH_TIMEOUT
        connection = _local.connection = current_app.connection_for_write(
            connect_timeout=timeout,
            transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout})
    return connection


def _publish(job: Job) -> None:
    try:
        signature(job.name, args=job.args, kwargs=job.kwargs).apply_async(
            connection=_connection(), retry=False)
    except BaseException:
        # A connection that failed may be half-open: the next publish makes a new one.
        connection = getattr(_local, "connection", None)
        _local.connection = None
        if connection is not None:
            try:
                connection.release()
            except Exception:  # closing a dead connection: nothing to save
                pass
        raise


def _run_here(job: Job) -> None:
    """No broker: run the task in this thread; a failure is logged, never raised."""
    try:
        signature(job.name, args=job.args, kwargs=job.kwargs).apply_async()
    except Exception:
        log.exception("Task %s%r failed", job.name, job.args)


# -- after the answer: the publisher thread ---------------------------------------


class Publisher:
    """One daemon thread per process that sends (or, with no broker, runs)
    the tasks requests handed over, in order, one at a time."""

    def __init__(self):
        self._jobs: collections.deque[Job] = collections.deque()
        self._busy = False
        self._condition = threading.Condition()
        self._pid = None
        self._generation = 0  # discard() moves it: the job under way is dropped too

    def hand(self, jobs: list[Job]) -> None:
        with self._condition:
            if self._pid != os.getpid():  # new, or forked: this process's own thread
                self._jobs.clear()
                self._busy = False
                self._pid = os.getpid()
                threading.Thread(target=self._run, daemon=True, name="task-publisher").start()
            for job in jobs:
                if len(self._jobs) >= PENDING_MAX:
                    _log_unsent(job, OverflowError(f"{PENDING_MAX} tasks already wait"))
                    continue
                self._jobs.append(job)
            self._condition.notify_all()

    def pending(self) -> int:
        """Tasks handed over and not yet sent (or run), the one under way included."""
        with self._condition:
            return len(self._jobs) + (1 if self._busy else 0)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is pending (tests, and a worker that stops)."""
        with self._condition:
            return self._condition.wait_for(
                lambda: not self._jobs and not self._busy, timeout=timeout)

    def discard(self) -> None:
        """Drop what waits (tests that bring their own broker, or none)."""
        with self._condition:
            self._jobs.clear()
            self._generation += 1

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._jobs)
                job = self._jobs.popleft()
                self._busy = True
                generation = self._generation
            try:
                self._deliver(job, generation)
            finally:
                connections.close_all()  # this thread's own, if a task used one
                with self._condition:
                    self._busy = False
                    self._condition.notify_all()

    def _deliver(self, job: Job, generation: int) -> None:
        if current_app.conf.task_always_eager:
            _run_here(job)
            return
        while generation == self._generation:
            try:
                BREAKER.call(_publish, job)
                return
            except PublishSkipped:  # wait for the trial, never spin
                threading.Event().wait(max(BREAKER.seconds_to_trial, 0.05))
            except Exception as error:  # kept: tried again once the breaker allows
                log.warning("Task %s%r not queued, kept for %.0f s: %r", job.name, job.args,
                            BREAKER.retry_seconds, error)


PUBLISHER = Publisher()


def reset() -> None:
    """Nothing waiting and the breaker closed (tests that start and stop brokers)."""
    PUBLISHER.discard()
    BREAKER.reset()


def _request_started(**kwargs) -> None:
    _local.after_response = []


def _request_finished(**kwargs) -> None:
    jobs = getattr(_local, "after_response", None)
    _local.after_response = None
    if jobs:
        PUBLISHER.hand(jobs)


request_started.connect(_request_started, dispatch_uid="api.publish.request_started")
request_finished.connect(_request_finished, dispatch_uid="api.publish.request_finished")
