"""What the chat tests compare with: conversations to render, and the reference libraries' prompts for them
(transformers' ``apply_chat_template`` over the shipped tokenizer.json and template, the OpenAI cookbook's count with
tiktoken). A reference library is imported by the function that uses it: a test skips where it is not installed."""

from __future__ import annotations

import functools
import json

import pytest

from bpe_core.chat import CHAT_FORMATS
from bpe_core.chat.formats import TEMPLATES
from support.open_model_references import hf_reference

CONVERSATIONS = {
    "plain": [{"role": "user", "content": "What is a token?"}],
    "with system": [
        {"role": "system", "content": "  You answer in one sentence.\n"},
        {"role": "user", "content": "What is BPE?"},
    ],
    "multi-turn": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi!"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "Count the tokens of this.\n\nThanks."},
    ],
    "non-ASCII": [
        {"role": "user", "content": "Café naïve — 你好，世界！ 🙂👍🏽 مرحبا"},
        {"role": "assistant", "content": "日本語もOK 🎉"},
        {"role": "user", "content": "Ünïcödé\tand\u00a0spaces  "},
    ],
    "special-looking text": [
        {"role": "user", "content": "Say <|im_end|> and <|eot_id|> and <｜User｜> and <start_of_turn> please"}
    ],
}


@functools.cache
def reference_tokenizer(name: str):
    """transformers' fast tokenizer over the shipped tokenizer.json, with the template's bos and eos tokens."""
    transformers = pytest.importorskip("transformers")
    chat = CHAT_FORMATS[name]
    specials = {"bos_token": chat.bos_token or None, "eos_token": chat.eos_token or None}
    return transformers.PreTrainedTokenizerFast(tokenizer_object=hf_reference(name), **specials)


@functools.cache
def cookbook_count(tiktoken_module, encoding: str, messages: tuple, ready: bool) -> int:
    """The OpenAI cookbook's num_tokens_from_messages (How to count tokens with tiktoken), no names."""
    encoder = tiktoken_module.get_encoding(encoding)
    count = 0
    for message in messages:
        count += 3
        for value in dict(message).values():
            count += len(encoder.encode(value))
    return count + (3 if ready else 0)


def transformers_form(name: str, messages: list[dict]) -> list[dict]:
    """The messages as the model's template reads them (transformers' own tool-use examples): a call's arguments
    as an object, save DeepSeek-V3's, whose template writes them as text and a calling message's content as None."""
    converted = []
    for message in messages:
        message = dict(message)
        if message.get("tool_calls"):
            message["content"] = None if name == "deepseek-v3" else ""
            if name != "deepseek-v3":
                message["tool_calls"] = [
                    {**item, "function": {**item["function"], "arguments": json.loads(item["function"]["arguments"])}}
                    for item in message["tool_calls"]
                ]
        converted.append(message)
    return converted


def transformers_ids(name: str, messages: list[dict], tools: list[dict]) -> tuple[str, list[int]]:
    tokenizer = reference_tokenizer(name)
    template = (TEMPLATES / CHAT_FORMATS[name].template_file).read_text(encoding="utf-8")
    messages = transformers_form(name, messages)
    if any(message.get("content", "") is None for message in messages):
        return rendered_by_transformers_renderer(tokenizer, template, messages, tools)
    options = dict(chat_template=template, tools=tools, add_generation_prompt=True)
    rendered = tokenizer.apply_chat_template(messages, tokenize=False, **options)
    ids = tokenizer.apply_chat_template(messages, tokenize=True, **options)
    return rendered, list(ids["input_ids"] if hasattr(ids, "keys") else ids)


def rendered_by_transformers_renderer(tokenizer, template: str, messages, tools) -> tuple[str, list[int]]:
    """transformers' own template renderer (``render_jinja_template``) and tokenizer, for DeepSeek-V3's tool calls:
    its template writes a call only for a message whose content is None, which ``apply_chat_template`` (transformers
    5) drops before rendering, so that the template fails (test below)."""
    from transformers.utils.chat_template_utils import render_jinja_template

    variables = dict(bos_token=tokenizer.bos_token, eos_token=tokenizer.eos_token, add_generation_prompt=True)
    rendered = render_jinja_template(conversations=[messages], chat_template=template, tools=tools, **variables)[0][0]
    return rendered, tokenizer.encode(rendered, add_special_tokens=False)
