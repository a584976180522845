"""The Encode page's own session-state keys: its widgets (widget keys start with ``encode_``, state keys with
``bpe_encode_``), the sections drawn only while open, and the prefix of the model kept for the slider.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from viz import state
from viz.encode.links import encode_params, read_encode_params

SOURCE_KEY, PREFIX_MERGES_KEY, TEXT_KEY = "encode_source", "encode_prefix_merges", "encode_text"
IDS_KEY, PIECE_KEY = "encode_ids", "encode_piece"  # the decoder's ids, the piece replayed
SPECIAL_KEY = "encode_match_special"
# The folded sections (expanders): the token ids; drawn only while open, "Why this split?", the decoder, the table
IDS_OPEN_KEY = "encode_token_ids"
WHY_KEY, DECODE_KEY, TABLE_KEY = "encode_why", "encode_decode", "encode_token_table"
TABLE_PAGE_KEY = "encode_table_page"  # which rows of a long text's token table
_PREFIX_KEY = "bpe_encode_prefix"  # (model, merges, prefix tokenizer): one cut kept per session


def encode_prefix(model: Tokenizer, merges: int) -> Tokenizer:
    """``model.prefix(merges)``, remembered so reruns at the same slider value are free."""
    kept = st.session_state.get(_PREFIX_KEY)
    if kept is not None and kept[0] is model and kept[1] == merges:
        return kept[2]
    prefix = model.prefix(merges)
    st.session_state[_PREFIX_KEY] = (model, merges, prefix)
    return prefix


def fill_decoder(ids: list[int]) -> None:
    st.session_state[IDS_KEY] = ", ".join(map(str, ids))


# Kept across page switches and while a section is closed: the choices, the ids typed, the sections open
KEPT = (SOURCE_KEY, PREFIX_MERGES_KEY, SPECIAL_KEY, IDS_OPEN_KEY, WHY_KEY, PIECE_KEY, DECODE_KEY, IDS_KEY, TABLE_KEY)


LINK_READ_KEY = "bpe_encode_link_read"  # the address's parameters were given to the widgets: once a session
# A section's name in the address, and its key
_SECTION_KEYS = {"ids": IDS_OPEN_KEY, "why": WHY_KEY, "decode": DECODE_KEY, "table": TABLE_KEY}


def take_link(query_params: dict, tokenizers: tuple[str, ...]) -> list[str]:
    """On the session's first Encode run, put what its address asks (``viz.encode.links``) into the widgets before
    they are drawn; returns the parameters ignored."""
    if not state.first_time(LINK_READ_KEY):
        return []
    link = read_encode_params(query_params, tokenizers)
    if link.tokenizer is not None:
        st.session_state[SOURCE_KEY] = link.tokenizer
    if link.prefix is not None:
        st.session_state[PREFIX_MERGES_KEY] = link.prefix  # kept within the model's merges when drawn
    if link.text is not None:
        state.set_text(TEXT_KEY, link.text)
    for name in link.open_sections or ():
        st.session_state[_SECTION_KEYS[name]] = True
    return link.warnings


def address(text: str, example: str) -> tuple[dict[str, str], str]:
    """The page's state as query parameters (``viz.encode.links``), and what they cannot carry."""
    tokenizer = st.session_state.get(SOURCE_KEY, "model")
    open_sections = [name for name, key in _SECTION_KEYS.items() if st.session_state.get(key)]
    return encode_params(tokenizer, st.session_state.get(PREFIX_MERGES_KEY), text, open_sections, example)
