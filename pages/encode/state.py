"""The Encode page's own session-state keys: its widgets (widget keys start with ``encode_``, state keys with
``bpe_encode_``), the sections drawn only while open, its choices in its address, and the prefix of the model kept
for the slider.
"""

from __future__ import annotations

from typing import cast

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.chat import CHAT_FORMATS, MAX_MESSAGES, cut_to_window
from bpe_core.pretrained import PRETRAINED
from bpe_core.prompt_end import PromptEnd, prompt_end
from bpe_core.rank_tokenizer import AnyTokenizer
from pages.encode.views.chat_tools import SAMPLE_TOOLS_TEXT
from pages.encode.views.conversation import DEFAULT_MESSAGES
from session import state
from session.addresses import MAX_LINK_TEXT, TEXT_PARAM
from session.choices import Choice, Conversation, OneOf, Section, Text, ToolsList, WholeNumber
from session.model_key import MODEL_HASH

SOURCE_KEY, PREFIX_MERGES_KEY, TEXT_KEY = "encode_source", "encode_prefix_merges", "encode_text"
SOURCES = ("model", "prefix", *PRETRAINED)  # the session's model, a prefix of it, the published tokenizers
MAX_PREFIX = 1_000_000  # merges a prefix keeps at most (bpe_core.train.MAX_SIZE)
EXAMPLE_TEXT = (
    "Hello, world! The café opens at 9:30.\nTokenizers don't see words 🙂 they see pieces: unbelievably, interesting…"
)
IDS_KEY, PIECE_KEY = "encode_ids", "encode_piece"  # the decoder's ids, the piece replayed
SPECIAL_KEY = "encode_match_special"
# The folded sections (expanders): the token ids; drawn only while open, "Why this split?", the decoder, the table
IDS_OPEN_KEY = "encode_token_ids"
WHY_KEY, DECODE_KEY, TABLE_KEY = "encode_why", "encode_decode", "encode_token_table"
TABLE_PAGE_KEY = "encode_table_page"  # which rows of a long text's token table
CUT_KEY, CUT_TOKENS_KEY = "encode_cut", "encode_cut_tokens"  # "Cut at N tokens", and its N
DEFAULT_CUT_TOKENS, MAX_CUT_TOKENS = 20, 1_000_000
_PREFIX_KEY = "bpe_encode_prefix"  # (model, merges, prefix tokenizer): one cut kept per session


# Conversation mode: the chat model, "ready for the reply", and the messages (a list kept in the session, each
# message's role and text drawn by widgets keyed by its place)
MODE_KEY = "encode_mode"  # the Conversation toggle
MODES = {"text": False, "chat": True}  # the address's names of the modes, and the toggle's values
CHAT_MODEL_KEY, READY_KEY = "encode_chat_model", "encode_chat_ready"
CHAT_MODELS = tuple(CHAT_FORMATS)
MESSAGES_KEY = "bpe_encode_messages"
TOOLS_KEY, TOOLS_OPEN_KEY = "encode_chat_tools", "encode_chat_tools_open"  # the tools' JSON editor, its section
CUT_ERROR_KEY = "bpe_encode_cut_error"  # why Cut to fit could not cut, shown once
# The prompt's last token is looked at for texts up to this long: the engine encodes the whole text again, and a
# longer text is seldom a prompt typed by hand
MAX_END_CHARS = 20_000


def role_key(index: int) -> str:
    return f"encode_chat_role_{index}"


def text_key(index: int) -> str:
    return f"encode_chat_text_{index}"


def conversation() -> list[dict]:
    """The messages, the example conversation until the user changes it."""
    return st.session_state.setdefault(MESSAGES_KEY, [dict(message) for message in DEFAULT_MESSAGES])


def start_message_widgets() -> None:
    """Give each message's widgets its role and text (a first run, or after a message was removed)."""
    for index, message in enumerate(conversation()):
        state.start_widget(role_key(index), message["role"])
        state.start_widget(text_key(index), message["content"])


def edit_message(index: int) -> None:
    """A message's widgets' on_change: their values become the message (a new list: the address follows)."""
    messages = list(conversation())
    messages[index] = {"role": st.session_state[role_key(index)], "content": st.session_state[text_key(index)]}
    st.session_state[MESSAGES_KEY] = messages


