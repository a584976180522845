"""The teacher's side of a live class: the join address and its QR code, the step and the questions, the live
tally, Reveal and Next step, the room's names and the scoreboard."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from app_pages.sections import class_asking
from bpe_core import Tokenizer
from live_class import room, rules
from live_class.kinds import kind_of
from live_class.records import ClassRecord
from live_class.rules import ClassProblem
from live_class.store import ClassStore
from viz import share_link, state
from viz.classroom import state as classroom_state
from viz.classroom.address import ClassAddress
from viz.classroom.class_cookies import remember
from viz.classroom.live_view import (
    POLL_SECONDS,
    count_result,
    follow_html,
    join_line_html,
    names_html,
    scoreboard_html,
    sentence_html,
    tally_figure,
    votes_line,
)
from viz.classroom.questions import model_caption
from viz.classroom.reach import reach_html
from viz.classroom.text_view import reveal_html, style_html, text_html, written_texts
from viz.escape import markdown
from viz.notation import glyph_legend
from viz.page_registry import CLASS


def join_address(code: str) -> str:
    """The address students open to join: the room's address when students can reach this server, else this
    browser's own (a class tried on one machine)."""
    base = classroom_state.students_address().url or (st.context.url or "").split("?")[0].rsplit("/", 1)[0] + "/"
    return f"{base.rstrip('/')}/{CLASS.url_path}?{urlencode(classroom_state.class_params(code))}"


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


def _follow_model(store: ClassStore, code: str, teacher_key: str, record: ClassRecord, model: Tokenizer) -> None:
    """Students see the teacher's current model: tell the store when the teacher trained or loaded another."""
    caption, link = model_caption(model), urlencode(state.model_about().link_params)
    if (record.model_title, record.model_link) != (caption, link):
        room.show(store, code, teacher_key, classroom_state.now(), model_title=caption, model_link=link)


def console(store: ClassStore, code: str, teacher_key: str) -> None:
    model = state.current_model()
    try:
        record = room.open_class(store, code, classroom_state.now())
        _follow_model(store, code, teacher_key, record, model)
    except ClassProblem as problem:  # over, or the store did not answer
        st.info(markdown(str(problem)))
        if st.button("Start another class"):
            classroom_state.leave_class()
            st.rerun()
        return
    remember("teacher", code, teacher_key)  # a reload or a restarted replica finds the class again
    _controls(store, code, teacher_key, record, model)
    st.html(style_html())  # once: the projector's polls send the text without its style sheet
    live_tally(store, code, join_address(code))
    share_link.show_address()  # below the class: the teacher's model (the class itself stays in this session)


def _controls(store: ClassStore, code: str, teacher_key: str, record: ClassRecord, model: Tokenizer) -> None:
    row = st.container(horizontal=True)
    try:
        if row.button("Reveal", type="primary", icon=":material/visibility:"):
            room.reveal(store, code, teacher_key, classroom_state.now())
        last = len(model.merges)
        if row.button("Next step", icon=":material/skip_next:", disabled=record.step >= last):
            class_asking.ask_step(store, code, teacher_key, model, record.step + 1)
        if row.button("Ask again", icon=":material/replay:", disabled=not 1 <= record.step <= last):
            class_asking.ask_step(store, code, teacher_key, model, record.step)
        if row.button("Longest token?", icon=":material/straighten:", disabled=not 1 <= record.step <= last):
            class_asking.ask_longest(store, code, teacher_key, model, record.step)
        with row.popover("Count tokens", icon=":material/calculate:"):
            class_asking.ask_count(store, code, teacher_key, model)
        if row.button("End class", icon=":material/stop:"):
            room.end_class(store, code, teacher_key, classroom_state.now())
            classroom_state.leave_class()
            st.rerun()
    except ClassProblem as problem:
        st.warning(markdown(str(problem)))


@st.fragment(run_every=POLL_SECONDS)
def live_tally(store: ClassStore, code: str, join_at: str) -> None:
    """What the projector shows, asked again every second: the join address (its QR code large until
    someone joins), the step, the question and its votes, who joined, the scoreboard."""
    try:
        _projector(store, code, join_at)
    except ClassProblem as problem:  # the store did not answer this time: the next second asks again
        st.info(markdown(str(problem)))


def _projector(store: ClassStore, code: str, join_at: str) -> None:
    record = store.class_record(code)
    if record is None:
        return
    students = store.students(code)
    if students:
        st.html(join_line_html(join_at))
    else:
        st.html(reach_html(ClassAddress(join_at)))
    question = store.question(code, record.question) if record.question else None
    if question is None:
        st.html(follow_html(code, record.step, record.model_title))
    else:
        kind, votes = kind_of(question.kind), store.votes(code, question.number)
        asking = f"{kind.asks_briefly} {votes_line(len(votes), len(students))}"
        st.html(follow_html(code, record.step, record.model_title, asking))
        if kind.taps_choices:
            if question.text is not None:
                st.html(text_html(question))
            tally = rules.tally(question.choices, votes)
            figure = tally_figure(tally, question.answer if question.revealed else None)
            if question.revealed and question.text is not None:  # why it merged, beside how the room voted
                chart, why = st.columns(2)
                chart.plotly_chart(figure, config={"staticPlot": True})
                why.html(reveal_html(question, tally))
            else:
                st.plotly_chart(figure, config={"staticPlot": True})
            if legend := glyph_legend(written_texts(question)):
                st.caption(markdown(legend))
        else:
            st.html(sentence_html(question.prompt))
            if question.revealed:
                st.markdown(markdown(count_result(kind.answer_is, int(question.answer), votes, students)))
    st.html(names_html(list(students.values())))
    with st.expander("Scoreboard"):
        st.html(scoreboard_html(room.results(store, code, students)))
    if students:
        with st.expander("QR code to join"):
            st.html(reach_html(ClassAddress(join_at)))
