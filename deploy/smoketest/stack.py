"""The stack a smoke run drives, and what every run does with it: output,
processes, compose, waiting, secrets, bringing the stack up, tearing it
down, and the numbered steps with their failure handling (Run)."""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import secrets
import shlex
import shutil
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent
ROOT = DEPLOY.parent

HOST = "solitaire.test"  # the name the proxy in front would forward
# Fixed, so that the plain run's slow deal (plain.SLOW_DEAL) is the same
# deal in every run.
SMOKE_DEAL_SEED_SECRET = "smoke-only-deal-seed-secret"


class StepFailed(Exception):
    pass


@dataclass
class Stack:
    """The compose project a run drives: its name, its compose files, the
    proxy's port on the host's loopback, the compose command and the
    environment it runs with (the images, the secrets' folder, ...)."""

    project: str
    web_port: int
    files: list[Path]
    command: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def compose_args(self) -> list[str]:
        return [*self.command, "-p", self.project, *(arg for f in self.files for arg in ("-f", str(f)))]


# The run's stack: plain.main and scaled.main set it up before any step.
STACK = Stack(project="", web_port=0, files=[])


# -- Output and processes ------------------------------------------------------------

T0 = time.monotonic()


def say(text: str = "") -> None:
    print(text, flush=True)


def detail(text: str) -> None:
    say(f"      {text}")


def run(*args: str, check: bool = True, input: bytes | None = None, capture: bool = True,
        timeout: float = 900, env: dict | None = None, stdout=None) -> subprocess.CompletedProcess:
    result = subprocess.run(
        args, input=input, timeout=timeout, env=env,
        stdout=stdout if stdout is not None else (subprocess.PIPE if capture else None),
        stderr=subprocess.PIPE if capture else None,
    )
    if check and result.returncode != 0:
        err = (result.stderr or b"").decode(errors="replace").strip()[-3000:]
        out = (result.stdout or b"").decode(errors="replace").strip()[-2000:] if stdout is None else ""
        raise StepFailed(f"`{shlex.join(args)}` exited {result.returncode}\n{out}\n{err}".rstrip())
    return result


def text(result: subprocess.CompletedProcess) -> str:
    return (result.stdout or b"").decode(errors="replace").strip()


def compose_command() -> list[str]:
    chosen = os.environ.get("COMPOSE")
    if chosen:
        return shlex.split(chosen)
    if run("docker", "compose", "version", check=False).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise StepFailed("neither `docker compose` nor docker-compose is installed")


def set_environment(work: Path, images: dict[str, str], network: tuple[str, str, str], **more: str) -> None:
    """The environment compose runs with: the images, the throwaway secrets
    in ``work``, the host name the proxy in front forwards, the proxy's port,
    the run's own network (subnet, gateway, the proxy's fixed address), two
    gunicorn workers a web container, and ``more``."""
    subnet, gateway, proxy = network
    STACK.env.clear()
    STACK.env.update(
        os.environ,
        **images,
        SECRETS_DIR=str(work / "secrets"),
        ALLOWED_HOSTS=HOST,
        CSRF_TRUSTED_ORIGINS=f"https://{HOST}",
        WEB_PORT=str(STACK.web_port),
        NETWORK_SUBNET=subnet,
        NETWORK_GATEWAY=gateway,
        PROXY_ADDRESS=proxy,
        WEB_CONCURRENCY="2",
        **more,
    )


