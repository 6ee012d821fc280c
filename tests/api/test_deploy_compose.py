"""deploy/compose.yaml lets the world reach gunicorn only through the proxy,
and gunicorn trusts forwarded headers only from the proxy's address."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "deploy" / "compose.yaml"


def _default(value: str) -> str:
    """The value compose uses when the variable is unset: ${NAME:-default} -> default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_the_web_port_is_published_on_the_loopback_only():
    compose = _compose()
    for name, service in compose["services"].items():
        for mapping in service.get("ports", []):
            host_ip = _default(str(mapping)).rsplit(":", 2)[0] if str(mapping).count(":") >= 2 else ""
            assert ipaddress.ip_address(host_ip).is_loopback, (name, mapping)
    assert compose["services"]["web"]["ports"], "the proxy needs the web port on the host"


def test_gunicorn_trusts_forwarded_headers_from_the_networks_gateway_only():
    compose = _compose()
    environment = compose["x-app"]["environment"]
    trusted = [_default(a).strip() for a in _default(environment["FORWARDED_ALLOW_IPS"]).split(",")]
    network = compose["networks"]["default"]["ipam"]["config"][0]

    assert "*" not in trusted
    assert trusted == [network["gateway"]]
    assert ipaddress.ip_address(network["gateway"]) in ipaddress.ip_network(network["subnet"])


def test_production_containers_run_without_debug():
    environment = _compose()["x-app"]["environment"]

    assert environment["DEBUG"] == "false"
    assert "?" in environment["SECRET_KEY"] and "?" in environment["DEAL_SEED_SECRET"]
