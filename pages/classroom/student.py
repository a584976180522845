"""A student's side of a live class: join with a name, then follow the teacher's step and answer each question
on the phone (tap a choice, type a number or cut a word); a second tap changes the vote until the teacher reveals
the answer."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from drawing.escape import markdown
from drawing.notation import glyph_legend
from live_class import cuts, room, rules
from live_class.kinds import Answering, QuestionKind, kind_of, offered_places
from live_class.records import Question
from live_class.rules import NAME_LIMIT, ClassProblem
from live_class.store import ClassStore
from pages.classroom import state as classroom_state
from pages.classroom.views.live_view import (
    CHOICES_KEY,
    POLL_SECONDS,
    count_result,
    final_line,
    follow_html,
    revealed_choices_css,
    scoreboard_html,
    sentence_html,
    tally_figure,
)
from pages.classroom.views.split_view import my_split_result, place_labels, student_split_html
from pages.classroom.views.text_view import choice_label, reveal_html, text_html, written_texts
from pages.merges import state as merges_state
from session import state
from session.choices import address_params
from session.page_registry import MERGES

_SAID_KEY = "class_said"  # (question, what the last vote got back: "Your vote: ..." or why not, whether taken)


def join_form(store: ClassStore, code: str) -> None:
    st.subheader(f"Join class {code}")
    try:
        room.open_class(store, code, classroom_state.now())
    except ClassProblem as problem:  # no such class, over, or the store did not answer
        st.info(markdown(str(problem)))
        return
    with st.form("class_join", enter_to_submit=True):
        name = st.text_input("Your name", max_chars=NAME_LIMIT, key=classroom_state.NAME_KEY)
        if st.form_submit_button("Join", type="primary"):
            if refused := classroom_state.refused_as_too_often("joined"):
                st.warning(markdown(refused))
                return
            try:
                student = room.join(store, code, name, classroom_state.now(), address=state.visitor_address())
            except ClassProblem as problem:
                st.warning(markdown(str(problem)))
            else:
                classroom_state.start_studying(code, student)
                st.rerun()


def _vote(store: ClassStore, code: str, student: str, number: int, answer: str) -> bool:
    """A tap's callback: runs before the screen is drawn again, so the screen shows the vote just cast; whether
    the vote was taken."""
    try:
        said = room.vote(store, code, student, number, answer, classroom_state.now())
    except ClassProblem as problem:
        st.session_state[_SAID_KEY] = (number, str(problem), False)
        return False
    st.session_state[_SAID_KEY] = (number, said, True)
    return True


def _said(kind: QuestionKind, question: Question, mine: str | None) -> None:
    """What the last tap got back (a vote refused, a guess that is no number say, as an error: it was not sent), or
    on a reloaded phone what the store kept of its vote."""
    said = st.session_state.get(_SAID_KEY)
    if said and said[0] == question.number:
        _, text, taken = said
        if taken:
            st.caption(markdown(text))
        else:
            st.error(markdown(f"Not sent: {text}"), icon=":material/error:")
    elif mine is not None:
        st.caption(markdown(kind.vote_said(question, mine)))


def _choices(store: ClassStore, code: str, student: str, question: Question, mine: str | None) -> None:
    """A question whose students tap one of its choices (``QuestionKind.answered_by``): the text it is about
    (folded if long: the buttons stay on the phone's first screen), then one button each; once the answer is out,
    the student's own stays marked, in colour and in words."""
    if question.text is not None:
        st.html(text_html(question, folded=True))
    if question.revealed:
        st.html(revealed_choices_css())
    box = st.container(key=CHOICES_KEY)
    for index, choice in enumerate(question.choices):
        picked = choice == mine
        box.button(
            markdown(choice_label(question, index) + (" · your pick" if picked and question.revealed else "")),
            key=f"class_vote_{question.number}_{index}",
            type="primary" if picked else "secondary",
            disabled=question.revealed,
            width="stretch",
            on_click=_vote,  # type: ignore[arg-type]  # Streamlit drops a callback's result (whether the vote was taken)
            args=(store, code, student, question.number, choice),
        )
    if legend := glyph_legend(written_texts(question)):
        st.caption(markdown(legend))


def _cut_box(store: ClassStore, code: str, student: str, question: Question, mine: str | None, step: int) -> None:
    """A word to split: one tap for each place where a new token starts; every tap sends the cuts so far, and the
    word below shows them (after the reveal: which were right). A refused tap (the answer just came out) is undone,
    so that the taps shown are the vote kept."""
    word, key = question.prompt, f"{classroom_state.CUTS_KEY}_{question.number}"
    offered, sent = tuple(offered_places(question)), sorted(cuts.places_of(mine or ""))
    labels = place_labels(word, offered)

    def send() -> None:
        if not _vote(store, code, student, question.number, cuts.places_text(st.session_state.get(key) or [])):
            st.session_state[key] = sent

    st.pills(
        f"Tap where a new token starts, after step {step:,}",
        offered,
        selection_mode="multi",
        format_func=lambda place: markdown(labels[place]),
        default=sent,  # a reloaded phone shows the cuts it sent
        key=key,
        disabled=question.revealed,
        on_change=send,
    )
    st.html(student_split_html(question, mine))


def _guess_box(store: ClassStore, code: str, student: str, question: Question) -> None:
    """A question whose students type a number: its sentence and a box for the guess."""
    st.html(sentence_html(question.prompt))
    if question.revealed:
        return
    guess_key = f"{classroom_state.GUESS_KEY}_{question.number}"
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.text_input("Your guess", key=guess_key, max_chars=12, placeholder="a number")

    def send() -> None:
        _vote(store, code, student, question.number, st.session_state.get(guess_key, ""))

    row.button("Send", on_click=send)


@st.fragment(run_every=POLL_SECONDS)
def follow(store: ClassStore, code: str, student: str) -> None:
    """What a student's screen shows, asked again every second; a class that is over says so and lets the
    student go back to the Class page."""
    try:
        _screen(store, code, student)
    except ClassProblem as problem:
        st.info(markdown(str(problem)))
        _final_scoreboard(store, code, student)
        if st.button("Leave the class"):
            classroom_state.leave_class()
            st.query_params.clear()
            st.rerun(scope="app")


def _final_scoreboard(store: ClassStore, code: str, student: str) -> None:
    """A class that is over leaves its students their points and place, and the scoreboard the teacher keeps;
    nothing when the store does not answer (the class may not be over) or the class is not over."""
    try:
        record = store.class_record(code)
        if record is None or not rules.is_over(record, classroom_state.now()):
            return
        name, scoreboard = store.students(code).get(student, ""), room.results(store, code)
    except ClassProblem:
        return
    if line := final_line(scoreboard, name):
        st.markdown(f"**{markdown(line)}**")
    if scoreboard:
        st.html(scoreboard_html(scoreboard))


def _screen(store: ClassStore, code: str, student: str) -> None:
    record = room.open_class(store, code, classroom_state.now())
    students = store.students(code)
    if student not in students:  # the teacher removed them (or the class forgot them): the join form again
        st.warning("This class does not know you: join it again.")
        if st.button("Join again"):
            classroom_state.leave_class()
            st.rerun(scope="app")
        return
    st.html(follow_html(code, record.step, record.model_title))
    row = st.container(horizontal=True, vertical_alignment="center")
    row.caption(markdown(f"You are {students[student]}."))
    if record.step:  # the teacher's model at this step, in a tab of its own: this screen keeps the class
        values = {merges_state.TAB_KEY: merges_state.TAB_LABELS["steps"], merges_state.STEP_KEY: record.step}
        steps = urlencode(address_params(merges_state.choices(merges_state.TAB_LABELS), values)[0])
        row.link_button("See it on Merges", f"{MERGES.url_path}?{'&'.join(filter(None, (record.model_link, steps)))}")
    question = store.question(code, record.question) if record.question else None
    if question is None:
        st.info("Wait for the teacher's question.")
        return
    kind, votes = kind_of(question.kind), store.votes(code, question.number)
    st.markdown(f"**{kind.asks}**")
    if kind.answered_by is Answering.TAP:
        _choices(store, code, student, question, votes.get(student))
    elif kind.answered_by is Answering.CUT:
        _cut_box(store, code, student, question, votes.get(student), record.step)
    else:
        _guess_box(store, code, student, question)
    _said(kind, question, votes.get(student))
    if question.revealed:
        _revealed(kind, question, votes, students, student)
        points = dict(room.results(store, code, students)).get(students[student], 0)
        st.caption(markdown(f"Your points so far: {points}"))


def _revealed(
    kind: QuestionKind, question: Question, votes: dict[str, str], students: dict[str, str], student: str
) -> None:
    if kind.answered_by is Answering.CUT:
        st.markdown(markdown(f"{kind.reveal(question)} {my_split_result(question.answer, votes.get(student))}"))
    elif kind.answered_by is Answering.TAP:
        right = votes.get(student) == question.answer
        st.markdown(markdown(f"{kind.reveal(question)} " + ("You got it!" if right else "Not this time.")))
        tally = rules.tally(question.choices, votes)
        if question.text is not None:  # why it merged, each pair's count beside its votes
            st.html(reveal_html(question, tally))
        else:
            st.plotly_chart(tally_figure(tally, question.answer), config={"staticPlot": True})
    else:
        st.markdown(markdown(count_result(kind.answer_is, int(question.answer), votes, students)))
