"""The teacher's side of a live class: starting it, following the teacher's model, the row of controls (Reveal,
Next step, the questions) above what the projector shows (``class_projector``), and below it End class, the door
(``class_door``: the students, the lock) and Copy link."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from bpe_core import Tokenizer
from drawing.escape import markdown
from live_class import room, rules
from live_class.records import ClassRecord
from live_class.rules import ClassProblem
from live_class.store import ClassStore
from pages.classroom import asking as class_asking
from pages.classroom import door as class_door
from pages.classroom import projector as class_projector
from pages.classroom import state as classroom_state
from pages.classroom.class_cookies import remember
from pages.classroom.views.address import ClassAddress, join_here
from pages.classroom.views.live_view import CONTROLS_KEY, controls_css, scoreboard_html, scoreboard_text
from pages.classroom.views.questions import model_caption
from pages.classroom.views.text_view import style_html
from session import result_scroll, share_link, state
from session.page_registry import CLASS


def join_address(code: str) -> ClassAddress:
    """The address students open to join: the room's address when students can reach this server, else this
    browser's own (a class tried on one machine, or a server behind a proxy), said to be this machine's only when
    it names this machine."""
    page = f"{CLASS.url_path}?{urlencode(classroom_state.class_params(code))}"
    reach = classroom_state.students_address()
    if reach.url is not None:
        return ClassAddress(f"{reach.url.rstrip('/')}/{page}")
    here = (st.context.url or "").split("?")[0].rsplit("/", 1)[0]
    return join_here(f"{here}/{page}", reach.problem)


def start(store: ClassStore) -> None:
    """The "Start a class" button: a new class at step 1 of the session's model, asking its first question."""
    if not st.button("Start a class", type="primary", icon=":material/play_arrow:"):
        return
    if refused := classroom_state.refused_as_too_often("started"):
        st.warning(markdown(refused))
        return
    try:
        code, teacher_key = room.start_class(store, classroom_state.now())
        classroom_state.start_teaching(code, teacher_key)
        class_asking.ask_step(store, code, teacher_key, state.current_model(), 1)
    except ClassProblem as problem:
        st.warning(markdown(str(problem)))
        return
    st.rerun()


def _follow_model(store: ClassStore, code: str, teacher_key: str, record: ClassRecord, model: Tokenizer) -> ClassRecord:
    """Students see the teacher's current model: when the teacher trained or loaded another, the class follows it
    and its step's question is asked again of the new model (at the same step, or its last when it has fewer), so
    that no screen names one model over another's pairs; the votes on the old question stay with it. The class as
    it is now."""
    about = state.model_about()
    caption, link = model_caption(model, about), urlencode(about.link_params)
    if (record.model_title, record.model_link) == (caption, link):
        return record
    room.show(store, code, teacher_key, classroom_state.now(), model_title=caption, model_link=link)
    if record.model_title:  # another model than the one the class started with (start() asked its first question)
        step = max(1, min(record.step, len(model.merges)))
        open_question = store.question(code, record.question) if record.question else None
        if class_asking.ask_step_of_new_model(store, code, teacher_key, model, step, open_question):
            st.toast(f"The class follows your new model: step {step:,} is asked again with its pairs.")
    return room.open_class(store, code, classroom_state.now())


def console(store: ClassStore, code: str, teacher_key: str) -> None:
    model = state.current_model()
    try:
        record = room.open_class(store, code, classroom_state.now())
        record = _follow_model(store, code, teacher_key, record, model)
    except ClassProblem as problem:  # over, or the store did not answer
        _keep_scoreboard_if_over(store, code)
        st.info(markdown(str(problem)))
        if st.button("Start another class"):
            classroom_state.leave_class()
            st.rerun()
        return
    remember("teacher", code, teacher_key)  # a reload or a restarted replica finds the class again
    _controls(store, code, teacher_key, record, model)
    st.html(style_html())  # once: the projector's polls send the text without its style sheet
    class_projector.follow(store, code, join_address(code))
    with st.container(horizontal=True):  # below the class, away from the questions' buttons
        _end_class(store, code, teacher_key)
        class_door.door(room.TeacherRoom(store, code, teacher_key, classroom_state.now), record.locked)
        share_link.show_address()  # the teacher's model (the class itself stays in this session)
    class_door.said("row")


def _keep_scoreboard_if_over(store: ClassStore, code: str) -> None:
    """A class that ended elsewhere (the teacher's other tab) or was left idle past its bound leaves this session
    its final scoreboard too, as End class does; when the store does not answer, nothing happens here."""
    try:
        record = store.class_record(code)
        if record is None or not rules.is_over(record, classroom_state.now()):
            return
        scoreboard = room.results(store, code)
    except ClassProblem:
        return
    classroom_state.end_teaching(code, scoreboard)
    st.rerun()


def _controls(store: ClassStore, code: str, teacher_key: str, record: ClassRecord, model: Tokenizer) -> None:
    st.html(controls_css())
    row = st.container(horizontal=True, gap="xsmall", key=CONTROLS_KEY)
    try:
        if row.button("Reveal", type="primary", icon=":material/visibility:"):
            room.reveal(store, code, teacher_key, classroom_state.now())
            result_scroll.ask_to_scroll(classroom_state.REVEAL_KEY)  # the answer is drawn under the question
        step, last = record.step, len(model.merges)
        if row.button("Next step", icon=":material/skip_next:", disabled=step >= last):
            step += 1  # the controls after it ask about the step now shown
            class_asking.ask_step(store, code, teacher_key, model, step)
        if row.button("Ask again", icon=":material/replay:", disabled=not 1 <= step <= last):
            class_asking.ask_step(store, code, teacher_key, model, step)
        if row.button("Longest token?", icon=":material/straighten:", disabled=not 1 <= step <= last):
            class_asking.ask_longest(store, code, teacher_key, model, step)
        with row.popover("Split a word", icon=":material/content_cut:", disabled=not 1 <= step <= last):
            class_asking.ask_split(store, code, teacher_key, model, step)
        with row.popover("Count tokens", icon=":material/calculate:"):  # a sentence's tokens, or languages'
            class_asking.ask_count(store, code, teacher_key, model)
            class_asking.ask_costliest(store, code, teacher_key, model)
    except ClassProblem as problem:
        st.warning(markdown(str(problem)))


def _end_class(store: ClassStore, code: str, teacher_key: str) -> None:
    """End class, below the class and away from the questions' buttons: it asks first, and leaves the teacher the
    final scoreboard (read before the class ends: an ended class answers no more)."""
    with st.popover("End class", icon=":material/stop:"):
        st.markdown(
            "**End the class for everyone?** Students' phones say it is over and take no more answers; "
            "you keep the final scoreboard."
        )
        if st.button("Yes, end the class", type="primary", icon=":material/stop:"):
            try:
                scoreboard = room.results(store, code)
                room.end_class(store, code, teacher_key, classroom_state.now())
            except ClassProblem as problem:
                st.warning(markdown(str(problem)))
                return
            classroom_state.end_teaching(code, scoreboard)
            st.rerun()


def final_scoreboard() -> None:
    """The scoreboard of the class this session just ended, as a table and as text to copy."""
    if (final := classroom_state.final_scoreboard()) is None:
        return
    code, scoreboard = final
    st.subheader(f"Class {code} is over: its final scoreboard")
    if not scoreboard:
        st.caption("Nobody joined it.")
        return
    st.html(scoreboard_html(scoreboard))
    st.caption("To keep it, copy it with the icon at its right: a name and its points a line.")
    st.code(scoreboard_text(scoreboard), language=None)
