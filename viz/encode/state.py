"""The Encode page's own session-state keys: its widgets (widget keys start with ``encode_``, state keys with
``bpe_encode_``), the sections drawn only while open, and the prefix of the model kept for the slider.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer

SOURCE_KEY, PREFIX_MERGES_KEY, TEXT_KEY = "encode_source", "encode_prefix_merges", "encode_text"
IDS_KEY, PIECE_KEY = "encode_ids", "encode_piece"  # the decoder's ids, the piece replayed
SPECIAL_KEY = "encode_match_special"
# The sections drawn only while open (expanders): "Why this split?", the decoder, the token table
WHY_KEY, DECODE_KEY, TABLE_KEY = "encode_why", "encode_decode", "encode_token_table"
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
KEPT = (SOURCE_KEY, PREFIX_MERGES_KEY, SPECIAL_KEY, WHY_KEY, PIECE_KEY, DECODE_KEY, IDS_KEY, TABLE_KEY)
