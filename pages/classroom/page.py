"""Class: students on the room's network reach the app by an address or a QR code, and the teacher runs a live
"which pair merges next?" round that every student's phone follows."""

from __future__ import annotations

import streamlit as st

from drawing.escape import markdown
from live_class.rules import read_code
from pages.classroom import state as classroom_state
from pages.classroom import student as class_student
from pages.classroom import teacher as class_teacher
from pages.classroom.class_cookies import remember
from pages.classroom.views.reach import reach_html
from pages.classroom.views.text_view import style_html
from session import share_link, state
from session.page_registry import CLASS

try:
    store = state.class_store()
except ValueError as problem:  # BPE_CLASS_STORE names no store this server can open
    st.error(markdown(str(problem)))
    st.stop()
classroom_state.resume_teaching(store)
classroom_state.resume_studying(store)
code_asked, warnings = classroom_state.read_class_link(st.query_params.to_dict())
share_link.warn_ignored(warnings)

# In a class the step banner heads the page: the projector and a phone keep their height for the question.
if teaching := classroom_state.teaching():
    class_teacher.console(store, *teaching)  # its Copy link carries the model; the class stays in the session
elif studying := classroom_state.studying():
    # the join address: a reload comes back to the class, under the same name, by this browser's cookie
    remember("student", *studying)
    share_link.show_address(classroom_state.class_params(studying[0]))
    st.html(style_html())  # once: the screen's polls send the text without its style sheet
    class_student.follow(store, *studying)
elif code_asked:
    st.title(CLASS.title)
    share_link.show_address(classroom_state.class_params(code_asked))
    class_student.join_form(store, code_asked)
else:
    st.title(CLASS.title)
    st.caption("Teach with it: project this page. Every page the students open is their own to try.")
    class_teacher.final_scoreboard()  # of the class this session just ended
    # Start a class first, on the projector's first screen: pressed there, the page stays at its top, where the
    # class's join address and QR code are then drawn (pressed further down, the page kept its scroll below them).
    st.subheader("A live class")
    st.markdown(
        "Start a class, and students join from their phones with its code. At each step of your model they guess "
        "**which pair merges next**; you reveal the answer and move everyone on."
    )
    class_teacher.start(store)
    with st.form("class_code"):
        typed = st.text_input("Class code (students)", max_chars=12, placeholder="e.g. K7QPX")
        if st.form_submit_button("Join"):
            code = read_code(typed)
            if code is None:
                st.warning("A class code is five letters and digits, as the teacher's screen shows it.")
            else:
                st.query_params[classroom_state.JOIN_PARAM] = code
                st.rerun()
    st.subheader("Every page, on the students' phones")
    share_link.show_address()
    st.html(reach_html(classroom_state.students_address()))
