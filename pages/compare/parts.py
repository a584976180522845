"""What Compare's tabs share: their inputs, a token strip under its heading, and a choice among the sizes."""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from bpe_core import Token, Tokenizer
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing import escape
from drawing.describe import plural
from drawing.pipeline_view import tokens_html
from pages.compare.views import setup
from pages.compare.views.data import ComparedSize, chars_per_token


class TabInputs(NamedTuple):
    """What every tab is drawn from: the session's model and its corpus, the text typed, the sizes."""

    tok: Tokenizer
    corpus: str
    text: str
    sizes: list[ComparedSize]


def show_token_strip(
    tok: AnyTokenizer, text: str, heading: str, strips: int, tokens: list[Token] | None = None
) -> list[Token]:
    """Draw ``text`` encoded by ``tok`` (or its ``tokens``) under a heading with the token count, as one of ``strips``
    the tab draws (which share a bound on the boxes they send: ``setup.strip_chars``); return the tokens."""
    tokens = tok.encode_with_spans(text) if tokens is None else tokens
    ratio = chars_per_token(text, [len(tokens)])[0]
    st.markdown(f"{escape.markdown(heading)} — **{plural(len(tokens), 'token')}** ({ratio:.2f} characters per token)")
    shown = setup.strip_chars(tokens, strips)
    st.html(tokens_html(tok, tokens, text, max_chars=shown))  # on the text the model sees, its first part if long
    return tokens


def size_select(label: str, sizes: list[ComparedSize], key: str) -> ComparedSize:
    """One of the compared sizes, the largest first, on a row of its own: in a column its label was cut at 853x480."""
    return st.selectbox(label, sizes, index=len(sizes) - 1, format_func=lambda size: size.label, key=key)
