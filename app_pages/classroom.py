"""Class: how students on the room's network reach the app, as an address to type and a QR code to scan."""

from __future__ import annotations

import streamlit as st

from viz import share_link, state
from viz.classroom import state as classroom_state
from viz.classroom.reach import reach_html
from viz.page_registry import CLASS

state.current_model()  # as every page: the sidebar names the session's model
st.title(CLASS.title)
st.caption("Teach with it: project this page. Every page the students open is their own to try.")
share_link.show_address()  # the model, for a room that should start from it
st.html(reach_html(classroom_state.students_address()))
