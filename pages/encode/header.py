"""The Encode page's header: its title and Copy link, the tokenizer chosen and what it is, Match special tokens.

Presenting, the header keeps to two rows so that a projector's first screen (853x480) reaches the typed text's
first tokens: the title shares its row with Copy link and takes the intro as its help, the tokenizer shares its row
with the toggle, the text box is lower and unlabelled (``text_box_style``), and the tokenizer's description and
"Load a tokenizer" wait under the tokens (``show_notes``).
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.pretrained import PRETRAINED, load_pretrained
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import markdown
from drawing.published import PRETRAINED_NOTES, loading_message, source_labels
from pages.encode import state as encode_state
from pages.encode.views.tools import describe_tokenizer, tokenizer_terms
from session import model_io, share_link, state

INTRO = (
    "Type text and see it cut into tokens. Hover, click or tap a token for its id, bytes and the merge that made it."
)


class Header(NamedTuple):
    link_slot: DeltaGenerator  # Copy link, filled once the text is known
    source: str
    tokenizer: AnyTokenizer | None  # None in Conversation mode, which draws its own choices
    match_special: bool
    conversation: bool = False


def choose_tokenizer() -> tuple[str, AnyTokenizer]:
    """The choice (one of ``encode_state.SOURCES``) and the tokenizer it gives."""
    model = state.current_model()
    name = state.model_name(model)
    labels = source_labels(name or "Trained model", named=bool(name))  # plain: a selectbox shows text as is
    source = st.selectbox(
        "Tokenizer",
        encode_state.SOURCES,
        key=encode_state.SOURCE_KEY,
        format_func=labels.__getitem__,
        persist_state="session",
    )
    if source in PRETRAINED:  # the spinner shows only if the load is slow (the first time on this server)
        with st.spinner(loading_message(source)):
            return source, load_pretrained(source)
    if source == "prefix":
        total = len(model.merges)
        if total == 0:
            st.info("This model has no merges, so every prefix is the model itself.")
            return source, model
        # Through session state, not value=, so a smaller new model clamps it; a first visit keeps every merge.
        state.keep_in_range(encode_state.PREFIX_MERGES_KEY, 0, total, start=total)
        merges = st.slider(
            "Merges to keep (the first k merges of this model)",
            0,
            total,
            key=encode_state.PREFIX_MERGES_KEY,
            persist_state="session",
        )
        return source, encode_state.encode_prefix(model, merges)
    return source, model


def show_header(ignored: list[str]) -> Header:
    presenting = state.presenting()
    # presenting, Copy link and the Conversation toggle beside the title, at its foot (higher, the page's header bar
    # would cover its top); else on one row under it
    title, bar = st.columns([3, 2], vertical_alignment="bottom") if presenting else [st.container()] * 2
    title.title("Encode / Decode", help=INTRO if presenting else None)
    row = bar.container(horizontal=True, vertical_alignment="center", gap="small", wrap=False)
    link_slot = row.container(width="content")
    state.start_widget(encode_state.MODE_KEY, False)
    conversation = row.toggle(
        "Conversation",
        key=encode_state.MODE_KEY,
        persist_state="session",
        help="Off: any text, any tokenizer. On: messages as a chat model receives them, in its own format, with its "
        "special tokens: the count an API bills.",
    )  # a toggle, whose code the first page fetches early (app.load_encode_code_early), not a segmented control
    share_link.warn_ignored(ignored)
    if not presenting:
        st.caption(INTRO)
    if conversation:
        return Header(link_slot, "", None, False, conversation=True)
    if not presenting:
        model_io.load_section("encode")
    # presenting, the toggle beside the tokenizer; else under it and its description, in one container
    pick, toggle = st.columns([3, 2], vertical_alignment="bottom") if presenting else [st.container()] * 2
    with pick:
        source, tokenizer = choose_tokenizer()
        if not presenting:
            describe(source, tokenizer)
    state.start_widget(encode_state.SPECIAL_KEY, True)
    match_special = toggle.toggle(
        "Match special tokens",
        key=encode_state.SPECIAL_KEY,
        persist_state="session",
        disabled=not tokenizer.config.special_tokens,
        help="On, a special token's text such as `<|endoftext|>` becomes that one token, as in the model's input; "
        "off, it is encoded as ordinary text, as tiktoken does for text from users.",
    )
    return Header(link_slot, source, tokenizer, match_special)


def text_box_style() -> dict:
    """The text box's height and label: presenting, two lines and a half under no label (the box is the page's
    subject; its label still names it to a screen reader), so that the tokens show too."""
    return {"height": 90, "label_visibility": "collapsed"} if state.presenting() else {"height": 120}


def describe(source: str, tokenizer: AnyTokenizer) -> None:
    note = PRETRAINED_NOTES.get(source)
    st.caption(
        describe_tokenizer(tokenizer, model_io.model_title(state.model_name(tokenizer))) + (f" {note}" if note else ""),
        help=markdown(tokenizer_terms(tokenizer)),
    )


def show_notes(source: str, tokenizer: AnyTokenizer) -> None:
    """Presenting: the tokenizer's description and "Load a tokenizer", which the header left out."""
    if state.presenting():
        describe(source, tokenizer)
        model_io.load_section("encode")
