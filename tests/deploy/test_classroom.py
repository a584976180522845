"""The classroom deployment, run small: two app replicas behind nginx (Debian's, as `make classroom` runs it), with
students that speak Streamlit's websocket protocol (bench/classroom). Skipped without /usr/sbin/nginx unless
BPE_REQUIRE_NGINX=1 (CI installs nginx and sets it)."""

from __future__ import annotations

import asyncio
import os
import re

import pytest
from support.deploy import needs, run_students

from bench.classroom.__main__ import load_test
from bench.classroom.cluster import NGINX, running_classroom
from bench.classroom.student import Student, seat_on_every_replica
from bench.servers import answers_ok, free_port
from pages.classroom.views.address import join_url, network_address

pytestmark = pytest.mark.slow

# Corpora no KJV token contains, so each word shows up only on the page of the student who trained it.
PASTED = {0: "zzq zzq zzq", 1: "xxj xxj xxj"}  # student index -> text; students 0 and 1 sit on different replicas
SAMPLE_LABEL = "Trained on: Real text: King James Bible"


@pytest.fixture(scope="module")
def classroom():
    needs(NGINX, os.access(NGINX, os.X_OK), "BPE_REQUIRE_NGINX")
    with running_classroom(replicas=2) as running:
        yield running


async def train_then_come_back(student: Student, pasted: str | None) -> None:
    """Enter, open Train (the root is Start), train the pasted text (or the sample as it is), open Merges, then Train
    again."""
    await student.enter()
    await student.open_page("Train")
    if pasted is not None:
        await student.choose("Corpus", "Paste your own text")
        await student.type_text("Your text", pasted)
    await student.press("Train")
    await student.open_page("Merges")
    await student.open_page("Train")


def test_students_on_two_replicas_each_see_only_their_own_training(classroom):
    async def lesson():
        # Seated in rounds: students 0 and 1 on replicas 1 and 2, then students 2 and 3 on replicas 1 and 2.
        students = await seat_on_every_replica(classroom, per_replica=2)
        try:
            await asyncio.gather(
                *(train_then_come_back(student, PASTED.get(index)) for index, student in enumerate(students))
            )
        finally:
            await asyncio.gather(*(student.leave() for student in students))
        return students

    students = run_students(lesson)
    replicas = [student.replica for student in students]
    assert replicas[0] != replicas[1] and replicas[2:] == replicas[:2]
    pages = [student.shown_text() for student in students]
    for index, words in PASTED.items():
        word = words.split()[0]
        assert "Trained on: your pasted text" in pages[index]
        # z z, zz q, Ġ zzq: three merges over the 256 bytes (the byte-level default)
        assert "Current model: a vocabulary of 259 tokens, 3 of them made by merges" in pages[index]
        assert [word in page for page in pages] == [i == index for i in range(4)]
    for index in (2, 3):  # the sample students, one beside each pasting student
        assert SAMPLE_LABEL in pages[index]
        assert "Current model: a vocabulary of 2,256 tokens, 2,000 of them made by merges" in pages[index]


def test_a_students_page_and_websocket_stay_on_one_replica(classroom):
    async def tour():
        student = Student(classroom.url)
        await student.classroom_tour()  # enter() refuses a websocket from another replica than the page
        return student

    student = run_students(tour)
    assert student.problems == []
    assert list(student.times) == [
        "load the app",
        "open the Train page",
        "train the sample",
        "open the Merges page",
        "open the Encode page",
        "encode a paragraph",
        "open the Compare page",
    ]
    assert student.replica in [replica.address for replica in classroom.replicas]


def test_five_students_take_the_tour_through_the_balancer_as_make_classroom_test_does(classroom, capsys):
    """The short version of ``make classroom-test``: every session completes, and the summary says so."""
    completed = run_students(lambda: load_test(classroom, students=5))
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert completed is True
    assert re.fullmatch(
        r"classroom: 5/5 sessions completed, p50 \d+\.\d\d s, p95 \d+\.\d\d s per action, 2 replicas", last_line
    )


def test_a_classroom_on_every_interface_shows_students_its_address():
    """make classroom: nginx listens on the room's network, and the Class page names nginx's address."""
    host = network_address()
    if host is None:
        pytest.skip("this machine has only loopback: no room's network to serve")
    if not os.access(NGINX, os.X_OK):
        pytest.skip(f"{NGINX} is missing: apt-get install nginx")
    port = free_port()
    url = join_url(host, port)
    with running_classroom(replicas=1, port=port, listen="0.0.0.0", class_url=url):
        assert answers_ok(f"{url}_stcore/health")  # through nginx, at the network address

        async def lesson():
            student = Student(url.rstrip("/"))
            await student.enter()
            await student.open_page("Class")
            return student.shown_text()

        assert url in run_students(lesson)
