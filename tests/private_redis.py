"""A throwaway redis-server of a test's own, on its own port (the machine's
Redis on 6379 is shared and is never stopped), that a test can stop with
SIGSTOP (a hung cache: connections are accepted, nothing answers) and
resume. The fixture that starts one always resumes and kills it."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """On a free TCP port, or only on the Unix socket ``unix_socket`` (a path)."""

    def __init__(self, port: int | None = None, *, unix_socket: str | None = None):
        self.unix_socket = unix_socket
        self.port = 0 if unix_socket else (port or free_port())
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        if self.unix_socket:
            return f"unix://{self.unix_socket}?db=0"
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        try:
            if self.unix_socket:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.settimeout(0.2)
                    probe.connect(self.unix_socket)
            else:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def start(self) -> None:
        listen = (["--port", "0", "--unixsocket", self.unix_socket] if self.unix_socket
                  else ["--port", str(self.port), "--bind", "127.0.0.1"])
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", *listen,
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._answers():
                return
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not start on {self.unix_socket or self.port}")

    def wait_answering(self, seconds: float = 10) -> None:
        """Until the server answers a PING (after resume(): it has caught up)."""
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=0.5)
        deadline = time.monotonic() + seconds
        while True:
            try:
                if client.ping():
                    return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    def hang(self) -> None:
        """SIGSTOP: the server keeps its socket, and answers nothing."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def cache_settings(url: str, timeout: float = 0.5) -> dict:
    return {"default": {
        "BACKEND": "api.cache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
    }}
