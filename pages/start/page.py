"""Start, the site's first screen: a text cut into coloured tokens by the session's model, a slider that re-cuts it
as merges are added, a text box for one's own text (shared with Encode and Compare), and a line to each page."""

from __future__ import annotations

import streamlit as st

from drawing.describe import describe_config, model_size
from drawing.escape import markdown
from drawing.pipeline_view import tokens_html
from drawing.token_legend import render_legend
from pages.start import state as start_state
from pages.start.views.first_screen import HEADING, SAMPLE_TEXT, merge_stops, slider_css, tokens_sentence
from session import model_io, state
from session.model_about import DEFAULT_MODEL_ABOUT
from session.page_registry import CLASS, COMPARE, MERGES, TRAIN

INTRO = (
    "**Byte-pair encoding (BPE)** builds a tokenizer's vocabulary by merging the most frequent pair of symbols, "
    "again and again. Slide to add merges and watch the pieces grow into words."
)
NEXT_STEPS = (  # a line to each page a newcomer goes on to (short enough for a phone's one line), and its tooltip
    (TRAIN, "Train your own tokenizer", "On your text or a textbook example, with the settings you choose."),
    (MERGES, "Step through the merges", "Which pair won each step, by how much, and the text after it."),
    (COMPARE, "Compare with GPT-4, Llama and more", "Your tokenizer beside the published ones, on your text."),
    (CLASS, "Teach a class", "Students vote on the next merge from their phones."),
)


def model_line(model) -> str:
    """Which tokenizer cuts the text, in one escaped line."""
    made = (
        "the starting tokenizer, trained here on the King James Bible"
        if state.model_about() == DEFAULT_MODEL_ABOUT
        else f"your tokenizer ({model_io.model_title(state.model_name(model))})"
    )
    return f"Cut by {made}: {markdown(model_size(model))} · {markdown(describe_config(model.config, short=True))}."


def last_merge_id(model) -> int | None:
    """The id of the token the model's last merge made (its boxes get a thick outline), None before any merge."""
    last = len(model.merges) - 1
    return next((token_id for token_id, rank in model.created_at.items() if rank == last), None)


def show_cut(model, text: str) -> None:
    """The merges slider, then the text cut by the model after that many merges, the counts and the key. The slider
    stands above the boxes, so that the boxes growing or shrinking never move it under the pointer."""
    st.html(slider_css(start_state.MERGES_KEY))
    stops = merge_stops(len(model.merges))
    state.default_unless_offered(start_state.MERGES_KEY, stops, stops[-1])
    merges = st.select_slider(
        "Merges learned", options=stops, key=start_state.MERGES_KEY, format_func=lambda stop: f"{stop:,}"
    )
    cut_by = start_state.model_after(model, merges)
    try:
        tokens = cut_by.encode_with_spans(text)
        base_tokens = len(start_state.model_after(model, 0).encode(text))
    except ValueError as error:
        st.error(f"This text cannot be encoded: {markdown(str(error))}")
        return
    st.html(tokens_html(cut_by, tokens, text, highlight_id=last_merge_id(cut_by)))
    st.markdown(tokens_sentence(tokens=len(tokens), characters=len(text), merges=merges, base_tokens=base_tokens))
    st.html(render_legend(tokens, cut_by.shown_text(text), highlight_id=last_merge_id(cut_by)))


model = state.current_model()
st.title(HEADING)
start_state.take_link(st.query_params.to_dict(), len(model.merges))  # before the widgets
st.markdown(INTRO)
state.restore_text(start_state.TEXT_KEY, SAMPLE_TEXT)
text = st.session_state[start_state.TEXT_KEY]  # the box is drawn under the boxes it cuts: the tokens come first
show_cut(model, text)
st.text_area(
    "Type your own text (Ctrl+Enter cuts it)",
    key=start_state.TEXT_KEY,
    height=68,
    max_chars=state.TEXT_MAX_CHARS,
    on_change=state.share_text,
    args=(start_state.TEXT_KEY,),
)  # shared with Encode and Compare
st.caption(model_line(model))
start_state.show_address(len(model.merges))
for page, line, more in NEXT_STEPS:
    st.page_link(page.path, label=line, icon=page.icon, help=more)
