"""Encode / Decode: how a tokenizer cuts text, why it cuts it there, and ids back to text."""

from __future__ import annotations

from functools import partial
from typing import cast

import streamlit as st

from bpe_core import Token
from bpe_core.pipeline.tokenizer import PipelineTokenizer
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import markdown
from drawing.pipeline_view import pipeline_steps, steps_markdown, tokens_html
from drawing.token_legend import render_legend
from pages.encode import chat as encode_chat
from pages.encode import folded as encode_folded
from pages.encode import header as encode_header
from pages.encode import state as encode_state
from pages.encode.ending import show_end
from pages.encode.live_text import commit_while_typing
from pages.encode.views.layout import COUNTS_KEY, counts_css
from pages.encode.views.tools import describe_round_trip
from session import share_link, state

TEXT_LABEL = "Text to encode"


def show_counts(ids: list[int], text: str) -> None:
    row = st.container(horizontal=True, gap="medium", key=COUNTS_KEY)  # one row on a phone too (columns would stack)
    row.metric("Tokens", f"{len(ids):,}")
    row.metric("Characters", f"{len(text):,}")
    row.metric("Characters per token", f"{len(text) / len(ids):.2f}" if ids else "–")


def show_tokens(tok: AnyTokenizer, tokens: list[Token], text: str, shown: str, match_special: bool) -> None:
    """The coloured boxes and their key; for a tokenizer.json, what its parts did, step by step, under them."""
    steps = pipeline_steps(tok, text, tokens, match_special) if isinstance(tok, PipelineTokenizer) else None
    cuts, hits = (steps.cuts, steps.hits) if steps else (set(), set())
    # with the counts' CSS (a short row above: the boxes start close under the text box)
    st.html(counts_css() + tokens_html(tok, tokens, text, match_special, cuts=cuts, hits=hits))
    st.html(render_legend(tokens, shown, cuts=bool(cuts), hits=bool(hits)))
    if steps:
        st.markdown(
            "**What each step did** (the boxes above show the text as the model sees it, after the normalizer)\n\n"
            + "\n".join(f"- {markdown(line)}" for line in steps_markdown(steps))
        )


def show_round_trip(tok: AnyTokenizer, tokens: list[Token], text: str, shown: str) -> None:
    ids = [token.id for token in tokens]
    decoded = tok.decode(ids)
    losses = "\n".join(f"- {markdown(note)}" for note in describe_round_trip(text, decoded))
    if losses and shown != text:
        st.info(
            "**Round trip gives the text as the model saw it**: the normalizer changed it before encoding "
            f"(step 1 above), so `decode(encode(text)) != text`\n{losses}"
        )
    elif losses:
        st.warning(f"**Round trip loses text**: `decode(encode(text)) != text`\n{losses}")
    else:
        st.success("**Round trip OK**: `decode(encode(text)) == text`")


# Before any widget: the address's choices on a first visit, then the sections open or closed as on the last visit
_, ignored = state.take_address(encode_state.CHOICES, st.query_params.to_dict(), "encode")
state.keep_choices(encode_state.CHOICES)
header = encode_header.show_header(ignored)
if header.conversation:  # messages as a chat model receives them: a mode of its own
    encode_chat.show_conversation(header.link_slot)
    st.stop()
source, match_special = header.source, header.match_special
tokenizer = cast(AnyTokenizer, header.tokenizer)  # None only in Conversation mode, stopped above

state.restore_text(encode_state.TEXT_KEY, encode_state.EXAMPLE_TEXT)
text = st.text_area(
    TEXT_LABEL,
    key=encode_state.TEXT_KEY,
    **encode_header.text_box_style(),
    max_chars=state.TEXT_MAX_CHARS,
    on_change=state.share_text,
    args=(encode_state.TEXT_KEY,),
)  # shared with Compare
commit_while_typing(TEXT_LABEL, text)  # updates as the user types

tokens: list[Token] | None  # None: the text cannot be encoded
try:
    tokens = tokenizer.encode_with_spans(text, special=match_special)
except ValueError as error:
    st.error(f"This text cannot be encoded: {markdown(str(error))}")
    tokens = None

if tokens is not None:
    shown = tokenizer.shown_text(text, special=match_special)  # a normalizer may rewrite the text: spans point here
    show_counts([token.id for token in tokens], text)  # the counts, then the boxes, right under the text box
    show_tokens(tokenizer, tokens, text, shown, match_special)
    show_end(tokenizer, text, match_special)  # a text that ends in the middle of a merge
    show_round_trip(tokenizer, tokens, text, shown)
encode_header.show_notes(source, tokenizer)  # presenting: what the header left out, under the tokens
ids = [token.id for token in tokens or []]
with st.expander("Token ids", icon=":material/tag:", key=encode_state.IDS_OPEN_KEY, on_change="rerun"):
    encode_folded.show_ids(ids)  # always drawn: short, and Decode's example
# The rest is drawn only while open (each a click away, kept open or closed across page switches); all but the
# decoder need the text encoded
encoded = tokens is not None
folded = (  # label, icon, state key, what it draws (None: nothing while the text cannot be encoded)
    ("Why this split? Replay how one piece is merged", "help", encode_state.WHY_KEY,
     partial(encode_folded.show_why, tokenizer, text, match_special) if encoded else None),
    ("Decode: token ids back to text", "undo", encode_state.DECODE_KEY,
     partial(encode_folded.show_decoder, tokenizer, ids)),
    ("Token table: one row per token", "table_rows", encode_state.TABLE_KEY,
     partial(encode_folded.show_table, tokens, shown) if tokens is not None else None),
    ("Cut at N tokens: the longest beginning that fits", "content_cut", encode_state.CUT_KEY,
     partial(encode_folded.show_cut, tokenizer, text, match_special) if encoded else None),
)  # fmt: skip
for label, icon, key, draw in folded:
    with st.expander(label, icon=f":material/{icon}:", key=key, on_change="rerun") as section:
        if section.open and draw is not None:
            draw()
with header.link_slot:
    share_link.show_address(*state.page_address(encode_state.CHOICES, {encode_state.TEXT_KEY: text}))
