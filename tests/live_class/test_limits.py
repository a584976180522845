"""What one address may ask: classes started and joins, in a sliding window each; and a class's size."""

from __future__ import annotations

import ipaddress

import pytest

from live_class import room
from live_class.limits import CLASS_STARTS, JOINS, TRUSTED_PROXY_ENV, RateLimit, too_often, trusted_proxies, visitor
from live_class.rules import MOST_STUDENTS, ClassProblem


def test_a_window_slides_and_counts_only_what_it_allowed():
    limit = RateLimit(most=3, seconds=10.0)
    assert [limit.allow("a", t) for t in (0.0, 1.0, 2.0, 3.0, 9.9)] == [True, True, True, False, False]
    assert limit.allow("a", 10.0)  # the action at 0.0 left the window; the refused ones were never counted
    assert not limit.allow("a", 10.5)
    assert limit.allow("b", 10.5)  # another address has its own window


def test_the_addresses_remembered_are_bounded_least_recent_first():
    limit = RateLimit(most=1, seconds=60.0, tracked=2)
    assert limit.allow("a", 0.0) and limit.allow("b", 1.0) and limit.allow("c", 2.0)
    assert limit.allow("a", 3.0)  # forgotten when c came: a fresh window
    assert not limit.allow("c", 4.0)


def test_the_bounds_leave_room_for_a_class_behind_one_address():
    most, seconds = JOINS
    assert most >= MOST_STUDENTS and seconds <= 60
    assert CLASS_STARTS[0] >= 2  # a teacher who ends a class and starts another


@pytest.mark.parametrize(
    ("direct", "forwarded", "who"),
    [
        ("10.0.0.7", "1.2.3.4", "10.0.0.7"),  # a header from a visitor that reached us directly is theirs to write
        (None, "1.2.3.4, 10.0.0.9", "10.0.0.9"),
        (None, " 10.0.0.9 ", "10.0.0.9"),
        (None, "", None),  # a browser on the server's own machine
        ("::ffff:127.0.0.1", "", None),  # the same, to a server listening on IPv6 (Streamlit passes it on)
        ("127.0.0.2", "", None),
        ("::ffff:127.0.0.1", "1.2.3.4, 10.0.0.9", "10.0.0.9"),  # a proxy on this machine, seen so
        ("::ffff:10.0.0.7", "", "::ffff:10.0.0.7"),  # a browser of the room's network stays counted
        ("unix-socket", "", "unix-socket"),
    ],
)
def test_the_address_is_the_connections_unless_it_comes_through_this_machine(direct, forwarded, who):
    assert visitor(direct, forwarded) == who


NGINX = (ipaddress.ip_network("127.0.0.2/32"),)  # BPE_TRUSTED_PROXY=127.0.0.2, as the deploy test runs it
COMPOSE = (ipaddress.ip_network("172.31.249.0/24"),)  # or a network


@pytest.mark.parametrize(
    ("direct", "forwarded", "proxies", "who"),
    [
        ("127.0.0.2", "127.0.0.3", NGINX, "127.0.0.3"),  # through the named proxy: the address it saw
        ("127.0.0.2", "6.6.6.6, 127.0.0.3", NGINX, "127.0.0.3"),  # what the visitor wrote before it is not theirs
        ("::ffff:127.0.0.2", "127.0.0.4", NGINX, "127.0.0.4"),  # the proxy, to a server listening on IPv6
        ("127.0.0.3", "127.0.0.4", NGINX, "127.0.0.3"),  # straight to the app: its header is not believed
        ("127.0.0.2", "", NGINX, "127.0.0.2"),  # the proxy without a header: the proxy itself
        (None, "10.0.0.9", NGINX, None),  # 127.0.0.1 is this machine, not the proxy once one is named
        ("172.31.249.7", "10.0.0.9", COMPOSE, "10.0.0.9"),  # any address of the proxy's network
        ("172.31.250.7", "10.0.0.9", COMPOSE, "172.31.250.7"),  # the next network is not it
        ("unix-socket", "10.0.0.9", COMPOSE, "unix-socket"),
    ],
)
def test_a_named_proxy_alone_says_who_came_through_it(direct, forwarded, proxies, who):
    assert visitor(direct, forwarded, proxies) == who


def test_the_trusted_proxy_is_read_from_the_environment():
    assert trusted_proxies({TRUSTED_PROXY_ENV: " 127.0.0.2 ,fd00::/8"}) == (
        ipaddress.IPv4Network("127.0.0.2/32"),
        ipaddress.IPv6Network("fd00::/8"),
    )
    assert trusted_proxies({TRUSTED_PROXY_ENV: "172.31.249.9/24"}) == COMPOSE  # an address with its network's length
    assert trusted_proxies({}) == trusted_proxies({TRUSTED_PROXY_ENV: ""}) == ()
    with pytest.raises(ValueError, match="BPE_TRUSTED_PROXY=nginx:80: not an address or a network"):
        trusted_proxies({TRUSTED_PROXY_ENV: "nginx:80"})


def test_the_sentence_says_what_and_how_often():
    assert too_often("joined", RateLimit(300, 60.0)) == (
        "This address has joined 300 times in the last minute, the most it may: try again later."
    )


def test_a_full_class_refuses_the_next_student(store, monkeypatch):
    monkeypatch.setattr("live_class.rules.MOST_STUDENTS", 3)
    code, _ = room.start_class(store, now=0.0)
    for name in ("Ada", "Bo", "Cy"):
        room.join(store, code, name, now=1.0)
    with pytest.raises(ClassProblem, match="This class is full: 3 students have joined."):
        room.join(store, code, "Di", now=2.0)
    assert sorted(store.students(code).values()) == ["Ada", "Bo", "Cy"]
