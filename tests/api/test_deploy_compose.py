"""deploy/compose.yaml lets the world reach gunicorn only through its nginx
proxy (buffering, slow clients timed out, each address limited), and
gunicorn trusts forwarded headers only from the proxy's address."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "deploy" / "compose.yaml"
NGINX = COMPOSE.parent / "nginx" / "default.conf"


def _default(value: str) -> str:
    """The value compose uses when the variable is unset: ${NAME:-default} -> default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_only_the_proxy_publishes_a_port_and_on_the_loopback_only():
    compose = _compose()
    published = {}
    for name, service in compose["services"].items():
        for mapping in service.get("ports", []):
            host_ip = _default(str(mapping)).rsplit(":", 2)[0] if str(mapping).count(":") >= 2 else ""
            assert ipaddress.ip_address(host_ip).is_loopback, (name, mapping)
            published[name] = _default(str(mapping))
    # gunicorn is reached on the stack's network only, through nginx.
    assert published == {"proxy": "127.0.0.1:8000:80"}


def test_gunicorn_trusts_forwarded_headers_from_the_proxys_address_only():
    compose = _compose()
    environment = compose["x-app"]["environment"]
    trusted = [a.strip() for a in _default(environment["FORWARDED_ALLOW_IPS"]).split(",")]
    network = {k: _default(v) for k, v in compose["networks"]["default"]["ipam"]["config"][0].items()}
    proxy = _default(compose["services"]["proxy"]["networks"]["default"]["ipv4_address"])

    assert "*" not in trusted
    assert trusted == [proxy]
    assert ipaddress.ip_address(proxy) in ipaddress.ip_network(network["subnet"])
    # The proxy sends the client's address alone in X-Forwarded-For.
    assert environment["TRUSTED_PROXY_COUNT"] == "1"
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in NGINX.read_text()


def test_the_proxy_buffers_times_out_slow_clients_and_limits_each_address():
    compose = _compose()
    conf = NGINX.read_text()
    active = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    settings = dict(re.findall(r"^\s*([a-z_]+)\s+([^;{]+);", active, re.M))

    assert compose["services"]["proxy"]["volumes"] == [
        "./nginx/default.conf:/etc/nginx/conf.d/default.conf:ro"]
    assert settings["proxy_request_buffering"] == "on" and settings["proxy_buffering"] == "on"
    for timeout in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert int(settings[timeout].rstrip("s")) <= 10, timeout
    # The web service's name is looked up per request in Docker's DNS, not once
    # at start, so a web container started again at a new address is reached.
    assert not re.search(r"^\s*upstream\s", active, re.M)
    assert re.search(r"^resolver 127\.0\.0\.11 valid=\d+s", active, re.M)
    assert "set $web http://web:8000;" in active and "proxy_pass $web;" in active
    assert "limit_req zone=per_address" in active and "limit_req_status 429" in active
    # TLS-ready: a server on 443 with its certificate from the secrets, commented.
    assert "#     listen 443 ssl" in conf and "/run/secrets/tls_certificate" in conf


def test_production_containers_run_without_debug():
    environment = _compose()["x-app"]["environment"]

    assert environment["DEBUG"] == "false"


