"""The balancer's bounds per address (deploy/nginx.conf.template, used by make classroom and Docker compose): every
request and connection passes through one limit_req and one limit_conn zone, refused with 429. The classroom tests
run nginx with this template, so the settings are also checked by nginx itself."""

from __future__ import annotations

import re

from browser_helpers import REPO_ROOT

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
