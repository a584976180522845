"""What one address may ask: classes started and joins, in a sliding window each counted in the class store (both
kinds); who the address is, behind a proxy; and a class's size."""

from __future__ import annotations

import concurrent.futures
import ipaddress
import sqlite3
import threading
import time

import pytest
import redis

from live_class import room
from live_class.choose import open_store
from live_class.limits import CLASS_STARTS, JOINS, TRUSTED_PROXY_ENV, RateLimit, too_often, trusted_proxies, visitor
from live_class.rules import MOST_STUDENTS, ClassProblem


def test_a_window_slides_and_counts_only_what_it_allowed(store):
    def count(key: str, now: float) -> bool:
        return store.count_in_window(key, now, most=3, seconds=10.0)

    assert [count("a", t) for t in (0.0, 1.0, 2.0, 3.0, 9.9)] == [True, True, True, False, False]
    assert count("a", 10.0)  # the action at 0.0 left the window; the refused ones were never counted
    assert not count("a", 10.5)
    assert count("b", 10.5)  # another key has its own window


def test_two_stores_on_one_file_or_server_share_the_counts(store_address):
    """Two replicas open the same store: what one counted, the other sees."""
    first, second = open_store(store_address), open_store(store_address)
    assert first.count_in_window("started:203.0.113.9", 0.0, most=2, seconds=600.0)
    assert second.count_in_window("started:203.0.113.9", 1.0, most=2, seconds=600.0)
    assert not first.count_in_window("started:203.0.113.9", 2.0, most=2, seconds=600.0)
    assert not second.count_in_window("started:203.0.113.9", 3.0, most=2, seconds=600.0)


def test_counts_at_once_never_pass_the_most(store_address):
    """Twenty threads, each with its own connection as a replica has, count under one key at the same moment."""
    stores = [open_store(store_address) for _ in range(20)]
    barrier = threading.Barrier(len(stores))

    def count(each) -> bool:
        barrier.wait()
        return each.count_in_window("joined:203.0.113.9", 5.0, most=7, seconds=60.0)

    with concurrent.futures.ThreadPoolExecutor(len(stores)) as pool:
        counted = list(pool.map(count, stores))
    assert counted.count(True) == 7


def test_what_left_its_window_is_forgotten_in_sqlite(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/classes.sqlite3")
    for address in range(50):
        store.count_in_window(f"joined:10.0.0.{address}", 0.0, most=1, seconds=60.0)
    store.count_in_window("joined:10.0.0.99", 60.0, most=1, seconds=60.0)  # a minute later
    rows = sqlite3.connect(tmp_path / "classes.sqlite3").execute("SELECT key FROM rate_counts").fetchall()
    assert rows == [("joined:10.0.0.99",)]


def test_what_left_its_window_is_forgotten_in_redis(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    open_store(redis_url).count_in_window("joined:10.0.0.7", time.time(), most=1, seconds=60.0)
    assert 0 < client.ttl("bpe:rate:joined:10.0.0.7") <= 60


def test_the_bounds_leave_room_for_a_class_behind_one_address():
    assert JOINS.most >= MOST_STUDENTS and JOINS.seconds <= 60
    assert CLASS_STARTS.most >= 2  # a teacher who ends a class and starts another


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
