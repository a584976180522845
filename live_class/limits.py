"""How often one address may ask for what costs the server: starting classes and joining them. A sliding window per
address, kept in this process (with replicas, nginx's ``limit_req`` in ``deploy/nginx.conf.template`` bounds what
reaches them all). A classroom behind one NAT address shares its address: the bounds leave room for a class of 200.

>>> joins = RateLimit(most=2, seconds=60.0)
>>> joins.allow("10.0.0.7", now=0.0), joins.allow("10.0.0.7", now=1.0), joins.allow("10.0.0.7", now=2.0)
(True, True, False)
>>> joins.allow("10.0.0.7", now=61.0), joins.allow("10.0.0.8", now=2.0)
(True, True)
"""

from __future__ import annotations

import ipaddress
import threading
from collections import OrderedDict, deque

CLASS_STARTS = (5, 600.0)  # classes one address may start in ten minutes
JOINS = (300, 60.0)  # joins from one address in a minute: a class of 200 behind one NAT address, each joining once
TRACKED_ADDRESSES = 10_000  # addresses remembered at most: the least recent is forgotten first


class RateLimit:
    """At most ``most`` actions per address in any ``seconds``; thread-safe, its memory bounded."""

    def __init__(self, most: int, seconds: float, tracked: int = TRACKED_ADDRESSES):
        self.most, self.seconds, self.tracked = most, seconds, tracked
        self._times: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, address: str, now: float) -> bool:
        """Count an action of ``address`` at ``now`` if its window has room; False (nothing counted) if not."""
        with self._lock:
            times = self._times.pop(address, None) or deque()
            while times and times[0] <= now - self.seconds:
                times.popleft()
            allowed = len(times) < self.most
            if allowed:
                times.append(now)
            self._times[address] = times  # the most recent last
            while len(self._times) > self.tracked:
                self._times.popitem(last=False)
            return allowed


def visitor(direct_address: str | None, forwarded_for: str) -> str | None:
    """Who asks: the connection's own address, or when it comes from this machine (``direct_address`` None) through
    a proxy (nginx in front, ``make classroom``), the address that proxy saw: the last of ``X-Forwarded-For`` (a
    visitor can write the ones before). None: this machine itself, a browser beside the server, which no bound
    holds back.

    Streamlit gives None for 127.0.0.1 and ::1, not for ``::ffff:127.0.0.1`` (a server listening on IPv6 sees a local
    IPv4 browser so): every loopback address is this machine.

    >>> visitor("10.0.0.7", ""), visitor(None, "6.6.6.6, 10.0.0.9"), visitor(None, "")
    ('10.0.0.7', '10.0.0.9', None)
    >>> visitor("::ffff:127.0.0.1", ""), visitor("::ffff:10.0.0.7", "")
    (None, '::ffff:10.0.0.7')
    """
    if direct_address is not None and not _loopback(direct_address):
        return direct_address
    return forwarded_for.rsplit(",", 1)[-1].strip() or None


def _loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # not an address (a socket's name, say): counted as it is
        return False
    mapped = getattr(ip, "ipv4_mapped", None)  # an IPv4 address written as IPv6
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def too_often(action: str, limit: RateLimit) -> str:
    """What a visitor reads when an address has done ``action`` as often as it may.

    >>> too_often("started", RateLimit(5, 600.0))
    'This address has started 5 classes in the last 10 minutes, the most it may: try again later.'
    """
    minutes = limit.seconds / 60
    window = f"{minutes:g} minutes" if minutes != 1 else "minute"
    noun = "classes" if action == "started" else "times"
    return f"This address has {action} {limit.most} {noun} in the last {window}, the most it may: try again later."
