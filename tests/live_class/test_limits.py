"""What one address may ask: classes started and joins, in a sliding window each; and a class's size."""

from __future__ import annotations

import pytest

from live_class import room
from live_class.limits import CLASS_STARTS, JOINS, RateLimit, too_often, visitor
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