def add_message() -> None:
    """An empty message after the last: the user's after the assistant or the system, else the assistant's."""
    messages = conversation()
    role = "assistant" if messages and messages[-1]["role"] == "user" else "user"
    st.session_state[MESSAGES_KEY] = [*messages, {"role": role, "content": ""}][:MAX_MESSAGES]


def remove_message(index: int) -> None:
    """Drop a message; the widgets after it move up a place, so every message's widgets start again from it."""
    messages = conversation()
    st.session_state[MESSAGES_KEY] = messages[:index] + messages[index + 1 :]
    for place in range(len(messages)):
        st.session_state.pop(role_key(place), None)
        st.session_state.pop(text_key(place), None)


def load_sample_tools() -> None:
    st.session_state[TOOLS_KEY] = SAMPLE_TOOLS_TEXT


def offered_tools() -> str:
    """The tools editor's text (the widget's value before it is drawn this run)."""
    return st.session_state.get(TOOLS_KEY, "")


def cut_to_fit(name: str, ready: bool, tools: str | None) -> None:
    """Cut to fit's on_click: the last message's text cut so that the prompt fits the model's context window."""
    messages = conversation()
    try:
        cut = cut_to_window(name, messages, tools=tools, ready_for_reply=ready)
    except ValueError as error:
        st.session_state[CUT_ERROR_KEY] = str(error)
        return
    st.session_state[MESSAGES_KEY] = cut
    st.session_state.pop(text_key(len(cut) - 1), None)  # its text box starts again from the cut text


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=MODEL_HASH)
def _cached_end(tok: AnyTokenizer, text: str, special: bool) -> PromptEnd:
    # prompt_end is typed for a Tokenizer; a published RankTokenizer answers all it asks too
    return prompt_end(cast(Tokenizer, tok), text, special=special)


def text_end(tok: AnyTokenizer, text: str, special: bool) -> PromptEnd | None:
    """The end of ``text`` as ``tok`` would have merged it, cached for every session by the tokenizer
    (``session.model_key``); None for an empty or a long text."""
    if not text or len(text) > MAX_END_CHARS:
        return None
    return _cached_end(tok, text, special)


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


# The page's choices, in the order its address gives them. The other widgets (the ids typed, the piece replayed,
# Match special tokens) keep their values while not drawn by persist_state.
CHOICES = (
    Choice(MODE_KEY, False, "mode", OneOf(MODES)),
    Choice(SOURCE_KEY, "model", "tokenizer", OneOf(SOURCES)),
    # kept within the model's merges when drawn
    Choice(PREFIX_MERGES_KEY, param="prefix", kind=WholeNumber(0, MAX_PREFIX), only_with=(SOURCE_KEY, "prefix")),
    Choice(TEXT_KEY, EXAMPLE_TEXT, TEXT_PARAM, Text(MAX_LINK_TEXT)),
    # the folded sections, by their names in the address's list of those open
    Choice(IDS_OPEN_KEY, False, "open", Section("ids"), kept=True),
    Choice(WHY_KEY, False, "open", Section("why"), kept=True),
    Choice(DECODE_KEY, False, "open", Section("decode"), kept=True),
    Choice(TABLE_KEY, False, "open", Section("table"), kept=True),
    Choice(CUT_KEY, False, "open", Section("cut"), kept=True),
    Choice(CUT_TOKENS_KEY, DEFAULT_CUT_TOKENS, "cut", WholeNumber(0, MAX_CUT_TOKENS), only_with=(CUT_KEY, True)),
    state.model_io_section("encode"),
    # Conversation mode's choices, written with it; the messages only while their JSON is short enough for a link
    Choice(CHAT_MODEL_KEY, CHAT_MODELS[0], "chat", OneOf(CHAT_MODELS), only_with=(MODE_KEY, True)),
    Choice(READY_KEY, True, "reply", OneOf({"on": True, "off": False}), only_with=(MODE_KEY, True)),
    Choice(MESSAGES_KEY, list(DEFAULT_MESSAGES), "messages", Conversation(MAX_LINK_TEXT), only_with=(MODE_KEY, True)),
    Choice(TOOLS_KEY, "", "tools", ToolsList(MAX_LINK_TEXT), only_with=(MODE_KEY, True)),
    Choice(TOOLS_OPEN_KEY, False, "open", Section("tools"), kept=True),
)
