"""The bare Streamlit floor for ``bench.loadtest``: the app's router and four pages with nothing of our own.

The same page titles as the app (``session.page_registry``), and on each page the kinds of widget the
latency test drives in the app: one token box of the class the app draws its tokens with (the landing's time to
tokens), a primary "Train" button, a "Step" slider, a "Text to encode" text area, one small plotly chart, and on
Compare a "Size 3" number box. ``bench.loadtest --part latency`` runs the same
actions against this and against ``app.py`` and reports each app's time beside the other's.

    .venv/bin/streamlit run bench/bare_app/app.py    # from the project root, to look at it
"""

import sys
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project root, for the page titles
from session.page_registry import PAGES  # noqa: E402  (plain data: no Streamlit, no engine)

st.set_page_config(page_title="Bare Streamlit", layout="wide")


def bare_page(title: str, slug: str) -> None:
    st.title(title)
    st.html('<div class="bpe-tv"><span class="tok">bare</span></div>')  # what the landing's time to tokens waits for
    st.button("Train", type="primary", key=f"{slug}_button")
    step = st.slider("Step", 1, 100, key=f"{slug}_step")
    text = st.text_area("Text to encode", key=f"{slug}_text", height=120)
    if slug == "compare":  # the box the app's Compare page trains a larger model from
        st.number_input("Size 3", 1, 100_000, value=500, key=f"{slug}_size")
    st.caption(f"Step {step}; {len(text):,} characters.")
    st.plotly_chart(go.Figure(go.Scatter(x=[1, 2, 3], y=[step, 2, len(text) % 7])), key=f"{slug}_chart")


def page_of(index: int, info) -> st.Page:
    slug = info.url_path.lower()  # start, train, merges, encode, compare (every page's file is page.py)
    return st.Page(
        lambda: bare_page(info.title, slug), title=info.title, icon=info.icon, url_path=slug, default=index == 0
    )


st.sidebar.markdown("### Bare Streamlit")
st.navigation([page_of(index, info) for index, info in enumerate(PAGES)]).run()
