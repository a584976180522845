"""Encode's word on the prompt's last token, in Text and Conversation mode: when the text ends where the tokenizer
would have merged with what comes next, a note and the longer tokens it would have made (token healing's choices).
The views are in ``pages/encode/views/prompt_end_view.py``; the cache in ``pages/encode/state.py``."""

from __future__ import annotations

import streamlit as st

from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import markdown
from pages.encode import state as encode_state
from pages.encode.views.prompt_end_view import end_note, next_tokens_html


def show_end(tok: AnyTokenizer, text: str, special: bool, *, message: bool = False) -> None:
    """The note and the chips when ``text`` (or, ``message``, a conversation's last message) may merge."""
    try:
        with st.spinner("Looking at the last token..."):  # the first look indexes the vocabulary: a second or two
            end = encode_state.text_end(tok, text, special)
    except ValueError:  # a pattern from a file too slow on this text: the page says so where it encodes it
        return
    if end is None or not (note := end_note(end, text, message=message)):
        return
    st.info(markdown(note), icon=":material/call_merge:")
    st.html(next_tokens_html(end))
