"""The Class page's address and QR code: worked out by hand (the address) and read back (the QR code)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import unquote

import pytest

from pages.classroom.views.address import (
    ClassAddress,
    announcement,
    class_address,
    join_here,
    join_url,
    network_address,
    qr_svg_data_uri,
    this_machine_only,
)
from pages.classroom.views.reach import reach_html


@pytest.mark.parametrize(
    ("env_url", "server_address", "host", "expected"),
    [
        ("http://class.example:8080/", "localhost", None, "http://class.example:8080/"),  # make class said so
        ("", None, "10.1.2.3", "http://10.1.2.3:8501/"),  # Streamlit's default listens on every interface
        ("", "0.0.0.0", "10.1.2.3", "http://10.1.2.3:8501/"),
        ("", "::", "fd00::2", "http://[fd00::2]:8501/"),
        ("", "localhost", "10.1.2.3", None),  # make run: this machine only
        ("", "127.0.0.1", "10.1.2.3", None),
        ("", "0.0.0.0", None, None),  # no network to share
    ],
)
def test_the_address_students_type(env_url, server_address, host, expected):
    address = class_address(env_url, server_address, 8501, host)
    assert address.url == expected
    assert bool(address.problem) == (expected is None)


def test_why_students_cannot_reach_it_is_said():
    assert "make class" in class_address("", "localhost", 8501, "10.1.2.3").problem
    assert "room's network" in class_address("", "0.0.0.0", 8501, None).problem


def test_the_network_address_is_this_machine_s_and_not_loopback():
    host = network_address()
    if host is None:
        pytest.skip("this machine has only loopback")
    assert not ipaddress.ip_address(host).is_loopback
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))  # only an address of this machine can be bound


def test_the_announcement_prints_the_address_and_a_qr_code():
    url, text = announcement("10.1.2.3", 8080)
    assert url == join_url("10.1.2.3", 8080) == "http://10.1.2.3:8080/"
    first, *qr = text.splitlines()
    assert first == "Students open http://10.1.2.3:8080/ on the room's network, or scan:"
    assert len(qr) > 10 and len({len(line) for line in qr}) == 1 and set("".join(qr)) <= set("█▀▄ ")
    no_url, said = announcement(None, 8080)
    assert no_url is None and "cannot reach it" in said and "port 8080" in said


def test_the_reach_block_escapes_the_address_and_carries_its_qr_code():
    hostile = 'http://x/"><script>alert(1)</script>'
    block = reach_html(ClassAddress(hostile))
    assert "<script>" not in block and "&lt;script&gt;alert(1)&lt;/script&gt;" in block
    src = block.split('src="', 1)[1].split('"', 1)[0]
    assert src.startswith("data:image/svg+xml") and "<" not in src and '"' not in src
    assert unquote(src.split(",", 1)[1]).startswith("<svg")


def test_the_qr_code_has_the_quiet_zone_of_four_modules_at_eight_pixels_each():
    """By hand: 21 characters at error level M need QR version 2 (version 1-M holds 14), 25 modules a side; with
    the 4-module quiet zone the standard asks for on each side, 33 modules of 8 pixels: 264 pixels."""
    svg = unquote(qr_svg_data_uri("http://10.0.0.7:8501/").split(",", 1)[1])
    assert "width='264' height='264'" in svg and "scale(8)" in svg


def test_the_reach_block_says_the_problem_instead():
    block = reach_html(ClassAddress(None, "Start it with make class & <friends>."))
    assert "<img" not in block and "Start it with make class &amp; &lt;friends&gt;." in block


@pytest.mark.parametrize(
    ("url", "only_here"),
    [
        ("http://localhost:8501/Class?join=ABCDE", True),  # make run's address
        ("http://LOCALHOST:8501/", True),
        ("http://app.localhost/", True),  # RFC 6761: every name under localhost is this machine
        ("http://127.0.0.1:8501/", True),  # the browser tests' server
        ("http://127.1.2.3/", True),  # all of 127/8 is loopback
        ("http://[::1]:8501/", True),
        ("http://10.0.0.7:8501/", False),  # the room's network
        ("http://[fd00::2]:8501/", False),
        ("https://bpe.example.org/Class", False),  # a name: a proxy's, which phones may reach
        ("http://localhost.example.org/", False),
    ],
)
def test_an_address_of_this_machine_s_own_is_told_apart(url, only_here):
    assert this_machine_only(url) is only_here


def test_a_class_on_this_machine_only_says_so_and_shows_no_qr_code():
    problem = "This server listens on this machine only: start it with make class to let a class in."
    here = join_here("http://localhost:8501/Class?join=ABCDE", problem)
    assert here.problem == f"Phones cannot reach this address: it is this machine's own. {problem}"
    block = reach_html(here)
    assert "<img" not in block and "start it with make class" in block
    assert '<div class="bpe-url">http://localhost:8501/Class?join=ABCDE</div>' in block  # for another window
    behind_a_proxy = join_here("https://bpe.example.org/Class?join=ABCDE", problem)
    assert behind_a_proxy == ClassAddress("https://bpe.example.org/Class?join=ABCDE")
    assert 'alt="QR code of https://bpe.example.org/Class?join=ABCDE"' in reach_html(behind_a_proxy)
