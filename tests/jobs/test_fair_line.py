"""The job line is fair between visitors: they take turns one job each, each visitor's jobs keep their order, each
waiting job is told its place (only the jobs served before it count), a page that closes leaves the line clean,
and a visitor with too many jobs is refused one more, in words.

Every job here is a thread holding a slot until the test lets it finish; the order of service is worked out by
hand: visitors who wait are served once a round, in the order they came, a visitor's next job in the next round.
Nothing is timed: the test waits for events (a job started, a place told), with a generous timeout for a failure.
"""

from __future__ import annotations

import queue
import threading

import pytest

from jobs import Budget, Slots, TooManyJobs, run_job
from jobs.budget import jobs_per_visitor

TIMEOUT = 10  # seconds: reached only when a test fails


class PageClosed(Exception):
    """What Streamlit raises in a callback when the page that waits was closed or asked again."""


class Line:
    """Jobs in ``slots``, each a thread that holds its slot until :meth:`finish` lets it go."""

    def __init__(self, slots: Slots):
        self.slots = slots
        self.started: queue.Queue[str] = queue.Queue()  # names, in the order their jobs took a slot
        self.places: dict[str, list[int]] = {}  # name -> every place it was told, in order
        self.stopped: dict[str, BaseException] = {}  # name -> what ended its wait
        self._told = threading.Condition()
        self._threads: dict[str, tuple[threading.Thread, threading.Event]] = {}

    def add(self, name: str, visitor: str, closed: threading.Event | None = None) -> None:
        """Queue ``visitor``'s job ``name``; return once it waits in line or runs. Once ``closed`` is set, its page
        raises when next told its place."""
        release, arrived = threading.Event(), threading.Event()

        def told(place: int) -> None:
            with self._told:
                self.places.setdefault(name, []).append(place)
                self._told.notify_all()
            arrived.set()
            if closed is not None and closed.is_set():
                raise PageClosed

        def job() -> None:
            try:
                with self.slots.held(on_wait=told, visitor=visitor):
                    self.started.put(name)
                    arrived.set()
                    release.wait(TIMEOUT)
            except (PageClosed, TooManyJobs) as error:
                self.stopped[name] = error
                arrived.set()

        thread = threading.Thread(target=job, daemon=True)
        self._threads[name] = (thread, release)
        thread.start()
        assert arrived.wait(TIMEOUT)

    def finish(self, name: str) -> None:
        thread, release = self._threads[name]
        release.set()
        thread.join(TIMEOUT)

    def close(self) -> None:
        """Let every job finish, and wait for their threads."""
        for _, release in self._threads.values():
            release.set()
        for thread, _ in self._threads.values():
            thread.join(TIMEOUT)

    def ended(self, name: str) -> BaseException | None:
        """Once the thread of ``name`` ended: what stopped its wait, if anything did."""
        self._threads[name][0].join(TIMEOUT)
        return self.stopped.get(name)

    def next_started(self) -> str:
        return self.started.get(timeout=TIMEOUT)

    def last_places(self, names) -> dict[str, int]:
        return {name: self.places[name][-1] for name in names if self.places.get(name)}

    def told(self, expected: dict[str, int]) -> dict[str, int]:
        """The places last told to the jobs of ``expected``, once they are ``expected`` (or at the timeout)."""
        with self._told:
            self._told.wait_for(lambda: self.last_places(expected) == expected, TIMEOUT)
            return self.last_places(expected)


@pytest.fixture
def line_of():
    """``line_of(slots)``: a :class:`Line` whose jobs are all let go at the end of the test."""
    lines: list[Line] = []
    yield lambda slots: lines.append(Line(slots)) or lines[-1]
    for line in lines:
        line.close()


@pytest.mark.parametrize("at_once", [1, 2])
def test_a_visitor_with_many_jobs_waiting_delays_anothers_first_job_by_one_job_at_most(line_of, at_once):
    line = line_of(Slots(at_once))
    tabs = [f"a{tab}" for tab in range(1, 7)]  # the six tabs of one visitor
    for name in tabs:
        line.add(name, "A")
    assert [line.next_started() for _ in range(at_once)] == tabs[:at_once]
    line.add("b1", "B")
    waiting = {"b1": 1} | {name: place for place, name in enumerate(tabs[at_once:], start=2)}
    assert line.told(waiting) == waiting
    line.finish("a1")
    assert line.next_started() == "b1"  # after the first job to end of those running: none of A's waiting ones


