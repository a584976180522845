"""Encode's Conversation mode: the messages (add, remove, edit), the tools offered (JSON), the chat model, and the
prompt that model receives as token boxes with its counts, against the model's context window. The views are in
``pages/encode/views/`` (``conversation.py``, ``chat_tools.py``, ``context_window.py``); the messages and the tools
in ``pages/encode/state.py``."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from bpe_core.chat import (
    CHAT_FORMATS,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES,
    MAX_TOOLS_CHARS,
    ROLES,
    ChatPrompt,
    render_conversation,
)
from bpe_core.pretrained import PUBLISHED, load_pretrained
from drawing.escape import markdown
from drawing.published import loading_message
from drawing.token_legend import render_legend
from pages.encode import state as encode_state
from pages.encode.ending import show_end
from pages.encode.views.chat_tools import read_tools_text, tools_link_note, tools_note
from pages.encode.views.context_window import past_window_note, window_help, window_line
from pages.encode.views.conversation import (
    ROLE_LABELS,
    chat_model_label,
    counts,
    format_note,
    link_note,
    message_count,
    placing_note,
    prompt_html,
    special_typed_note,
)
from pages.encode.views.layout import COUNTS_KEY, counts_css
from session import share_link, state
from session.addresses import MAX_LINK_TEXT

MODEL_LABELS = {name: chat_model_label(chat.title, PUBLISHED[name].title) for name, chat in CHAT_FORMATS.items()}


def show_conversation(link_slot: DeltaGenerator) -> None:
    pick, toggle = st.columns([3, 2], vertical_alignment="bottom")
    name = pick.selectbox(
        "Chat model",
        encode_state.CHAT_MODELS,
        key=encode_state.CHAT_MODEL_KEY,
        format_func=MODEL_LABELS.__getitem__,
        persist_state="session",
    )
    state.start_widget(encode_state.READY_KEY, True)
    ready = toggle.toggle(
        "Ready for the reply",
        key=encode_state.READY_KEY,
        persist_state="session",
        disabled=CHAT_FORMATS[name].always_ready,
        help="On, the prompt ends with the opening of the assistant's reply, as an API sends it to the model "
        "(add_generation_prompt); off, the conversation as it stands.",
    )
    note = markdown(format_note(CHAT_FORMATS[name], ready))
    if not state.presenting():  # presenting, under the tokens: a projector's first screen reaches them
        st.caption(note)
    messages, tools_text = encode_state.conversation(), encode_state.offered_tools()
    tools, refusal = read_tools_text(tools_text)
    offered = tools_text if tools else None
    with st.spinner(loading_message(name)):
        tok = load_pretrained(name)
    prompt = _rendered(name, messages, ready, offered)
    if prompt is not None:  # the prompt first, as Encode's boxes come right under its text
        show_prompt(prompt, tok, ready, offered)
        show_end(tok, messages[-1]["content"], not (prompt.chat.estimated or prompt.chat.script), message=True)
    if state.presenting():
        st.caption(note)
    st.subheader("Messages", anchor=False)
    show_messages(messages, prompt)
    show_tools(len(tools), refusal)
    left_out = (link_note(messages, MAX_LINK_TEXT), tools_link_note(tools_text, MAX_LINK_TEXT))
    with link_slot:
        share_link.show_address(state.page_address(encode_state.CHOICES)[0], " ".join(filter(None, left_out)))


def _rendered(name: str, messages: list[dict], ready: bool, tools: str | None) -> ChatPrompt | None:
    if not messages:
        return None
    try:
        return render_conversation(name, messages, ready_for_reply=ready, tools=tools)
    except ValueError as error:
        st.error(f"This conversation cannot be rendered: {markdown(str(error))}")
        return None


def show_tools(count: int, refusal: str) -> None:
    """The tools offered, as OpenAI's ``tools`` JSON in a folded editor, with a sample to load."""
    label = "Tools (JSON)" + (f": {count} function" + ("" if count == 1 else "s") if count else "")
    with st.expander(label, icon=":material/build:", key=encode_state.TOOLS_OPEN_KEY, on_change="rerun"):
        st.caption(
            'The functions the model may call, as the API\'s `tools` list: `[{"type": "function", "function": '
            '{"name": ..., "description": ..., "parameters": {...}}}]`. The chat format writes them into the prompt.'
        )
        st.button("Load a sample", key="encode_chat_tools_sample", on_click=encode_state.load_sample_tools)
        st.text_area(
            "Tools (JSON)",
            key=encode_state.TOOLS_KEY,
            persist_state="session",
            max_chars=MAX_TOOLS_CHARS,
            height=220,
            placeholder="[]",
            label_visibility="collapsed",
        )
        if refusal:
            st.error(markdown(refusal))


