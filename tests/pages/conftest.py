"""The page tests' fixtures."""

from __future__ import annotations

import contextlib
import time

import pytest
from support.pages import press, through_app

from live_class import room
from live_class.choose import open_store
from live_class.rules import ClassProblem
from pages.classroom import state as classroom_state
from session.page_registry import CLASS


@pytest.fixture
def teacher():
    """A teacher's session with a class started; the class ends after the test (a running class bounds the
    trainings of its teacher and students)."""
    at = press(through_app(CLASS.path), "Start a class")
    yield at
    code, key = at.session_state[classroom_state.TEACHING_KEY]
    with contextlib.suppress(ClassProblem):
        room.end_class(open_store(), code, key, time.time())
