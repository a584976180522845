"""The context window: each chat model's published length, what a prompt leaves of it, and a conversation cut to
it (its last message's text cut short), the counts checked with the reference libraries: the OpenAI cookbook's
count with tiktoken for GPT-4, transformers' apply_chat_template for Qwen3, mistral-common for Mistral."""

from __future__ import annotations

import pytest
from support.chat_references import cookbook_count, transformers_ids

from bpe_core.chat import CHAT_FORMATS, render_conversation
from bpe_core.chat.window import cut_to_window

LONG = " ".join(f"word{number} naïve 👍🏽" for number in range(3_000))  # about 27,000 tokens in cl100k_base


def test_every_chat_format_has_its_published_context_window_and_says_where_from():
    windows = {name: chat.context_window for name, chat in CHAT_FORMATS.items()}
    assert windows["llama3"] == windows["o200k_harmony"] == 131_072  # the models' cards and config.json
    assert (windows["cl100k_base"], windows["o200k_base"], windows["qwen3"]) == (8_192, 128_000, 32_768)
    assert all(chat.context_source for chat in CHAT_FORMATS.values())


def test_gpt4_past_its_window_is_cut_to_the_cookbooks_count(tiktoken_module):
    messages = [{"role": "system", "content": "Summarise."}, {"role": "user", "content": LONG}]
    over = render_conversation("cl100k_base", messages)
    frozen = tuple(tuple(message.items()) for message in messages)
    assert over.remaining == 8_192 - cookbook_count(tiktoken_module, "cl100k_base", frozen, True) < 0
    cut = cut_to_window("cl100k_base", messages)
    kept = cut[-1]["content"]
    assert LONG.startswith(kept) and cut[0] == messages[0]
    counted = cookbook_count(tiktoken_module, "cl100k_base", tuple(tuple(message.items()) for message in cut), True)
    longer = [messages[0], {"role": "user", "content": LONG[: len(kept) + 2]}]  # one grapheme more (at most 👍🏽's 2)
    longer_count = cookbook_count(tiktoken_module, "cl100k_base", tuple(tuple(m.items()) for m in longer), True)
    assert counted <= 8_192 < longer_count


def test_qwen3_with_tools_is_cut_to_transformers_count():
    weather = {"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": {}}}
    text = "Is it sunny in Paris, Tokyo, Lima and Oslo? " * 20
    cut = cut_to_window("qwen3", [{"role": "user", "content": text}], 120, tools=[weather])
    kept = cut[0]["content"]
    assert text.startswith(kept)
    assert len(transformers_ids("qwen3", cut, [weather])[1]) <= 120
    one_more = [{"role": "user", "content": text[: len(kept) + 1]}]
    assert len(transformers_ids("qwen3", one_more, [weather])[1]) > 120


def test_mistral_is_cut_to_mistral_commons_count(mistral):
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Tell me about tokens. " * 40}]
    cut = cut_to_window("mistral-tekken-v3", messages, 60)
    assert len(mistral(cut).tokens) <= 60
    one_more = [messages[0], {"role": "user", "content": messages[1]["content"][: len(cut[1]["content"]) + 1]}]
    assert len(mistral(one_more).tokens) > 60


def test_a_conversation_within_the_window_is_kept_as_it_is():
    messages = [{"role": "user", "content": "Hi!"}]
    assert cut_to_window("llama3", messages) == messages


@pytest.mark.parametrize(
    ("messages", "limit", "words"),
    [
        ([{"role": "system", "content": "Be brief. " * 20}, {"role": "user", "content": "Hi"}], 10, "without its last"),
        ([{"role": "user", "content": "x"}], -1, "a whole number from 0 up"),
    ],
)
def test_a_window_that_cannot_be_reached_is_refused_in_words(messages, limit, words):
    with pytest.raises(ValueError, match=words):
        cut_to_window("qwen3", messages, limit)
