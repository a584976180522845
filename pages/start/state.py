"""The Start page's own session-state keys: its text box (sharing its text with Encode and Compare, through
``session.state``'s shared text), the merges slider, Play and Stop, and the model cut to the slider's merges."""

from __future__ import annotations

import weakref

import streamlit as st

from bpe_core import Tokenizer
from pages.start.views.first_screen import SAMPLE_TEXT, merge_stops
from session import share_link, state
from session.addresses import MAX_LINK_TEXT, TEXT_PARAM
from session.choices import Choice, Text, WholeNumber

TEXT_KEY = "start_text"  # the text box
MERGES_KEY = "start_merges"  # the slider: how many of the model's merges cut the text
CONTROLS_KEY = "start_controls"  # the row of the slider and Play (Stop while playing)
PLAY_KEY, STOP_KEY = "start_play", "start_stop"  # the buttons that step the slider's stops, and stop doing so
_PLAY_ASKED_KEY = "bpe_start_play_asked"  # Play was pressed: the next run plays
_SHOWN_KEY = "bpe_start_shown_merges"  # the stop Play shows now: where Stop leaves the slider
_BOX_KIND_KEY = "bpe_start_box_kind"  # which box held the text on the last run: a line or an area
_PREFIXES_KEY = "bpe_start_prefixes"  # (a weak reference to the model, {merges: its prefix}): this session's cuts
# Start's choices in its address: the text (as on Encode), and the slider as "learned" ("merges" is the model's own
# parameter, how many merges it was trained with), left out at the whole model
MAX_MERGES = 1_000_000  # the most merges an address may ask the slider for (bpe_core.train.MAX_SIZE)
CHOICES = (
    Choice(TEXT_KEY, SAMPLE_TEXT, TEXT_PARAM, Text(MAX_LINK_TEXT)),
    Choice(MERGES_KEY, param="learned", kind=WholeNumber(0, MAX_MERGES)),
)


def take_link(query_params: dict, model_merges: int) -> None:
    """On the session's first run of Start, the text and the slider its address asks for (the slider at the stop at
    or under the merges asked, the whole model at most), and one warning for the parameters ignored."""
    values, ignored = state.take_address(CHOICES, query_params, "start")
    if MERGES_KEY in values:
        asked = min(values[MERGES_KEY], model_merges)
        st.session_state[MERGES_KEY] = max(stop for stop in merge_stops(model_merges) if stop <= asked)
    share_link.warn_ignored(ignored)


def show_address(model_merges: int) -> None:
    """Start's address as it is now, in the address bar and under Copy link: the text unless it is the sample, the
    slider unless at the whole model (``model_merges``: the address then says nothing of it, as the slider opens
    there)."""
    merges = st.session_state.get(MERGES_KEY, model_merges)
    share_link.show_address(*state.page_address(CHOICES, {MERGES_KEY: None if merges == model_merges else merges}))


def model_after(model: Tokenizer, merges: int) -> Tokenizer:
    """``model`` after its first ``merges`` merges: the model itself for all of them, else its ``prefix``, kept for
    the slider's last two stops (the current one and no merge, which the counts compare with). The model is held
    weakly: an uploaded model stays the upload store's to release."""
    if merges >= len(model.merges):
        return model
    held, prefixes = st.session_state.get(_PREFIXES_KEY, (None, {}))
    if held is None or held() is not model:
        prefixes = {}
    if merges not in prefixes:
        prefixes = {k: v for k, v in prefixes.items() if k == 0} | {merges: model.prefix(merges)}
    st.session_state[_PREFIXES_KEY] = (weakref.ref(model), prefixes)
    return prefixes[merges]


def ask_to_play() -> None:
    """Play's on_click: the run it starts steps through the stops."""
    st.session_state[_PLAY_ASKED_KEY] = True


def take_play_asked() -> bool:
    return st.session_state.pop(_PLAY_ASKED_KEY, False)


def show_while_playing(merges: int) -> None:
    st.session_state[_SHOWN_KEY] = merges


def end_play(merges: int) -> None:
    """A play that ran to its end leaves the slider on its last stop, the whole model (set before the slider is
    drawn again)."""
    st.session_state.pop(_SHOWN_KEY, None)
    st.session_state[MERGES_KEY] = merges


def stop_where_shown() -> None:
    """Stop's on_click: the slider stays at the stop the boxes show (the press cut the play's run short)."""
    if _SHOWN_KEY in st.session_state:
        st.session_state[MERGES_KEY] = st.session_state.pop(_SHOWN_KEY)


def keep_text_across_boxes(text: str, kind: str) -> None:
    """The text box is a line or an area as the text asks (``kind``); on the run that swaps one for the other, the
    new widget gets the text (Streamlit starts a widget of another kind empty, though it has the same key). Only
    then: setting a box's value on every run would overwrite keys typed while the run was on its way."""
    if st.session_state.get(_BOX_KIND_KEY, kind) != kind:
        st.session_state[TEXT_KEY] = text
    st.session_state[_BOX_KIND_KEY] = kind
