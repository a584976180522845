"""Start, the site's first screen: a text cut into coloured tokens by the session's model, a slider that re-cuts it
as merges are added, a text box for one's own text (shared with Encode and Compare), and a line to each page."""

from __future__ import annotations

import time
from typing import NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from drawing.describe import describe_config, model_size
from drawing.escape import markdown
from drawing.pipeline_view import tokens_html
from drawing.token_legend import render_legend
from pages.start import state as start_state
from pages.start.views.first_screen import (
    HEADING,
    PLAY_SECONDS,
    SAMPLE_TEXT,
    frame_seconds,
    hide_retained_css,
    merge_stops,
    play_progress,
    slider_css,
    tokens_sentence,
)
from session import model_io, state
from session.model_about import DEFAULT_MODEL_ABOUT
from session.page_registry import CLASS, COMPARE, MERGES, TRAIN

INTRO = (
    "**Byte-pair encoding (BPE)** builds a tokenizer's vocabulary by merging the most frequent pair of symbols, "
    "again and again. Press Play, or slide, to add merges and watch the pieces grow into words."
)
TEXT_LINE_LABEL = "Type your own text: the tokens follow as you type"
TEXT_AREA_LABEL = "Your text (several lines): press Ctrl+Enter, or tap or click outside the box, to re-cut it"
TYPING_PAUSE = "300ms"  # the one-line box re-cuts after this pause in typing: a rerun a pause, not one a key
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


def show_cut(model, text: str, merges: int) -> None:
    """The text cut by the model after ``merges`` merges, the counts and the key."""
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


class Slots(NamedTuple):
    """The places at the page's top that ``controls_and_cut`` fills at its end."""

    slider: DeltaGenerator
    button: DeltaGenerator
    style: DeltaGenerator
    cut: DeltaGenerator


def make_slots() -> Slots:
    st.html(slider_css(start_state.MERGES_KEY))
    with st.container(key=start_state.CONTROLS_KEY, horizontal=True, vertical_alignment="bottom"):
        slider, button = st.empty(), st.empty()
    return Slots(slider=slider, button=button, style=st.empty(), cut=st.empty())


def play(model, text: str, stops: list[int], slots: Slots) -> None:
    """Play: the boxes re-cut at each stop from no merge to the whole model, a few frames a second, in one run of
    a few seconds (no rerun a frame); a bar, filled stop by stop as the slider is, stands in the slider's place.
    Stop, or any other press, cuts the run short."""
    pause = frame_seconds(len(stops))
    late = time.monotonic() + 2 * PLAY_SECONDS  # a large model cut slowly: past this, straight to the last stop
    for shown, merges in enumerate(stops):
        shown_at = time.monotonic()
        if shown_at > late and merges != stops[-1]:
            continue
        start_state.show_while_playing(merges)
        slots.slider.progress(shown / (len(stops) - 1), text=play_progress(merges, stops[-1]))
        with slots.cut.container():
            show_cut(model, text, merges)
        time.sleep(max(0.0, pause - (time.monotonic() - shown_at)))  # a slow cut takes its own frame's time
    start_state.end_play(stops[-1])


def text_box(text: str) -> None:
    """The box for one's own text, shared with Encode and Compare. One line follows the typing (it re-cuts after a
    short pause); a text with line breaks (pasted, or from Encode) needs a text area, which Streamlit sends only on
    Ctrl+Enter or when the box loses focus, and says so."""
    key, several_lines = start_state.TEXT_KEY, "\n" in text
    start_state.keep_text_across_boxes(text, "area" if several_lines else "line")
    if several_lines:
        st.text_area(
            TEXT_AREA_LABEL, height=68, key=key, max_chars=state.TEXT_MAX_CHARS, on_change=state.share_text, args=(key,)
        )
    else:
        st.text_input(
            TEXT_LINE_LABEL,
            key=key,
            max_chars=state.TEXT_MAX_CHARS,
            on_change=state.share_text,
            args=(key,),
            live=TYPING_PAUSE,
        )


def controls_and_cut(model, text: str, slots: Slots) -> None:
    """The merges slider with Play beside it (a bar and Stop while playing), then the text cut into tokens, in the
    places the page made for them. The slider stands above the boxes, so that the boxes growing or shrinking never
    move it under the pointer. Drawn last on the page: while Play runs, everything else is drawn already, and
    nothing stands greyed out, waiting. Not a fragment: a press of Stop in one would wait for the play's end."""
    stops = merge_stops(len(model.merges))
    state.default_unless_offered(start_state.MERGES_KEY, stops, stops[-1])
    if start_state.take_play_asked() and len(stops) > 1:
        slots.button.button(
            "Stop", icon=":material/stop:", key=start_state.STOP_KEY, on_click=start_state.stop_where_shown
        )
        slots.style.html(hide_retained_css(start_state.CONTROLS_KEY))
        play(model, text, stops, slots)
        slots.style.empty()
    slots.button.button(
        "Play",
        icon=":material/play_arrow:",
        key=start_state.PLAY_KEY,
        on_click=start_state.ask_to_play,
        help="Add the merges one stop after another, from none to all, in a few seconds",
        disabled=len(stops) < 2,
    )
    merges = slots.slider.select_slider(
        "Merges learned", options=stops, key=start_state.MERGES_KEY, format_func=lambda stop: f"{stop:,}"
    )
    with slots.cut.container():
        show_cut(model, text, merges)


model = state.current_model()
st.title(HEADING)
start_state.take_link(st.query_params.to_dict(), len(model.merges))  # before the widgets
st.markdown(INTRO)
state.restore_text(start_state.TEXT_KEY, SAMPLE_TEXT)
text = st.session_state[start_state.TEXT_KEY]
slots = make_slots()
text_box(text)  # under the boxes it cuts
st.caption(model_line(model))
start_state.show_address(len(model.merges))
for page, line, more in NEXT_STEPS:
    st.page_link(page.path, label=line, icon=page.icon, help=more)
controls_and_cut(model, text, slots)