def compose(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return run(*STACK.compose_args(), *args, env=STACK.env, **kwargs)


def containers(service: str) -> list[str]:
    """The service's running containers (one per replica), in compose's order."""
    return text(compose("ps", "-q", service)).split()


def container(service: str) -> str:
    ids = containers(service)
    if not ids:
        raise StepFailed(f"no container for {service}")
    return ids[0]


def address(service: str) -> tuple[str, str]:
    """The compose network the service's container is on, and its address there."""
    return tuple(text(run("docker", "inspect", "-f",
                          "{{range $name, $net := .NetworkSettings.Networks}}{{$name}} {{$net.IPAddress}}{{end}}",
                          container(service))).split())


def psql(sql: str) -> str:
    return text(run("docker", "exec", container("postgres"), "psql", "-U", "solitaire", "-d", "solitaire",
                    "-v", "ON_ERROR_STOP=1", "-tAc", sql))


def manage(*args: str) -> str:
    return text(compose("exec", "-T", "web", "python", "manage.py", *args))


def wait(what: str, probe, seconds: float, every: float = 1.0):
    """probe() until it returns something true; that value."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            value = probe()
        except (StepFailed, OSError, http.client.HTTPException, ValueError) as error:
            value, last = None, error
        if value:
            return value
        time.sleep(every)
    raise StepFailed(f"{what}: not within {seconds:.0f} s" + (f" (last error: {last})" if last else ""))


def health() -> dict:
    with urllib.request.urlopen(f"{STACK.base_url}/health/", timeout=10) as response:
        return json.loads(response.read())


def step_secrets(folder: Path) -> None:
    folder.mkdir(mode=0o700)
    values = {
        "secret_key": secrets.token_urlsafe(50),
        "deal_seed_secret": SMOKE_DEAL_SEED_SECRET,
        "postgres_password": secrets.token_urlsafe(24),
    }
    for name, value in values.items():
        path = folder / name
        path.write_text(value + "\n")
        path.chmod(0o644)  # read by the containers' own users; the folder is root's only
    detail(f"SECRETS_DIR={folder}: {', '.join(values)}")


def step_check_deploy() -> None:
    output = text(compose("run", "--rm", "--no-deps", "web", "python", "manage.py", "check", "--deploy",
                          "--fail-level", "WARNING"))
    if "no issues" not in output:
        raise StepFailed(f"check --deploy: {output}")
    detail(output.splitlines()[-1])


def step_up(*scale: str) -> None:
    """Up (scale: `--scale web=3` and such), migrate done, /health/ ok."""
    compose("up", "-d", "--no-build", *scale, timeout=900)
    migrate = container("migrate")
    code = wait("migrate to finish", lambda: text(run(
        "docker", "inspect", "-f", "{{if not .State.Running}}exited {{.State.ExitCode}}{{end}}", migrate)), 300)
    if code != "exited 0":
        raise StepFailed(f"migrate {code}")
    answer = wait("/health/ to say ok", lambda: (lambda h: h if h.get("status") == "ok" else None)(health()), 300)
    detail(f"migrate exited 0; GET /health/: {json.dumps(answer)}")
    states = text(run("docker", "ps", "--filter", f"label=com.docker.compose.project={STACK.project}",
                      "--format", "{{.Names}}: {{.Status}}"))
    for line in sorted(states.splitlines()):
        detail(line)


def worker_log(since: str | None = None) -> str:
    """The logs of every worker container, one after the other."""
    logs = []
    for worker in containers("worker"):
        result = run("docker", "logs", *(["--since", since] if since else []), worker)
        logs.append((result.stdout + result.stderr).decode(errors="replace"))
    return "\n".join(logs)


def deal_row(game: str, date: str) -> dict:
    line = psql(
        "select state, candidate, coalesce(claimed_by, ''), coalesce(verified_at::text, ''), "
        "coalesce(extract(epoch from now() - claimed_at)::int, -1), length(certificate), "
        f"(select count(*) from deals_dailydeal where game = '{game}' and date = '{date}') "
        f"from deals_dailydeal where game = '{game}' and date = '{date}'"
    )
    if not line:
        return {}
    state, candidate, claimed_by, verified_at, claim_age, certificate, rows = line.split("|")
    return {"state": state, "candidate": int(candidate), "claimed_by": claimed_by, "verified_at": verified_at,
            "claim_age": int(claim_age), "certificate_chars": int(certificate), "rows": int(rows)}


def teardown(check: bool = True) -> None:
    compose("down", "--volumes", "--remove-orphans", "--timeout", "20", timeout=300, check=check)
    if not check:
        return
    left = text(run("docker", "ps", "-a", "-q", "--filter", f"label=com.docker.compose.project={STACK.project}"))
    volumes = text(run("docker", "volume", "ls", "-q", "--filter", f"label=com.docker.compose.project={STACK.project}"))
    networks = text(run("docker", "network", "ls", "-q", "--filter", f"label=com.docker.compose.project={STACK.project}"))
    if left or volumes or networks:
        raise StepFailed(f"left behind: containers {left.split()}, volumes {volumes.split()}, networks {networks.split()}")
    detail("no container, volume or network of the project is left")


def remove_project() -> None:
    """The project's containers (with their anonymous volumes), volumes and networks, by their compose label."""
    label = f"label=com.docker.compose.project={STACK.project}"
    for kind, listing in (("container", ["ps", "-a"]), ("volume", ["volume", "ls"]), ("network", ["network", "ls"])):
        ids = text(run("docker", *listing, "-q", "--filter", label, check=False)).split()
        if ids:
            run("docker", kind, "rm", *(["-f", "-v"] if kind == "container" else []), *ids, check=False)


def dump_logs() -> None:
    say("---- recent logs of the services ----")
    run(*STACK.compose_args(), "logs", "--no-color", "--tail", "40", env=STACK.env, check=False, capture=False)
    say("-------------------------------------")


def docker_preflight() -> None:
    """Docker answers, the compose command is chosen, and a stack left by an
    earlier run of this project is removed."""
    run("docker", "info")
    STACK.command[:] = compose_command()
    version = text(run(*STACK.command, "version", "--short", check=False)) or text(run(*STACK.command, "version"))
    detail(f"compose: {' '.join(STACK.command)} {version.splitlines()[0] if version else ''}; "
           f"project {STACK.project}; web on 127.0.0.1:{STACK.web_port}")
    stale = text(run("docker", "ps", "-a", "-q", "--filter", f"label=com.docker.compose.project={STACK.project}"))
    if stale:
        detail("a stack of an earlier run is still there: removing it first")
        remove_project()


def one_run_at_a_time() -> None:
    """One run of a project at a time on a machine: a second one waits, and
    never takes the first one's stack for a leftover."""
    lock = open(Path(tempfile.gettempdir()) / f"{STACK.project}.lock", "w")  # noqa: SIM115 (held until exit)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say(f"another smoke run of project {STACK.project} is under way on this machine: waiting for it")
        fcntl.flock(lock, fcntl.LOCK_EX)
    _held.append(lock)


_held: list = []


class Run:
    """Numbered steps, each printed with its result and time. A step raises
    StepFailed (or a timeout, an OSError...) to fail the run: finish() then
    prints the services' recent logs and tears the stack down, unless asked
    to keep it."""

    FAILURES = (StepFailed, subprocess.TimeoutExpired, OSError, KeyError, ValueError)

    def __init__(self):
        self.steps: list[tuple[str, float]] = []
        self.work = Path(tempfile.mkdtemp(prefix="solitaire-smoke-"))
        self.up = False

    def step(self, name: str, action) -> None:
        number = len(self.steps) + 1
        say(f"==> [{number}] {name}")
        started = time.monotonic()
        action()
        elapsed = time.monotonic() - started
        self.steps.append((name, elapsed))
        say(f"    ok: {name} ({elapsed:.0f} s)")

    def failed(self, error: BaseException, keep: bool) -> int:
        say(f"FAILED: {error}")
        if self.up and STACK.command:
            dump_logs()
            if keep:
                say(f"the stack is left up (project {STACK.project}, secrets in {self.work})")
                return 1
            teardown(check=False)
            remove_project()
        shutil.rmtree(self.work, ignore_errors=True)
        return 1

    def passed(self, keep_work: bool = False) -> int:
        if not keep_work:
            shutil.rmtree(self.work, ignore_errors=True)
        say("")
        say(f"Smoke run passed: {len(self.steps)} steps in {time.monotonic() - T0:.0f} s")
        for number, (name, elapsed) in enumerate(self.steps, 1):
            say(f"  [{number:2}] {elapsed:5.0f} s  {name}")
        return 0