def show_window(prompt: ChatPrompt, ready: bool, tools: str | None) -> None:
    """How much of the model's context window the prompt takes, in words (Streamlit's progress bar ran past a phone's
    and a projector's edge); past it, a word and Cut to fit."""
    st.caption(markdown(window_line(prompt)), help=window_help(prompt))
    if error := st.session_state.pop(encode_state.CUT_ERROR_KEY, None):
        st.error(f"Cut to fit could not cut: {markdown(error)}")
    if note := past_window_note(prompt):
        st.error(markdown(note))
        st.button(
            f"Cut to fit ({prompt.context_window:,} tokens)",
            key="encode_chat_cut",
            icon=":material/content_cut:",
            on_click=encode_state.cut_to_fit,
            args=(prompt.chat.name, ready, tools),
        )


def show_messages(messages: list[dict], prompt: ChatPrompt | None) -> None:
    """Each message: its role, a Remove button and its token count on one row, its text under them."""
    encode_state.start_message_widgets()
    for index in range(len(messages)):
        with st.container(border=True, key=f"encode_chat_message_{index}"):
            row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
            row.selectbox(
                f"Message {index + 1}: role",
                ROLES,
                key=encode_state.role_key(index),
                format_func=ROLE_LABELS.__getitem__,
                on_change=encode_state.edit_message,
                args=(index,),
                width=160,
                label_visibility="collapsed",
            )
            if prompt is not None:
                row.caption(message_count(prompt, index))
            row.button(
                "Remove",
                key=f"encode_chat_remove_{index}",
                icon=":material/delete:",
                on_click=encode_state.remove_message,
                args=(index,),
                help=f"Remove message {index + 1}",
            )
            st.text_area(
                f"Message {index + 1}: text",
                key=encode_state.text_key(index),
                on_change=encode_state.edit_message,
                args=(index,),
                max_chars=MAX_MESSAGE_CHARS,
                height=68,
                label_visibility="collapsed",
            )
    if not messages:
        st.info("The conversation is empty: add a message to see the prompt the model receives.")
    st.button(
        "Add a message",
        key="encode_chat_add",
        icon=":material/add:",
        on_click=encode_state.add_message,
        disabled=len(messages) >= MAX_MESSAGES,
        help=f"At most {MAX_MESSAGES} messages",
    )


def show_prompt(prompt: ChatPrompt, tok, ready: bool, tools: str | None) -> None:
    """The counts and the window they take, then the prompt's boxes, their key and what to say of them."""
    row = st.container(horizontal=True, gap="medium", key=COUNTS_KEY)
    for label, value in counts(prompt):
        row.metric(label, value)
    presenting = state.presenting()
    if not presenting:  # under the counts: past the window, Cut to fit shows in the first screen
        show_window(prompt, ready, tools)
    st.html(counts_css() + prompt_html(prompt, tok))
    st.html(
        render_legend(prompt.tokens, prompt.shown, chat_format=not prompt.chat.estimated, tools=any(prompt.tool_counts))
    )
    for note in (tools_note(prompt), placing_note(prompt), special_typed_note(prompt)):
        if note:
            st.info(markdown(note))
    if presenting:  # a projector's first screen keeps the boxes
        show_window(prompt, ready, tools)
