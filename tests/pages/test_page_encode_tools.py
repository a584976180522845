"""Encode under Streamlit's AppTest, beyond the messages: the tools offered (a sample loaded, bad ones refused in words
with the conversation kept, a short list in the address), the context window (and Cut to fit past it), and the word
on a text that ends in the middle of a merge."""

from __future__ import annotations

import json

from support.pages import metrics, ok, open_address, open_conversation, shown

from pages.encode import state as encode_state
from pages.encode.views.chat_tools import SAMPLE_TOOLS
from session.page_registry import ENCODE

HI = '[["user","Hi!"]]'
F = {"type": "function", "function": {"name": "f", "description": "Does f."}}


def test_a_sample_of_tools_is_loaded_and_counted_apart():
    at = open_conversation()
    at.button(key="encode_chat_tools_sample").click()
    ok(at.run())
    assert json.loads(at.text_area(key=encode_state.TOOLS_KEY).value) == SAMPLE_TOOLS
    counted = metrics(at)
    assert list(counted) == ["Tokens in all", "In messages", "By the tools", "By the format"]
    assert int(counted["By the tools"]) > 0
    assert sum(int(counted[label]) for label in list(counted)[1:]) == int(counted["Tokens in all"])
    assert json.loads(at.query_params["tools"]) == SAMPLE_TOOLS  # 529 characters: a link carries them


def test_tools_from_the_address_and_gpt4s_estimate_of_them():
    tools = json.dumps([{**F, "function": {**F["function"], "parameters": {"type": "object", "properties": {}}}}])
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "cl100k_base", "messages": HI, "tools": tools})
    # the OpenAI cookbook's num_tokens_for_tools on gpt-4: 10 + "f:Does f" (4 tokens) + 12
    assert metrics(at)["By the tools (OpenAI's estimate)"] == "26"
    assert "num_tokens_for_tools" in shown(at.info)
    assert json.loads(at.text_area(key=encode_state.TOOLS_KEY).value)[0]["function"]["name"] == "f"


def test_gemma_says_it_sends_no_tools():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "gemma3", "messages": HI, "tools": json.dumps([F])})
    assert "Gemma 3's template has no tools: the tools list is not sent." in shown(at.info)
    assert metrics(at)["By the tools"] == "0"


def test_bad_tools_are_refused_naming_them_and_the_conversation_kept():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": HI})
    second_unnamed = '[{"type": "function", "function": {"name": "f"}}, {"function": {}}]'
    at.text_area(key=encode_state.TOOLS_KEY).input(second_unnamed)
    ok(at.run())
    assert "These tools are refused: tool 2 has no name" in shown(at.error)
    assert metrics(at) == {"Tokens in all": "10", "In messages": "2", "By the format": "8"}  # Hi! as before
    assert at.text_area(key=encode_state.text_key(0)).value == "Hi!"
    at.text_area(key=encode_state.TOOLS_KEY).input('[{"name": ')
    ok(at.run())
    assert "the tools is not valid JSON" in shown(at.error)
    assert "tools" not in at.query_params


def test_a_bad_tools_list_in_the_address_is_warned_about():
    at = open_address(ENCODE.path, {"mode": "chat", "messages": HI, "tools": '[{"function": {}}]'})
    assert "tool 1 has no name" in shown(at.warning)
    assert at.text_area(key=encode_state.TOOLS_KEY).value == ""


def test_the_window_line_and_cut_to_fit_past_it():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": HI})
    assert "10 of 32,768 tokens (0.03%), 32,758 left for the reply" in shown(at.caption)
    at.selectbox(key=encode_state.CHAT_MODEL_KEY).set_value("cl100k_base")  # GPT-4: 8,192 tokens
    ok(at.run())
    at.text_area(key=encode_state.text_key(0)).input("word " * 9_000)  # word, then 8,999 ␣word, then ␣: 9,001
    ok(at.run())
    assert metrics(at)["Tokens in all"] == "9,008"  # and 3 + 1 (user) + 3 for the reply
    assert "9,008 tokens: 816 past the 8,192-token window" in shown(at.caption)
    assert "more than GPT-4 reads (8,192)" in shown(at.error)
    at.button(key="encode_chat_cut").click()
    ok(at.run())
    # 8,185 tokens of text are left besides the format's 7: word and 8,184 ␣word, no trailing space
    assert metrics(at)["Tokens in all"] == "8,192"
    assert at.text_area(key=encode_state.text_key(0)).value == "word" + " word" * 8_184
    assert "0 left for the reply" in shown(at.caption) and not at.error


def test_a_text_ending_in_a_space_is_said_and_its_next_tokens_shown():
    at = open_address(ENCODE.path, {"tokenizer": "gpt2", "input": "The answer is "})
    assert "This text ends in the middle of what the tokenizer would merge" in shown(at.info)
    chips = next(element.value for element in at.get("html") if "bpe-next" in element.value)
    assert '<span class="chip" title="token id 256">␣t</span>' in chips  # GPT-2's first merge: Ġ t
    at = open_address(ENCODE.path, {"tokenizer": "gpt2", "input": "The answer is 42."})
    assert "ends in the middle" not in shown(at.info)


def test_the_last_message_ending_in_half_a_word_is_said():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": '[["user","Tell me about unbeliev"]]'})
    assert "The last message ends in the middle of what the tokenizer would merge" in shown(at.info)


def test_cut_to_fit_says_why_when_the_last_message_alone_cannot_make_room():
    at = open_address(
        ENCODE.path, {"mode": "chat", "chat": "cl100k_base", "messages": '[["system","a"],["user","Hi!"]]'}
    )
    at.text_area(key=encode_state.text_key(0)).input("word " * 9_000)  # the system message alone is past the window
    ok(at.run())
    at.button(key="encode_chat_cut").click()
    ok(at.run())
    assert "Cut to fit could not cut: without its last message's text the prompt takes" in shown(at.error)
    assert at.text_area(key=encode_state.text_key(1)).value == "Hi!"  # nothing cut


def test_a_tools_list_longer_than_a_link_stays_out_of_the_address():
    at = open_address(ENCODE.path, {"mode": "chat", "chat": "qwen3", "messages": HI})
    long_list = [{"type": "function", "function": {"name": "f", "description": "x" * 2_000}}]
    at.text_area(key=encode_state.TOOLS_KEY).input(json.dumps(long_list))
    ok(at.run())
    assert "tools" not in at.query_params and "messages" in at.query_params
    assert metrics(at)["By the tools"] != "0"  # offered all the same
