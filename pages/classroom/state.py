"""The Class page's own state: the address students type (worked out once per server process) and the session's
role in a class (the class store is ``session.state.class_store``). The teacher's key lives only here, in the teacher's
server-side session: it never reaches an address or a student's browser.

The page's address: the class a student joins (``join=CODE``), nothing more. Who a student is, like who the teacher
is, stays in their session and their own browser's cookie (``class_cookies``): an address that is copied or shared
makes nobody a student or the teacher.

>>> read_class_link({"join": "abc23", "student": "s" * 16})
('ABC23', ['student=ssssssssssssssss: an address does not say who you are (this browser remembers it)'])
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

import streamlit as st

from live_class import rules
from live_class.limits import CLASS_STARTS, JOINS, too_often
from live_class.records import ClassRecord
from live_class.store import ClassStore, StoreUnavailable
from pages.classroom.class_cookies import forget, remembered
from pages.classroom.views.address import CLASS_URL_ENV, ClassAddress, class_address, network_address
from session import state

JOIN_PARAM = "join"  # the page's address: the class's code
STUDENT_PARAM = "student"  # an older address's student id: refused, with a warning
TEACHING_KEY = "class_teaching"  # (code, teacher key) of the class this session teaches
STUDYING_KEY = "class_studying"  # (code, student id) of the class this session joined
SENTENCE_KEY = "class_sentence"  # the count question's sentence, as the teacher typed it
COUNTED_BY_KEY = "class_counted_by"  # who counts its tokens: GPT-4 or the class's model
LANGUAGES_KEY = "class_languages"  # the languages question's languages (counted by COUNTED_BY_KEY's choice)
NAME_KEY = "class_name"  # "Your name"
GUESS_KEY = "class_guess"  # a student's token-count guess
WORD_KEY = "class_word"  # the split question's word, as the teacher typed it
WORD_OFFERED_KEY = "class_word_offered"  # the word its box first holds: the corpus's longest word shown
CUTS_KEY = "class_cuts"  # a student's cuts in the split question's word (with the question's number after it)
REVEAL_KEY = "class_revealed"  # the container of the projector's answer, scrolled into view after Reveal
FINAL_KEY = "class_final"  # (code, scoreboard) of the class this session ended, kept until it starts another


@st.cache_resource(max_entries=1, show_spinner=False)
def _this_machine() -> str | None:
    return network_address()


def students_address() -> ClassAddress:
    """Where students reach this server (``pages.classroom.views.address.class_address``)."""
    return class_address(
        os.environ.get(CLASS_URL_ENV, ""),
        st.get_option("server.address"),
        st.get_option("server.port"),
        _this_machine(),
    )


def now() -> float:
    return time.time()


RATE_LIMITS = {"started": CLASS_STARTS, "joined": JOINS}  # what one address may do, by action


def refused_as_too_often(action: str) -> str:
    """Why this session's address may not do ``action`` ("started" a class, "joined" one) now, or nothing when it
    may (the action is then counted against its address, in the class store: every replica sharing it counts it)."""
    limit, address = RATE_LIMITS[action], state.visitor_address()
    if address is None:
        return ""
    try:
        counted = state.class_store().count_in_window(f"{action}:{address}", now(), *limit)
    except StoreUnavailable as problem:
        return str(problem)
    return "" if counted else too_often(action, limit)


def teaching() -> tuple[str, str] | None:
    """(code, teacher key) if this session started a class."""
    return st.session_state.get(TEACHING_KEY)


def start_teaching(code: str, teacher_key: str) -> None:
    st.session_state[TEACHING_KEY] = (code, teacher_key)
    for key in (STUDYING_KEY, FINAL_KEY):
        st.session_state.pop(key, None)


def end_teaching(code: str, scoreboard: list[tuple[str, int]]) -> None:
    """This session ended its class: it leaves the class and keeps the class's final ``scoreboard``."""
    leave_class()
    st.session_state[FINAL_KEY] = (code, scoreboard)


def final_scoreboard() -> tuple[str, list[tuple[str, int]]] | None:
    """(code, scoreboard) of the class this session ended last, until it starts another."""
    return st.session_state.get(FINAL_KEY)


def studying() -> tuple[str, str] | None:
    """(code, student id) if this session joined a class."""
    return st.session_state.get(STUDYING_KEY)


def start_studying(code: str, student: str) -> None:
    st.session_state[STUDYING_KEY] = (code, student)


def leave_class() -> None:
    for key in (TEACHING_KEY, STUDYING_KEY):
        st.session_state.pop(key, None)


def class_params(code: str | None) -> dict[str, str]:
    """
    >>> class_params("ABC23"), class_params(None)
    ({'join': 'ABC23'}, {})
    """
    return {JOIN_PARAM: code} if code else {}


def read_class_link(params: Mapping[str, str]) -> tuple[str | None, list[str]]:
    """What the address asks of the Class page: the class to join (its code, None when absent or malformed, then
    warned), and the warnings; a student id in it is warned and never taken."""
    code, warnings = None, []
    if JOIN_PARAM in params:
        code = rules.read_code(params[JOIN_PARAM])
        if code is None:
            warnings.append(f"{JOIN_PARAM}={params[JOIN_PARAM][:40]}: not a class code")
    if STUDENT_PARAM in params:
        shown = params[STUDENT_PARAM][:40]
        warnings.append(f"{STUDENT_PARAM}={shown}: an address does not say who you are (this browser remembers it)")
    return code, warnings


def resume_studying(store: ClassStore) -> None:
    """A student's browser that comes back (a reload, a restarted replica) with its class's cookie follows the class
    again under the same name; a cookie of a class that is over, or of no student of it, is deleted."""
    if teaching() is None and studying() is None:
        _come_back("student", store, lambda record, student: student in store.students(record.code), start_studying)


def resume_teaching(store: ClassStore) -> None:
    """A teacher's browser that comes back (a reload, a restarted replica) with its class's cookie teaches again;
    a cookie of a class that is over, or with a wrong key, is deleted."""
    if teaching() is None:
        _come_back("teacher", store, rules.is_teacher, start_teaching)


def _come_back(
    role: str, store: ClassStore, theirs: Callable[[ClassRecord, str], bool], start: Callable[[str, str], None]
) -> None:
    """Put this session back in the class its ``role``'s cookie names when the class runs and the cookie's secret is
    ``theirs`` there (``start``); delete a cookie that is not; keep it when the store does not answer."""
    if (cookie := remembered(role)) is None:
        return
    code, secret = cookie
    try:
        record = store.class_record(code) if rules.read_code(code) else None
        back = record is not None and not rules.is_over(record, now()) and theirs(record, secret)
    except rules.ClassProblem:  # the store did not answer: keep the cookie for the next run
        return
    if back:
        start(code, secret)
    else:
        forget(role)
