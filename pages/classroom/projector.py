"""What the projector shows of a live class, asked again every second: the join address (its QR code large until
someone joins; marked Locked while the teacher lets no one new join), the step, the question with the room's answers
(a tally of the choices, the word's cuts, or the guesses' result), who joined, the scoreboard."""

from __future__ import annotations

import streamlit as st

from drawing.escape import markdown
from drawing.notation import glyph_legend
from live_class import room, rules
from live_class.kinds import Answering, QuestionKind, kind_of
from live_class.records import Question
from live_class.rules import ClassProblem
from live_class.store import ClassStore
from pages.classroom import state as classroom_state
from pages.classroom.views.address import ClassAddress
from pages.classroom.views.live_view import (
    POLL_SECONDS,
    count_result,
    follow_html,
    join_line_html,
    names_html,
    scoreboard_html,
    sentence_html,
    tally_figure,
    votes_line,
    waiting_html,
)
from pages.classroom.views.reach import reach_html
from pages.classroom.views.split_view import room_split_html, room_split_result
from pages.classroom.views.text_view import choice_label, reveal_html, text_html, written_texts
from session import result_scroll


@st.fragment(run_every=POLL_SECONDS)
def follow(store: ClassStore, code: str, join_at: ClassAddress) -> None:
    try:
        _projector(store, code, join_at)
    except ClassProblem as problem:  # the store did not answer this time: the next second asks again
        st.info(markdown(str(problem)))


def _projector(store: ClassStore, code: str, join_at: ClassAddress) -> None:
    record = store.class_record(code)
    if record is None:
        return
    students = store.students(code)
    if students or record.locked:  # a locked class takes no one new: its QR code gives way to the Locked mark
        st.html(join_line_html(join_at, code, record.locked))
    else:
        st.html(reach_html(join_at))
    question = store.question(code, record.question) if record.question else None
    if question is None:
        st.html(follow_html(code, record.step, record.model_title))
    else:
        kind, votes = kind_of(question.kind), store.votes(code, question.number)
        asking = f"{kind.asks_briefly} {votes_line(len(votes), len(students))}"
        st.html(follow_html(code, record.step, record.model_title, asking))
        if kind.answered_by is Answering.TAP:
            _tally(question, votes, len(students))
        elif kind.answered_by is Answering.CUT:
            _cuts(kind, question, votes)
        else:
            st.html(sentence_html(question.prompt))
            if question.revealed:
                revealed = count_result(kind.answer_is, int(question.answer), votes, students)
                st.container(key=classroom_state.REVEAL_KEY).markdown(markdown(revealed))
        result_scroll.scroll_if_asked(classroom_state.REVEAL_KEY, block="nearest")
    st.html(names_html(list(students.values())))
    with st.expander("Scoreboard"):
        st.html(scoreboard_html(room.results(store, code, students)))
    if students and not record.locked:
        with st.expander("QR code to join"):
            st.html(reach_html(join_at))


def _tally(question: Question, votes: dict[str, str], students: int) -> None:
    """A question of choices: the votes so far (``_votes_so_far``), and beside them the text it is about; once
    revealed, why it merged beside the tally and the text below (a projector's first screen shows what the room
    waits for)."""
    tally = rules.tally(question.choices, votes)
    if question.text is None:  # the tally marks the answer: it is what Reveal brings on screen
        place = st.container(key=classroom_state.REVEAL_KEY if question.revealed else None)
        _votes_so_far(place, question, tally, len(votes), students)
    else:
        chart, beside = st.columns(2)
        _votes_so_far(chart, question, tally, len(votes), students)
        if question.revealed:
            beside.container(key=classroom_state.REVEAL_KEY).html(reveal_html(question, tally))
            st.html(text_html(question))
        else:
            beside.html(text_html(question))
    if legend := glyph_legend(written_texts(question)):
        st.caption(markdown(legend))


def _votes_so_far(place, question: Question, tally: list[tuple[str, int]], voted: int, students: int) -> None:
    """Before the reveal, how many voted and the choices: no tally a student still to vote could follow; once
    revealed, the tally with the answer marked."""
    if question.revealed:
        place.plotly_chart(tally_figure(tally, question.answer), config={"staticPlot": True})
    else:
        labels = [choice_label(question, index) for index in range(len(question.choices))]
        place.html(waiting_html(labels, voted, students))


def _cuts(kind: QuestionKind, question: Question, votes: dict[str, str]) -> None:
    """A word to split: how many students cut at each place; after the reveal, where our model's tokens start."""
    st.html(room_split_html(question, votes))
    if question.revealed:
        revealed = f"{kind.reveal(question)} {room_split_result(question.answer, votes)}"
        st.container(key=classroom_state.REVEAL_KEY).markdown(markdown(revealed))
