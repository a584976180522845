"""BPE Explorer: entry point and page router.

Run with ``make run`` (or ``streamlit run app.py``). Each page lives in
``pages/`` and is listed in ``viz/page_registry.py``; this file only sets up
the page, the shared sidebar and the navigation between pages.
"""

import streamlit as st

from viz import state
from viz.page_registry import PAGES

st.set_page_config(page_title="BPE Explorer", page_icon="🧩", layout="wide")


def render_sidebar(slot) -> None:
    tok = state.model_if_any()
    with slot.container():
        st.markdown("### :material/extension: BPE Explorer")
        if tok is None:
            st.caption("No model trained yet")
        else:
            st.caption(f"Current model: {len(tok.merges):,} merges, vocabulary of {len(tok.vocab):,} tokens")


# The model line is filled in after the page ran, so it reflects what the page
# just trained or loaded, yet it still sits at the top of the sidebar.
sidebar_slot = st.sidebar.empty()
state.keep_choices()
navigation = st.navigation(
    [st.Page(page.path, title=page.title, icon=page.icon, default=index == 0) for index, page in enumerate(PAGES)]
)
try:
    navigation.run()
finally:
    render_sidebar(sidebar_slot)
