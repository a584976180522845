"""Encode's Conversation mode under Streamlit's AppTest: the counts of a conversation the prompt's way, messages
added, edited and removed, kept across pages and in the address."""

from __future__ import annotations

import json

from support.pages import metrics, ok, open_address, open_conversation, shown

from pages.encode import state as encode_state
from session.page_registry import ENCODE, TRAIN

HI = '[["user","Hi!"]]'  # as the address writes it: compact JSON


def test_a_conversation_from_its_address_is_counted_the_prompts_way():
    # Qwen3's ChatML by hand: <|im_start|> user \n | Hi ! | <|im_end|> \n <|im_start|> assistant \n
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": HI})
    assert metrics(at) == {"Tokens in all": "10", "In messages": "2", "By the format": "8"}
    assert at.text_area(key=encode_state.text_key(0)).value == "Hi!"
    assert "2 tokens" in [caption.value for caption in at.caption]
    assert (at.query_params["messages"], at.query_params["chat"]) == (HI, "qwen3")


def test_ready_for_the_reply_off_leaves_out_the_replys_opening():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": HI, "reply": "off"})
    assert not at.toggle(key=encode_state.READY_KEY).value
    assert metrics(at)["Tokens in all"] == "7"  # <|im_start|> assistant \n (3 tokens) left out
    at.toggle(key=encode_state.READY_KEY).set_value(True)
    assert metrics(ok(at.run()))["Tokens in all"] == "10"
    assert "reply" not in at.query_params


def test_messages_are_added_edited_and_removed():
    at = open_conversation()
    at.button(key="encode_chat_add").click()
    ok(at.run())
    assert at.selectbox(key=encode_state.role_key(2)).value == "assistant"  # after the user's question
    at.text_area(key=encode_state.text_key(2)).input("Hi!")
    ok(at.run())
    assert at.session_state[encode_state.MESSAGES_KEY][2] == {"role": "assistant", "content": "Hi!"}
    at.button(key="encode_chat_remove_0").click()  # the system message goes; the others move up
    ok(at.run())
    assert [at.text_area(key=encode_state.text_key(index)).value for index in range(2)] == [
        "How many tokens does this question cost? 🙂",
        "Hi!",
    ]
    assert at.selectbox(key=encode_state.role_key(1)).value == "assistant"
    at.button(key="encode_chat_remove_0").click()
    at.run()
    at.button(key="encode_chat_remove_0").click()
    ok(at.run())
    assert "add a message" in shown(at.info)
    assert not at.metric


def test_the_conversation_and_the_mode_are_kept_across_pages():
    at = open_conversation()
    at.text_area(key=encode_state.text_key(1)).input("Count me")
    ok(at.run())
    ok(at.switch_page(TRAIN.path).run())
    ok(at.switch_page(ENCODE.path).run())
    assert at.toggle(key=encode_state.MODE_KEY).value
    assert at.selectbox(key=encode_state.CHAT_MODEL_KEY).value == "qwen3"
    assert at.text_area(key=encode_state.text_key(1)).value == "Count me"


def test_gpt4_says_its_format_count_is_openais_estimate():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "cl100k_base", "messages": HI})
    # the OpenAI cookbook: 3 a message + 1 for "user" + 3 for the reply's priming; Hi! is 2 tokens
    assert metrics(at) == {"Tokens in all": "9", "In messages": "2", "By the format (OpenAI's estimate)": "7"}
    assert "OpenAI does not publish GPT-4's chat format" in shown(at.caption)


def test_a_bad_conversation_in_the_address_is_warned_about_and_the_example_shown():
    at = open_address(ENCODE.path, {"mode": "chat", "messages": '[["robot", "beep"]]'})
    assert "message 1 has the role 'robot'" in shown(at.warning)
    assert at.text_area(key=encode_state.text_key(0)).value == "You are a helpful assistant."


def test_special_token_text_in_a_message_is_said_and_html_stays_text():
    messages = json.dumps([["user", "<script>alert(1)</script> <|im_end|>"]])
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": messages})
    assert "A message holds the text of a special token (<|im_end|>)" in shown(at.info)
    boxes = next(element.value for element in at.get("html") if "bpe-scroll" in element.value)
    assert "<script" not in boxes and "&lt;script" in boxes  # its tokens: <script | >alert | ...


def test_a_templates_own_refusal_is_an_error_in_words_and_mistrals_reply_toggle_is_off_limits():
    two_users = '[["user","a"],["user","b"]]'
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "gemma3", "messages": two_users})
    assert "This conversation cannot be rendered" in shown(at.error)
    assert "Conversation roles must alternate user/assistant" in shown(at.error)
    assert not at.metric and not at.toggle(key=encode_state.READY_KEY).disabled
    at.selectbox(key=encode_state.CHAT_MODEL_KEY).set_value("mistral-tekken-v3")
    ok(at.run())
    assert at.toggle(key=encode_state.READY_KEY).disabled  # Mistral's prompt always ends with [/INST]
    # <s> [INST] a \n\n b [/INST]: neighbouring user messages joined by a blank line, as mistral-common does
    assert metrics(at)["By the format"] == "4"


def test_conversation_mode_keeps_the_sidebar():
    """The mode stops the page after its conversation (st.stop): the sidebar, drawn before the page, keeps its title,
    its model line (the session's first model: byte-level, 2,000 merges) and the Presentation mode toggle."""
    at = open_conversation()
    assert [block.value for block in at.sidebar.markdown] == ["### :material/extension: BPE Explorer"]
    assert [caption.value for caption in at.sidebar.caption] == [
        "Current model: a vocabulary of 2,256 tokens, 2,000 of them made by merges"  # 256 bytes + one a merge
    ]
    assert [toggle.label for toggle in at.sidebar.toggle] == ["Presentation mode"]
