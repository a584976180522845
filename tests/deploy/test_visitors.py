"""Fair to every visitor, behind the proxy and across replicas. Two visitors are two: nginx, from the shipped
template, listens on 127.0.0.2 and reaches one app replica from 127.0.0.2 (``proxy_bind``), so the app sees nginx
at another address than 127.0.0.1 and believes the visitor's address (X-Forwarded-For) from that address alone
(``BPE_TRUSTED_PROXY=127.0.0.2``, as ``make classroom`` sets it). Visitors connect from addresses of their own on
this machine (127.0.0.3, ...), speaking Streamlit's protocol. And one visitor is one on every replica: two replicas
sharing Redis count its classes together. Skipped without /usr/sbin/nginx (or redis-server) unless
BPE_REQUIRE_NGINX=1 (BPE_REQUIRE_REDIS=1)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil

import pytest
from support.deploy import needs, run_students

from bench.classroom.cluster import NGINX, PROXY_ADDRESS, Classroom, running_classroom, running_redis
from bench.classroom.student import SEATING_TRIES, Student
from live_class.limits import CLASS_STARTS

pytestmark = pytest.mark.slow

STARTED = re.compile(r"/Class\?join=[A-Z2-9]{5}\b")  # the address students join at, with its code
REFUSED = "the most it may"


@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    needs(NGINX, os.access(NGINX, os.X_OK), "BPE_REQUIRE_NGINX")
    store = f"sqlite:///{tmp_path_factory.mktemp('store')}/classes.sqlite3"
    with running_classroom(replicas=1, listen=PROXY_ADDRESS, class_store=store) as running:
        yield running


async def start_a_class(url: str, source: str, headers: dict[str, str] | None = None) -> str:
    """A new tab from ``source`` presses "Start a class": what the Class page then says."""
    return await start_in(Student(url, source_address=source, headers=headers))


async def start_in(tab: Student) -> str:
    """``tab`` presses "Start a class" on the Class page: what the page then says."""
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
        first = [await start_a_class(classroom.url, "127.0.0.3") for _ in range(CLASS_STARTS.most + 1)]
        second = await start_a_class(classroom.url, "127.0.0.4")
        # Straight to the replica, naming the first visitor: counted as the address it comes from, not the one it names.
        forged = await start_a_class(replica, "127.0.0.5", {"X-Forwarded-For": "127.0.0.3"})
        # Through nginx with a header of its own: nginx writes the address it saw in its place.
        written = await start_a_class(classroom.url, "127.0.0.6", {"X-Forwarded-For": "127.0.0.3"})
        return first, second, forged, written

    first, second, forged, written = run_students(visits)
    assert [REFUSED in page for page in first] == [False] * CLASS_STARTS.most + [True], first[-1]
    assert "This address has started 5 classes in the last 10 minutes" in first[-1]
    for page in (*first[:-1], second, forged, written):
        assert REFUSED not in page and STARTED.search(page), page[-300:]


async def tab_on(classroom: Classroom, replica: str, source: str) -> Student:
    """A new tab from ``source`` that the balancer sent to ``replica`` (tabs get a random one: new ones until then)."""
    for _ in range(SEATING_TRIES):
        tab = Student(classroom.url, source_address=source)
        await asyncio.to_thread(tab.load_front_page)
        if tab.replica == replica:
            return tab
    raise AssertionError(f"the balancer sent no tab to {replica} in {SEATING_TRIES} tries")


def test_one_visitor_on_two_replicas_sharing_a_store_has_its_limits_once():
    """Three classes started on each replica in turn: counted by each replica apart, the sixth would pass (three
    there); counted in the shared store, it is the sixth and refused."""
    needs(NGINX, os.access(NGINX, os.X_OK), "BPE_REQUIRE_NGINX")
    needs("redis-server", shutil.which("redis-server") is not None, "BPE_REQUIRE_REDIS")
    with running_redis() as store, running_classroom(replicas=2, class_store=store) as classroom:

        async def visits():
            pages = []
            for _ in range(3):
                for replica in classroom.replicas:
                    tab = await tab_on(classroom, replica.address, "127.0.0.7")
                    pages.append(await start_in(tab))
            return pages

        pages = run_students(visits)
    assert [REFUSED in page for page in pages] == [False] * CLASS_STARTS.most + [True], pages[-1][-300:]
