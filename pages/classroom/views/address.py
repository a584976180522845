"""Where students reach the app: this machine's address on the room's network, the link they type, its QR code.

``make class`` and ``make classroom`` put the address students type in ``BPE_CLASS_URL`` (behind nginx the port
students use is nginx's, not the replica's); without it, the page works the address out from how Streamlit listens.

>>> join_url("192.168.1.20", 8501)
'http://192.168.1.20:8501/'
>>> class_address("", "0.0.0.0", 8080, "10.0.0.7").url
'http://10.0.0.7:8080/'
>>> class_address("", "localhost", 8501, "10.0.0.7").url is None
True
"""

from __future__ import annotations

import io
import ipaddress
import socket
from typing import NamedTuple
from urllib.parse import urlsplit

import segno

CLASS_URL_ENV = "BPE_CLASS_URL"  # the address students type, set by make class and make classroom
EVERY_INTERFACE = ("", "0.0.0.0", "::")  # Streamlit's server.address values that listen on the room's network
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1: a UDP socket "connected" there sends nothing, it only picks a route


class ClassAddress(NamedTuple):
    """The address students type (None when they cannot reach this server) and, if None, why not."""

    url: str | None
    problem: str = ""


def network_address() -> str | None:
    """This machine's IPv4 address on its network: the one its default route leaves from, else one its name
    resolves to; None when it has only loopback (no network a student could share)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            candidates = [probe.getsockname()[0]]
    except OSError:  # no route at all
        candidates = []
    try:
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    return next((host for host in candidates if not ipaddress.ip_address(host).is_loopback), None)


def join_url(host: str, port: int, page: str = "") -> str:
    """The address of ``page`` (the app's root by default) on ``host``: an IPv6 host is bracketed.

    >>> join_url("fd00::2", 8080, "Class")
    'http://[fd00::2]:8080/Class'
    """
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{page}"


def class_address(env_url: str, server_address: str | None, port: int, host: str | None) -> ClassAddress:
    """The address to give students: the one ``make class`` set (``env_url``), else this machine's ``host`` when
    Streamlit listens on every interface; else None and the reason (``make run`` listens on localhost only).

    >>> class_address("http://class.example:8080/", "0.0.0.0", 8501, None).url
    'http://class.example:8080/'
    >>> class_address("", None, 8501, None).problem
    "This machine has no network address besides localhost: connect it to the room's network first."
    """
    if env_url.strip():
        return ClassAddress(env_url.strip())
    if (server_address or "") not in EVERY_INTERFACE:
        return ClassAddress(
            None, "This server listens on this machine only: start it with make class to let a class in."
        )
    if host is None:
        return ClassAddress(
            None, "This machine has no network address besides localhost: connect it to the room's network first."
        )
    return ClassAddress(join_url(host, port))


def this_machine_only(url: str) -> bool:
    """Whether ``url`` names this machine by its own name for itself (localhost, 127.x.x.x, ::1), which on a phone
    names the phone.

    >>> this_machine_only("http://localhost:8501/Class"), this_machine_only("http://127.0.0.1:8501/")
    (True, True)
    >>> this_machine_only("http://[::1]:8501/"), this_machine_only("http://10.0.0.7:8501/")
    (True, False)
    >>> this_machine_only("https://bpe.example.org/Class")
    False
    """
    host = (urlsplit(url).hostname or "").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: a proxy's or the room's, which phones may reach
        return False


def join_here(url: str, problem: str) -> ClassAddress:
    """The address of a class this browser reaches the server by, when students' phones cannot reach the server
    (``problem``, from ``class_address``): with the problem still said when ``url`` is this machine's own name,
    which no phone can open.

    >>> join_here("http://localhost:8501/Class?join=ABCDE", "Start it with make class.").problem
    "Phones cannot reach this address: it is this machine's own. Start it with make class."
    >>> join_here("https://bpe.example.org/Class?join=ABCDE", "Start it with make class.").problem
    ''
    """
    if not this_machine_only(url):
        return ClassAddress(url)
    return ClassAddress(url, f"Phones cannot reach this address: it is this machine's own. {problem}")


def qr_svg_data_uri(url: str) -> str:
    """``url`` as a QR code, an SVG picture in a ``data:`` address for an ``<img>`` (st.html keeps no inline SVG);
    dark on white with a quiet zone, as phone cameras read it best.

    >>> qr_svg_data_uri("http://10.0.0.7:8501/").startswith("data:image/svg+xml")
    True
    """
    return segno.make(url, error="m").svg_data_uri(scale=8, border=4, dark="#000", light="#fff")


def qr_terminal(url: str) -> str:
    """``url`` as a QR code drawn with block characters, for a terminal (two rows of modules a line).

    >>> set(qr_terminal("http://10.0.0.7:8501/")) <= set("█▀▄ \\n")
    True
    """
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def announcement(host: str | None, port: int) -> tuple[str | None, str]:
    """What ``make class`` and ``make classroom`` print before serving: the address students type (also returned,
    for the Class page) and its QR code; or, with no network address, why students cannot reach it yet.

    >>> url, text = announcement("10.0.0.7", 8080)
    >>> url, text.splitlines()[0]
    ('http://10.0.0.7:8080/', "Students open http://10.0.0.7:8080/ on the room's network, or scan:")
    >>> announcement(None, 8080)[0] is None
    True
    """
    if host is None:
        return None, (
            "This machine has no network address besides localhost, so students cannot reach it yet: connect it to "
            f"the room's network. Serving on every interface, port {port}, anyway."
        )
    url = join_url(host, port)
    return url, f"Students open {url} on the room's network, or scan:\n{qr_terminal(url)}"