def test_visitors_take_turns_and_each_keeps_its_order_and_is_told_its_place(line_of):
    line = line_of(Slots(1))
    line.add("h", "H")
    assert line.next_started() == "h"
    for name, visitor in [("a1", "A"), ("a2", "A"), ("a3", "A"), ("a4", "A"), ("b1", "B"), ("b2", "B"), ("c1", "C")]:
        line.add(name, visitor)
    # rounds by hand: a1 b1 c1 | a2 b2 | a3 | a4 (each round in the order its visitors came)
    order = ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]
    running, all_in_line = "h", {}
    for served, name in enumerate(order):
        waiting = {other: place for place, other in enumerate(order[served:], start=1)}
        assert line.told(waiting) == waiting  # a place counts only the jobs served before it
        all_in_line = all_in_line or {other: len(line.places[other]) - 1 for other in order}
        line.finish(running)
        running = line.next_started()
        assert running == name
    line.finish(running)
    for name in order:  # once all were in line, each place only went down, to 1 before its turn
        told = line.places[name][all_in_line[name] :]
        assert told == sorted(told, reverse=True) and told[0] == order.index(name) + 1 and told[-1] == 1
    assert (line.slots.running, line.slots.waiting) == (0, 0)


def test_jobs_of_anonymous_callers_are_served_in_the_order_they_came(line_of):
    slots = Slots(1)
    line = line_of(slots)
    with slots.held():  # a caller naming no visitor is one of its own
        for name in ("first", "second", "third"):
            line.add(name, None)
    assert line.next_started() == "first"
    line.finish("first")
    assert line.next_started() == "second"
    line.finish("second")
    assert line.next_started() == "third"
    line.finish("third")


def test_a_page_closed_while_waiting_leaves_the_line_clean(line_of):
    slots, closed = Slots(1, per_visitor=1), threading.Event()
    line = line_of(slots)
    line.add("h", "H")
    assert line.next_started() == "h"
    line.add("a1", "A", closed=closed)
    line.add("b1", "B")
    assert line.told({"a1": 1, "b1": 2}) == {"a1": 1, "b1": 2}
    closed.set()  # told its place again within the poll, its page raises: the place is given up
    assert isinstance(line.ended("a1"), PageClosed)
    assert line.told({"b1": 1}) == {"b1": 1}
    assert (slots.waiting, slots.jobs_of("A")) == (1, 0)
    line.add("a2", "A")  # A holds nothing now: not refused, and behind B, who came first
    assert line.told({"b1": 1, "a2": 2}) == {"b1": 1, "a2": 2}
    line.finish("h")
    assert line.next_started() == "b1"
    line.finish("b1")
    assert line.next_started() == "a2"
    line.finish("a2")
    assert (slots.running, slots.waiting) == (0, 0)


def test_a_visitor_with_its_jobs_in_line_is_refused_one_more_in_words(line_of):
    slots = Slots(1, per_visitor=2)
    line = line_of(slots)
    line.add("a1", "A")
    line.add("a2", "A")
    with pytest.raises(TooManyJobs) as refused:
        with slots.held(visitor="A"):
            pass  # never reached
    assert str(refused.value) == (
        "you already have 2 jobs waiting or running on this server, the most one visitor may have at once (the "
        "server's BPE_JOBS_PER_VISITOR sets it): let one finish, or close a tab that waits for one"
    )
    assert isinstance(refused.value, ValueError) and slots.waiting == 1  # the refused one never joined
    line.add("b1", "B")  # another visitor is not refused
    line.finish(line.next_started())
    assert line.next_started() == "b1"  # B's first job comes before A's second, which waited longer
    line.add("a3", "A")  # one of A's two finished: room for one more
    assert slots.jobs_of("A") == 2
    for name in ("b1", "a2", "a3"):
        line.finish(name)


def test_a_job_names_its_visitor_and_is_refused_before_it_takes_a_worker():
    slots = Slots(2, per_visitor=1)
    with slots.held(visitor="203.0.113.9"):
        with pytest.raises(TooManyJobs, match="you already have 1 job waiting or running"):
            run_job(abs, -1, budget=Budget(memory_mb=256, seconds=30), slots=slots, visitor="203.0.113.9")
        assert (slots.running, slots.waiting) == (1, 0)


def test_the_jobs_a_visitor_may_have_from_the_environment():
    assert jobs_per_visitor({}) == 3 and jobs_per_visitor({"BPE_JOBS_PER_VISITOR": "5"}) == 5
    assert Slots.from_environment({"BPE_JOBS_PER_VISITOR": "4"}).per_visitor == 4
    with pytest.raises(ValueError, match="BPE_JOBS_PER_VISITOR=0: not a whole number above 0"):
        jobs_per_visitor({"BPE_JOBS_PER_VISITOR": "0"})
