"""The Class page holds one address to its bounds: the sixth class started from one address in ten minutes is refused
in words, and a join past the bound too; a browser on the server's own machine is not held back."""

from __future__ import annotations

import contextlib
import time

import pytest
from support.pages import everything_shown, plain, press, through_app

from live_class import room
from live_class.choose import STORE_ENV
from live_class.limits import CLASS_STARTS
from live_class.rules import ClassProblem
from pages.classroom import state as classroom_state
from session import state
from session.page_registry import CLASS


@pytest.fixture
def from_one_address(monkeypatch, tmp_path):
    """Every session comes from 203.0.113.9 (a documentation address), counted afresh in a store of its own."""
    monkeypatch.setattr(state, "visitor_address", lambda: "203.0.113.9")
    monkeypatch.setenv(STORE_ENV, f"sqlite:///{tmp_path}/classes.sqlite3")
    state.class_store.clear()
    yield
    state.class_store.clear()  # the next test's pages open the store of the environment again


def test_one_address_starts_at_most_its_classes_then_hears_why(from_one_address):
    most = CLASS_STARTS.most
    started = []
    for _ in range(most):
        teacher = press(through_app(CLASS.path), "Start a class")
        started.append(teacher.session_state[classroom_state.TEACHING_KEY])
    refused = press(through_app(CLASS.path), "Start a class")
    assert "This address has started 5 classes in the last 10 minutes, the most it may" in plain(
        everything_shown(refused)
    )
    assert classroom_state.TEACHING_KEY not in refused.session_state
    for code, teacher_key in started:
        with contextlib.suppress(ClassProblem):
            room.end_class(state.class_store(), code, teacher_key, time.time())
