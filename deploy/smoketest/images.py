"""The images a smoke run uses: the application's, built from a clean
checkout of HEAD, and its bases (python, postgres, redis, nginx), the
public ones where a registry answers, else built from Debian bookworm's
packages (deploy/images/) on a base made once with debootstrap. PgBouncer,
which has no official image, is always built that way (the scaled run)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .stack import DEPLOY, ROOT, StepFailed, detail, run, text

APP_IMAGE = os.environ.get("SMOKE_APP_IMAGE", "solitaire-app:smoke")
DEBIAN_IMAGE = os.environ.get("SMOKE_DEBIAN_IMAGE", "solitaire-debian:bookworm")
# What goes into the Debian base beyond debootstrap's minbase, as the official
# debian:bookworm-slim has it: no .deb files or package caches kept, no
# suggested packages kept by autoremove, no manuals, documents or
# translations. A base made from another recipe is made again.
DEBIAN_FILES = {
    "etc/apt/sources.list": (
        "deb http://deb.debian.org/debian bookworm main\n"
        "deb http://deb.debian.org/debian bookworm-updates main\n"
        "deb http://deb.debian.org/debian-security bookworm-security main\n"
    ),
    "etc/apt/apt.conf.d/docker-clean": (
        'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb'
        ' /var/cache/apt/*.bin || true"; };\n'
        'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb'
        ' /var/cache/apt/*.bin || true"; };\n'
        'Dir::Cache::pkgcache "";\nDir::Cache::srcpkgcache "";\n'
    ),
    "etc/apt/apt.conf.d/docker-autoremove-suggests": 'Apt::AutoRemove::SuggestsImportant "false";\n',
    "etc/apt/apt.conf.d/docker-no-languages": 'Acquire::Languages "none";\n',
    "etc/dpkg/dpkg.cfg.d/docker": (
        "path-exclude /usr/share/doc/*\npath-include /usr/share/doc/*/copyright\n"
        "path-exclude /usr/share/man/*\npath-exclude /usr/share/info/*\n"
        "path-exclude /usr/share/locale/*\npath-include /usr/share/locale/locale.alias\n"
    ),
}
DEBIAN_RECIPE = hashlib.sha256(json.dumps(DEBIAN_FILES, sort_keys=True).encode()).hexdigest()[:12]

# The public images and their Debian-built stand-ins (deploy/images/<dir>).
BASES = {
    "PYTHON_IMAGE": ("python:3.11-slim", "solitaire-python:3.11", "python"),
    "POSTGRES_IMAGE": ("postgres:15", "solitaire-postgres:15", "postgres"),
    "REDIS_IMAGE": ("redis:7", "solitaire-redis:7", "redis"),
    "PROXY_IMAGE": ("nginx:1.26", "solitaire-nginx:bookworm", "nginx"),
}


def image_exists(name: str) -> bool:
    return run("docker", "image", "inspect", name, check=False).returncode == 0


def debian_base() -> str:
    recipe = run("docker", "image", "inspect", "-f", '{{index .Config.Labels "solitaire.recipe"}}',
                 DEBIAN_IMAGE, check=False)
    if text(recipe) == DEBIAN_RECIPE:
        detail(f"Debian base {DEBIAN_IMAGE}: present, reused")
        return DEBIAN_IMAGE
    if not shutil.which("debootstrap"):
        raise StepFailed("no registry answers and debootstrap is missing: apt-get install -y debootstrap")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="solitaire-debootstrap-") as folder:
        rootfs = Path(folder) / "rootfs"
        detail(f"Debian base {DEBIAN_IMAGE}: debootstrap --variant=minbase bookworm (once; kept as a cache)")
        run("debootstrap", "--variant=minbase", "bookworm", str(rootfs), "http://deb.debian.org/debian",
            timeout=1800)
        # Security and point-release updates too, as the official images get them.
        for name, content in DEBIAN_FILES.items():
            (rootfs / name).parent.mkdir(parents=True, exist_ok=True)
            (rootfs / name).write_text(content)
        for junk in ("var/cache/apt/archives", "var/cache/apt", "var/lib/apt/lists"):
            for path in (rootfs / junk).glob("*"):
                if path.is_file():
                    path.unlink()
        for folder in ("usr/share/man", "usr/share/info", "usr/share/locale"):
            shutil.rmtree(rootfs / folder, ignore_errors=True)
            (rootfs / folder).mkdir()
        # The certificate authorities this machine adds to Debian's (a TLS
        # proxy on the way out, say): the images made here reach PyPI as the
        # host does. Debian's ca-certificates takes them in when installed.
        local = sorted(Path("/usr/local/share/ca-certificates").glob("**/*.crt"))
        if local:
            target = rootfs / "usr/local/share/ca-certificates"
            target.mkdir(parents=True, exist_ok=True)
            for certificate in local:
                shutil.copy(certificate, target / certificate.name)
            detail(f"this machine's own certificate authorities go in too: {', '.join(c.name for c in local)}")
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        imported = subprocess.run(
            ["docker", "import", "--change", f"LABEL solitaire.recipe={DEBIAN_RECIPE}", "-", DEBIAN_IMAGE],
            stdin=tar.stdout, capture_output=True,
        )
        tar.stdout.close()
        if tar.wait() != 0 or imported.returncode != 0:
            raise StepFailed(f"docker import failed: {imported.stderr.decode(errors='replace')}")
    detail(f"Debian base {DEBIAN_IMAGE}: made in {time.monotonic() - started:.0f} s")
    return DEBIAN_IMAGE


def step_base_images() -> dict[str, str]:
    chosen: dict[str, str] = {}
    missing = []
    for variable, (public, _local, _folder) in BASES.items():
        if image_exists(public):
            chosen[variable] = public
            detail(f"{variable}={public}: present")
        elif run("docker", "pull", "-q", public, check=False, timeout=300).returncode == 0:
            chosen[variable] = public
            detail(f"{variable}={public}: pulled")
        else:
            missing.append(variable)
    if missing:
        detail(f"no registry answers for {', '.join(BASES[v][0] for v in missing)}: "
               "building equivalents from Debian bookworm's packages (deploy/images/)")
        base = debian_base()
        for variable in missing:
            _public, local, folder = BASES[variable]
            started = time.monotonic()
            run("docker", "build", "-q", "--force-rm", "--build-arg", f"DEBIAN_IMAGE={base}", "-t", local,
                str(DEPLOY / "images" / folder), timeout=1800)
            chosen[variable] = local
            detail(f"{variable}={local}: built from deploy/images/{folder} "
                   f"in {time.monotonic() - started:.0f} s (instead of {BASES[variable][0]})")
    return chosen


def step_debian_images(*names: tuple[str, str, str]) -> dict[str, str]:
    """Images that only ever come from Debian's packages: (variable, tag,
    folder under deploy/images) each; the variables to run compose with."""
    base = debian_base()
    chosen = {}
    for variable, tag, folder in names:
        started = time.monotonic()
        run("docker", "build", "-q", "--force-rm", "--build-arg", f"DEBIAN_IMAGE={base}", "-t", tag,
            str(DEPLOY / "images" / folder), timeout=1800)
        chosen[variable] = tag
        detail(f"{variable}={tag}: built from deploy/images/{folder} in {time.monotonic() - started:.0f} s "
               "(cached layers reused)")
    return chosen


def step_app_image(python_image: str) -> None:
    head = text(run("git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"))
    dirty = text(run("git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"))
    if dirty:
        detail("the working tree has uncommitted changes: they are not in the image (HEAD is built)")
    started = time.monotonic()
    archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                               stdout=subprocess.PIPE)
    build = subprocess.run(
        ["docker", "build", "--force-rm", "-f", "deploy/Dockerfile", "--build-arg", f"PYTHON_IMAGE={python_image}",
         "-t", APP_IMAGE, "-"],
        stdin=archive.stdout, capture_output=True, timeout=1800,
        env={**os.environ, "DOCKER_BUILDKIT": "0"},
    )
    archive.stdout.close()
    if archive.wait() != 0 or build.returncode != 0:
        raise StepFailed("docker build failed:\n" + (build.stdout + build.stderr).decode(errors="replace")[-4000:])
    size = int(text(run("docker", "image", "inspect", "-f", "{{.Size}}", APP_IMAGE)))
    detail(f"{APP_IMAGE}: HEAD {head} on {python_image}, {size / 1e6:.0f} MB, "
           f"built in {time.monotonic() - started:.0f} s (layers cached from earlier builds are reused)")
    user = text(run("docker", "image", "inspect", "-f", "{{.Config.User}}", APP_IMAGE))
    uid = text(run("docker", "run", "--rm", "--entrypoint", "id", APP_IMAGE, "-u"))
    if user != "app" or uid == "0":
        raise StepFailed(f"the image runs as {user!r} (uid {uid}), not as the non-root user app")
    detail(f"runs as user {user} (uid {uid})")
