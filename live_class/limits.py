"""How often one address may ask for what costs the server: starting classes and joining them. A sliding window per
address, counted in the class store (``ClassStore.count_in_window``), so replicas sharing a store share the counts
(nginx's ``limit_req`` in ``deploy/nginx.conf.template`` bounds the requests that reach them all). A classroom behind
one NAT address shares its address: the bounds leave room for a class of 200. Who the address is: ``visitor``.

>>> from live_class.choose import open_store
>>> store, joins = open_store("sqlite:///:memory:"), RateLimit(most=2, seconds=60.0)
>>> [store.count_in_window("joined:10.0.0.7", now, *joins) for now in (0.0, 1.0, 2.0, 61.0)]
[True, True, False, True]
>>> store.count_in_window("joined:10.0.0.8", 2.0, *joins)
True
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from typing import NamedTuple

TRUSTED_PROXY_ENV = "BPE_TRUSTED_PROXY"  # the proxy in front: its address or network (nginx's)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class RateLimit(NamedTuple):
    """At most ``most`` actions of a kind per address in any ``seconds``."""

    most: int
    seconds: float


CLASS_STARTS = RateLimit(5, 600.0)  # classes one address may start in ten minutes
JOINS = RateLimit(300, 60.0)  # joins from one address in a minute: a class of 200 behind one NAT address, each once


def trusted_proxies(environ: Mapping[str, str] = os.environ) -> tuple[Network, ...]:
    """The proxy whose ``X-Forwarded-For`` is believed (``BPE_TRUSTED_PROXY``): addresses or networks, separated by
    commas; () when unset (then every loopback address is this machine or a proxy on it). A ValueError names a value
    that is neither.

    >>> trusted_proxies({TRUSTED_PROXY_ENV: "127.0.0.2, 172.31.249.0/24"})
    (IPv4Network('127.0.0.2/32'), IPv4Network('172.31.249.0/24'))
    >>> trusted_proxies({})
    ()
    >>> trusted_proxies({TRUSTED_PROXY_ENV: "nginx"})
    Traceback (most recent call last):
    ValueError: BPE_TRUSTED_PROXY=nginx: not an address or a network (127.0.0.2, 172.31.249.0/24)
    """
    text = environ.get(TRUSTED_PROXY_ENV, "")
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(
            f"{TRUSTED_PROXY_ENV}={text[:60]}: not an address or a network (127.0.0.2, 172.31.249.0/24)"
        ) from None


def visitor(direct_address: str | None, forwarded_for: str, proxies: tuple[Network, ...] = ()) -> str | None:
    """Who asks: the connection's own address, or when it comes from the proxy in front (``proxies``: nginx's
    address or network), the address that proxy saw: the last of ``X-Forwarded-For`` (a visitor can write the ones
    before, and anyone who reaches the app directly the whole header). None: this machine itself (Streamlit's None,
    for 127.0.0.1 and ::1), a browser beside the server, which no bound holds back.

    With no proxy named, every loopback address is this machine, or a proxy on it (``make classroom``'s nginx on
    127.0.0.1). Streamlit gives None for 127.0.0.1 and ::1, not for ``::ffff:127.0.0.1`` (a server listening on IPv6
    sees a local IPv4 browser so).

    >>> visitor("10.0.0.7", ""), visitor(None, "6.6.6.6, 10.0.0.9"), visitor(None, "")
    ('10.0.0.7', '10.0.0.9', None)
    >>> visitor("::ffff:127.0.0.1", ""), visitor("::ffff:10.0.0.7", "")
    (None, '::ffff:10.0.0.7')
    >>> nginx = trusted_proxies({TRUSTED_PROXY_ENV: "172.31.249.2"})
    >>> visitor("172.31.249.2", "6.6.6.6, 10.0.0.9", nginx), visitor("10.0.0.7", "10.0.0.9", nginx)
    ('10.0.0.9', '10.0.0.7')
    >>> visitor(None, "10.0.0.9", nginx), visitor("127.0.0.3", "10.0.0.9", nginx)
    (None, '127.0.0.3')
    """
    last_hop = forwarded_for.rsplit(",", 1)[-1].strip()
    if not proxies:
        if direct_address is not None and not _loopback(direct_address):
            return direct_address
        return last_hop or None
    if _within(direct_address or "127.0.0.1", proxies):
        return last_hop or direct_address
    return direct_address


def _within(address: str, networks: tuple[Network, ...]) -> bool:
    ip = _ip(address)
    return ip is not None and any(ip in network for network in networks)


def _loopback(address: str) -> bool:
    ip = _ip(address)
    return ip is not None and ip.is_loopback


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address as an IP (an IPv4 address written as IPv6 as IPv4), None when it is none (a socket's name, say:
    counted as it is, never a proxy)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return getattr(ip, "ipv4_mapped", None) or ip


def too_often(action: str, limit: RateLimit) -> str:
    """What a visitor reads when an address has done ``action`` as often as it may.

    >>> too_often("started", RateLimit(5, 600.0))
    'This address has started 5 classes in the last 10 minutes, the most it may: try again later.'
    """
    minutes = limit.seconds / 60
    window = f"{minutes:g} minutes" if minutes != 1 else "minute"
    noun = "classes" if action == "started" else "times"
    return f"This address has {action} {limit.most} {noun} in the last {window}, the most it may: try again later."
