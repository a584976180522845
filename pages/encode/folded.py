"""The Encode page's folded sections: the token ids, and, drawn only while open, Why this split?, the decoder,
the token table and the text cut at N tokens."""

from __future__ import annotations

import streamlit as st

from bpe_core import Token, UnknownIdError
from bpe_core.rank_tokenizer import AnyTokenizer
from bpe_core.truncate import fit_prefix
from drawing.escape import markdown
from drawing.notation import glyph_legend
from drawing.readable import token_text
from pages.encode import state as encode_state
from pages.encode.views.cut_view import cut_html, cut_summary
from pages.encode.views.replay_html import render_explain
from pages.encode.views.tools import (
    TABLE_ROWS,
    parse_ids,
    replay_caption,
    replay_choices,
    table_pages,
    token_rows,
    token_table_html,
)
from session import state

MAX_PIECES = 200  # choices offered under "Why this split"


MAX_EXPLAIN_CHARS = 200  # a longer piece is cut before replaying it merge by merge


def show_ids(ids: list[int]) -> None:
    st.caption("Decode, below, turns them back into text.")
    st.code(", ".join(map(str, ids)), language=None, wrap_lines=True)


def show_why(tok: AnyTokenizer, text: str, match_special: bool) -> None:
    labels = replay_choices(tok, text, match_special, limit=MAX_PIECES)
    pieces = list(labels)
    if not pieces:
        st.caption("Type some text above (besides special tokens) to replay how one of its pieces is encoded.")
        return
    st.caption(replay_caption(tok))
    state.default_unless_offered(encode_state.PIECE_KEY, pieces, max(pieces, key=len))  # the longest, or the one kept
    piece = st.selectbox(
        "Piece", pieces, key=encode_state.PIECE_KEY, format_func=labels.__getitem__, persist_state="session"
    )
    if len(piece) > MAX_EXPLAIN_CHARS:
        st.caption(f"This piece is long; replaying its first {MAX_EXPLAIN_CHARS} characters.")
        piece = piece[:MAX_EXPLAIN_CHARS]
    if tok.ignores_merges(piece):
        st.info(
            "**Whole-word hit (ignore_merges)**: this piece is already a token, so the model takes it whole "
            "without merging. Below: the merges that would build it."
        )
    history = tok.explain(piece)
    counts = [step.count for step in tok.steps] if tok.has_counts else None
    st.html(render_explain(history, tok.merges, counts=counts, byte_level=tok.byte_level))
    if len(history) == 1:
        st.caption("No merge applies to this piece: it stays as its base symbols.")
    symbols = (token_text(symbol, tok.byte_level) for _, row in history for symbol in row)  # as the rows write them
    if legend := glyph_legend(symbols, spaces_as_g=tok.config.space_marker):
        st.caption(markdown(legend))


def show_decoder(tok: AnyTokenizer, example_ids: list[int]) -> None:
    input_col, button_col = st.columns([4, 1], vertical_alignment="bottom")
    button_col.button("Use ids above", on_click=encode_state.fill_decoder, args=(example_ids,), key="encode_fill_ids")
    raw_ids = input_col.text_input(
        "Token ids (comma or space separated)",
        key=encode_state.IDS_KEY,
        persist_state="session",
        placeholder=", ".join(map(str, example_ids[:8])) or "15496, 11, 0",
    )
    if not raw_ids.strip():
        return
    try:
        decoded = tok.decode(parse_ids(raw_ids))
    except UnknownIdError as error:
        st.error(f"Cannot decode: {markdown(str(error))}.")
        return
    except ValueError as error:
        st.error(f"Cannot read the ids: {markdown(str(error))}.")
        return
    st.caption("Decoded text:")
    st.code(decoded, language=None, wrap_lines=True)
    if "\ufffd" in decoded:
        st.caption("� marks bytes that do not form a whole character: an id there holds only part of one.")


def show_table(tokens: list[Token], text: str) -> None:
    """One row per token (``text`` is the text the spans point into); a long text's rows a page at a time."""
    rows, first = token_rows(tokens, text), 0
    if len(rows) > TABLE_ROWS:
        pages = table_pages(len(rows))
        # the rows chosen, or the first ones again when the text shrinks
        state.default_unless_offered(encode_state.TABLE_PAGE_KEY, list(pages), 0)
        first = st.selectbox("Rows", list(pages), key=encode_state.TABLE_PAGE_KEY, format_func=pages.__getitem__)
    st.html(token_table_html(rows[first : first + TABLE_ROWS]))


def show_cut(tok: AnyTokenizer, text: str, match_special: bool) -> None:
    """The longest beginning of the text that takes at most N tokens (whole characters, an exact prefix), the rest
    faded, and the beginning again in a box with a copy button."""
    limit = st.number_input(
        "Tokens at most",
        min_value=0,
        max_value=encode_state.MAX_CUT_TOKENS,
        value=encode_state.DEFAULT_CUT_TOKENS,
        key=encode_state.CUT_TOKENS_KEY,
        persist_state="session",
        help="The beginning kept is encoded on its own: it never ends inside a character or a special token.",
    )
    try:
        kept = fit_prefix(tok, text, limit, special=match_special)
        used = len(tok.encode(kept, special=match_special))
    except ValueError as error:  # a pattern from a file too slow on this text
        st.error(f"This text cannot be cut: {markdown(str(error))}")
        return
    st.caption(cut_summary(text, kept, limit=limit, used=used))
    st.html(cut_html(kept, text[len(kept) :]))
    if kept:
        st.code(kept, language=None, wrap_lines=True, height=120 if kept.count("\n") > 4 else "content")
