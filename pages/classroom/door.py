"""The teacher's door of a live class, below the class beside End class: who is in (a Students popover, a Remove
button each) and whether anyone new may join (Lock the class / Open the class). A student removed can come back
only by joining again, under any name, while the class is open."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import streamlit as st

from drawing.escape import markdown
from live_class.bidi import isolated
from live_class.room import TeacherRoom
from live_class.rules import ClassProblem

STUDENTS_KEY = "class_students"  # the Students popover: open, it asks the store again
_SAID_KEY = "class_door_said"  # what the door's last action said: who was removed, or why it was refused
LOCK_LABEL = "Lock the class: no new students"
OPEN_LABEL = "Open the class"


def _act(place: str, action: Callable[[], str]) -> None:
    """A door button's callback: runs before the page is drawn again, so the class drawn is the class after it;
    what it said is kept for ``place`` ("students": the popover, "row": below the row) to show, a problem too (in a
    callback it would be a traceback)."""
    try:
        said = action()
    except ClassProblem as problem:
        said = str(problem)
    st.session_state[_SAID_KEY] = (place, said)


def said(place: str) -> None:
    """What the door's last action at ``place`` said, once."""
    if st.session_state.get(_SAID_KEY, ("", ""))[0] == place:
        st.caption(markdown(st.session_state.pop(_SAID_KEY)[1]))


def _removed(teacher: TeacherRoom, student: str) -> str:
    name = isolated(teacher.remove(student))
    return f"{name} is out of the class: their votes no longer count, and their phone asks them to join again."


def _lock(teacher: TeacherRoom, locked: bool) -> str:
    """Nothing to say when it worked: the button's label turns, and the projector's join line shows Locked."""
    if locked:
        teacher.lock()
    else:
        teacher.unlock()
    return ""


def _remove_key(student: str) -> str:
    """A Remove button's key: the same student's button keeps it while others join or leave; the student's id
    itself (what their phone holds to be them) stays off the teacher's page."""
    return f"class_remove_{hashlib.sha256(student.encode()).hexdigest()[:12]}"


def door(teacher: TeacherRoom, locked: bool) -> None:
    """The Students popover and the lock button, in the row below the class (what they said: ``said("row")``
    below the row)."""
    # on_change="rerun": opening the popover draws the page again, so its list holds whoever joined since
    with st.popover("Students", icon=":material/group:", key=STUDENTS_KEY, on_change="rerun"):
        said("students")
        _students(teacher)
    label, icon = (OPEN_LABEL, ":material/lock_open:") if locked else (LOCK_LABEL, ":material/lock:")
    st.button(label, icon=icon, on_click=_act, args=("row", lambda: _lock(teacher, not locked)))


def _students(teacher: TeacherRoom) -> None:
    """Each student in the class, as a Remove button named after them (their name as they typed it)."""
    try:
        students = teacher.store.students(teacher.code)
    except ClassProblem as problem:  # the store did not answer
        st.caption(markdown(str(problem)))
        return
    if not students:
        st.caption("Nobody is in the class.")
    for student, name in students.items():
        st.button(
            f"Remove {markdown(isolated(name))}",
            key=_remove_key(student),
            icon=":material/person_remove:",
            on_click=_act,
            args=("students", lambda student=student: _removed(teacher, student)),
        )
    if students:
        st.caption("A student removed can come back only by joining again: lock the class to keep them out.")
