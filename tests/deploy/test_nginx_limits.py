"""The balancer's bounds per address (deploy/nginx.conf.template, used by make classroom and Docker compose): every
request and connection passes through one limit_req and one limit_conn zone, refused with 429. The classroom tests
run nginx with this template, so the settings are also checked by nginx itself."""

from __future__ import annotations

import ipaddress
import re

from support.paths import REPO_ROOT

TEMPLATE = (REPO_ROOT / "deploy" / "nginx.conf.template").read_text(encoding="utf-8")


def server_block() -> str:
    return TEMPLATE[TEMPLATE.index("    server {") :]


def test_requests_and_connections_are_bounded_per_address():
    zones = dict(re.findall(r"limit_(req|conn)_zone \$binary_remote_addr zone=(\w+):", TEMPLATE))
    assert set(zones) == {"req", "conn"}
    assert re.search(rf"limit_req zone={zones['req']} burst=\d+ nodelay;", server_block())
    assert re.search(rf"limit_conn {zones['conn']} \d+;", server_block())
    assert "limit_req_status 429;" in TEMPLATE and "limit_conn_status 429;" in TEMPLATE


def test_a_class_behind_one_address_fits_the_bounds():
    """Thirty students behind one NAT address open a websocket each and load a page of some 30 files at once."""
    connections = int(re.search(r"limit_conn \w+ (\d+);", server_block()).group(1))
    burst = int(re.search(r"burst=(\d+)", server_block()).group(1))
    assert connections >= 200 and burst >= 30 * 15


COMPOSE = (REPO_ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")


def test_every_location_tells_the_replicas_the_address_nginx_saw_and_only_that():
    """A visitor's own X-Forwarded-For never reaches a replica: each location (whose proxy_set_header lines replace
    the http block's) writes the header anew from $remote_addr, and nginx connects from the address they trust."""
    locations = re.findall(r"location [^{]+\{(.*?)\n        \}", server_block(), flags=re.DOTALL)
    assert len(locations) == 2
    for location in locations:
        assert "proxy_set_header X-Forwarded-For $remote_addr;" in location
    assert "$proxy_add_x_forwarded_for" not in TEMPLATE
    assert "proxy_bind @PROXY_ADDRESS@;" in TEMPLATE


def test_compose_fills_every_placeholder_and_trusts_nginx_at_its_own_address():
    command = COMPOSE[COMPOSE.index("command:") :]
    filled = set(re.findall(r"s\|(@[A-Z_]+@)\|", command))
    assert filled == set(re.findall(r"@[A-Z_]+@", TEMPLATE))
    address = re.search(r"x-proxy-address: &proxy_address (\S+)", COMPOSE).group(1)
    subnet = re.search(r"- subnet: (\S+)", COMPOSE).group(1)
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    # The replicas trust it, nginx takes it on the network and connects from it.
    assert "BPE_TRUSTED_PROXY: *proxy_address" in COMPOSE
    assert "ipv4_address: *proxy_address" in COMPOSE and "PROXY_ADDRESS: *proxy_address" in COMPOSE
    assert "s|@PROXY_ADDRESS@|$$PROXY_ADDRESS|" in command  # $$: compose hands sh a plain $