def test_secrets_reach_the_containers_as_files_never_as_variables():
    compose = _compose()
    environment = compose["x-app"]["environment"]
    postgres = compose["services"]["postgres"]

    for name in ("SECRET_KEY", "DEAL_SEED_SECRET", "DATABASE_PASSWORD"):
        assert name not in environment
        secret = environment[f"{name}_FILE"].removeprefix("/run/secrets/")
        assert secret in compose["x-app"]["secrets"] and secret in compose["secrets"]
    assert "POSTGRES_PASSWORD" not in postgres["environment"]
    assert postgres["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert postgres["secrets"] == ["postgres_password"]
    # No password in the URL: it comes from the file.
    assert "@" in environment["DATABASE_URL"] and ":" not in environment["DATABASE_URL"].split("//")[1].split("@")[0]
    for secret in compose["secrets"].values():
        assert set(secret) == {"file"}


def test_the_file_works_with_docker_compose_1_29():
    # Debian's docker-compose 1.29 refuses a top-level "name" (give -p instead).
    assert set(_compose()) <= {"services", "networks", "volumes", "secrets"} | {
        key for key in _compose() if key.startswith("x-")
    }


def test_images_are_parameters_whose_defaults_are_the_public_images():
    compose = _compose()
    services = compose["services"]
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()

    assert _default(services["postgres"]["image"]) == "postgres:15"
    assert _default(services["redis"]["image"]) == "redis:7"
    assert _default(services["proxy"]["image"]) == "nginx:1.26"
    assert _default(compose["x-app"]["build"]["args"]["PYTHON_IMAGE"]) == "python:3.11-slim"
    assert "ARG PYTHON_IMAGE=python:3.11-slim\nFROM ${PYTHON_IMAGE}\n" in dockerfile
    assert services["postgres"]["image"].startswith("${POSTGRES_IMAGE:-")
    assert services["redis"]["image"].startswith("${REDIS_IMAGE:-")


def test_the_build_context_leaves_out_secrets_and_local_state():
    ignored = {
        line.strip()
        for line in (COMPOSE.parents[1] / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }

    assert {"deploy/secrets", ".git", ".venv", ".env", "**/*.so"} <= ignored


def _locations(active: str) -> dict[str, dict[str, str]]:
    """The port-80 server's locations: {pattern: {directive: value}}."""
    blocks = re.findall(r"location\s+(?:~\s+)?(\S+)\s*\{(.*?)\n    \}", active, re.S)
    return {pattern.strip('"'): dict(re.findall(r"^\s*([a-z_]+)\s+([^;]+);", body, re.M))
            for pattern, body in blocks}


def test_the_proxy_caches_only_public_answers_for_the_lifetime_django_gives():
    from django.conf import settings

    active = "\n".join(line.split("#", 1)[0] for line in NGINX.read_text().splitlines())
    locations = _locations(active)
    daily = next(v for k, v in locations.items() if k.startswith("^/api/v1/daily/"))
    pattern = next(k for k in locations if k.startswith("^/api/v1/daily/"))
    # The day's document, and nothing else under /api/v1/daily (the player's own).
    assert re.match(pattern, "/api/v1/daily/2026-12-05")
    for personal in ("/api/v1/daily", "/api/v1/daily/2026-12-05/cruel", "/api/v1/daily/today"):
        assert not re.match(pattern, personal)
    assert "$uri" in daily["proxy_cache_key"]  # the date is in the key
    assert daily["proxy_cache_lock"] == "on"  # a rush sends one request up
    assert daily["proxy_pass"] == "$web"

    leaderboard = locations["/api/v1/leaderboard/"]
    assert "$request_uri" in leaderboard["proxy_cache_key"]
    assert leaderboard["proxy_cache_bypass"] == leaderboard["proxy_no_cache"] == "$names_a_player"
    names = re.search(r'map "([^"]+)" \$names_a_player \{\s*default 1;\s*"" 0;\s*\}', active)
    assert names and names.group(1) == f"$cookie_{settings.SESSION_COOKIE_NAME}$http_authorization"

    # Lifetimes come from Django alone (X-Accel-Expires, Cache-Control): no
    # default lifetime, no stale copies, and nginx's refusals (a Set-Cookie,
    # private, no-store) kept.
    assert "proxy_cache_valid" not in active and "proxy_cache_use_stale" not in active
    for ignored in re.findall(r"proxy_ignore_headers\s+([^;]+);", active):
        assert ignored.split() == ["Vary"]
    assert "proxy_ignore_headers" not in leaderboard
    assert re.search(r"^proxy_cache_path \S+ .*keys_zone=public_answers:", active, re.M)
