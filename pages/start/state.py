"""The Start page's own session-state keys: its text box (sharing its text with Encode and Compare, through
``session.state``'s shared text), the merges slider, and the model cut to the slider's merges."""

from __future__ import annotations

import weakref

import streamlit as st

from bpe_core import Tokenizer

TEXT_KEY = "start_text"  # the text box
MERGES_KEY = "start_merges"  # the slider: how many of the model's merges cut the text
_PREFIXES_KEY = "bpe_start_prefixes"  # (a weak reference to the model, {merges: its prefix}): this session's cuts


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
