"""Two visitors are two behind the proxy: nginx, from the shipped template, listens on 127.0.0.2 and reaches one app
replica from 127.0.0.2 (``proxy_bind``), so the app sees nginx at another address than 127.0.0.1 and believes the
visitor's address (X-Forwarded-For) from that address alone (``BPE_TRUSTED_PROXY=127.0.0.2``, as ``make classroom``
sets it). Visitors connect from addresses of their own on this machine (127.0.0.3, ...), speaking Streamlit's
protocol. Skipped without /usr/sbin/nginx unless BPE_REQUIRE_NGINX=1."""

from __future__ import annotations

import os
import re

import pytest
from test_classroom import run_students

from bench.classroom.cluster import NGINX, PROXY_ADDRESS, running_classroom
from bench.classroom.student import Student
from live_class.limits import CLASS_STARTS

pytestmark = pytest.mark.slow

STARTED = re.compile(r"/Class\?join=[A-Z2-9]{5}\b")  # the address students join at, with its code
REFUSED = "the most it may"


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    if not os.access(NGINX, os.X_OK):
        if os.environ.get("BPE_REQUIRE_NGINX") == "1":
            pytest.fail(f"{NGINX} is missing (BPE_REQUIRE_NGINX=1)")
        pytest.skip(f"{NGINX} is missing: apt-get install nginx")
    store = f"sqlite:///{tmp_path_factory.mktemp('store')}/classes.sqlite3"
    with running_classroom(replicas=1, listen=PROXY_ADDRESS, class_store=store) as running:
        yield running


async def start_a_class(url: str, source: str, headers: dict[str, str] | None = None) -> str:
    """A new tab from ``source`` presses "Start a class": what the Class page then says."""
    tab = Student(url, source_address=source, headers=headers)
    try:
        await tab.enter()
        await tab.open_page("Class")
        await tab.press("Start a class")
        return tab.shown_text()
    finally:
        await tab.leave()


def test_each_visitor_through_the_proxy_has_limits_of_its_own_and_a_forged_header_is_not_believed(classroom):
    replica = f"http://{classroom.replicas[0].address}"

    async def visits():
        first = [await start_a_class(classroom.url, "127.0.0.3") for _ in range(CLASS_STARTS[0] + 1)]
        second = await start_a_class(classroom.url, "127.0.0.4")
        # Straight to the replica, naming the first visitor: counted as the address it comes from, not the one it names.
        forged = await start_a_class(replica, "127.0.0.5", {"X-Forwarded-For": "127.0.0.3"})
        # Through nginx with a header of its own: nginx writes the address it saw in its place.
        written = await start_a_class(classroom.url, "127.0.0.6", {"X-Forwarded-For": "127.0.0.3"})
        return first, second, forged, written

    first, second, forged, written = run_students(visits)
    assert [REFUSED in page for page in first] == [False] * CLASS_STARTS[0] + [True], first[-1]
    assert "This address has started 5 classes in the last 10 minutes" in first[-1]
    for page in (*first[:-1], second, forged, written):
        assert REFUSED not in page and STARTED.search(page), page[-300:]
