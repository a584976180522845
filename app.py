"""BPE Explorer: entry point and page router.

Run with ``make run`` (or ``streamlit run app.py``). Each page lives in
``pages/``; this file only sets up the page, the shared sidebar and the
navigation between pages.
"""

import streamlit as st

st.set_page_config(page_title="BPE Explorer", page_icon="🧩", layout="wide")

PAGES = [
    st.Page("pages/1_Train.py", title="Train", icon=":material/model_training:", default=True),
    st.Page("pages/2_Merges.py", title="Merges", icon=":material/account_tree:"),
    st.Page("pages/3_Encode.py", title="Encode / Decode", icon=":material/translate:"),
    st.Page("pages/4_Compare.py", title="Compare", icon=":material/compare_arrows:"),
]


def _model_summary(tok) -> str:
    """One line describing the session's tokenizer."""
    return f"Current model: {len(tok.merges):,} merges, vocabulary of {len(tok.vocab):,} tokens"


def render_sidebar(slot) -> None:
    tok = st.session_state.get("bpe_model")
    with slot.container():
        st.markdown("### :material/extension: BPE Explorer")
        if tok is None:
            st.caption("No model trained yet")
        else:
            st.caption(_model_summary(tok))


# The model line is filled in after the page ran, so it reflects what the page
# just trained or loaded, yet it still sits at the top of the sidebar.
sidebar_slot = st.sidebar.empty()
navigation = st.navigation(PAGES)
try:
    navigation.run()
finally:
    render_sidebar(sidebar_slot)
