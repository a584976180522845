"""GPT-4 and GPT-4o, whose chat format OpenAI does not publish: OpenAI's documented estimate (the cookbook's "How to
count tokens with tiktoken"): each message's text encoded apart, 3 tokens a message plus its role's, 3 for the
reply's priming; for the tools, its ``num_tokens_for_tools``: per function a few tokens by model, its name and
description's, and each property's name, type, description and enum values'.

An assistant's tool calls (their names and arguments) are counted as that message's text, and a tool's result as a
message: the cookbook has no rule for them, so this is an estimate of an estimate.

>>> from bpe_core.pretrained import load_pretrained
>>> from bpe_core.chat.formats import CHAT_FORMATS
>>> tool = Tool("f", "Does f.", {"type": "object", "properties": {}}, {})
>>> function_tokens(CHAT_FORMATS["cl100k_base"], load_pretrained("cl100k_base"), (tool,))  # 10, "f:Does f" 4, 12
26
"""

from __future__ import annotations

import functools
from dataclasses import replace

from ..pretrained import load_pretrained
from ..rank_tokenizer import AnyTokenizer
from ..spans import Token
from .formats import OPENAI_FUNCTION_SETTINGS, OPENAI_REPLY_PRIMING, OPENAI_TOKENS_PER_MESSAGE, ChatFormat
from .messages import Message
from .segments import Segment
from .tools import Tool


@functools.lru_cache(maxsize=8)
def _role_tokens(name: str, role: str) -> int:
    return len(load_pretrained(name).encode(role))


def estimated(chat: ChatFormat, tok: AnyTokenizer, messages: tuple[Message, ...], ready: bool, tools: tuple[Tool, ...]):
    """The messages' segments, their tokens (tiktoken's ``encode``: special tokens' text as text) and owners, the
    estimate of what the format adds, and the tools' estimate."""
    segments = tuple(
        Segment(text, index)
        for index, message in enumerate(messages)
        for text in (message.content, *(part for call in message.tool_calls for part in (call.name, call.arguments)))
        if text
    )
    tokens: list[Token] = []
    offset = 0
    for segment in segments:
        for token in tok.encode_with_spans(segment.text, special=False):
            tokens.append(replace(token, start=token.start + offset, end=token.end + offset))
        offset += len(segment.text)
    owners = tuple(_owner_of(tokens, segments))
    overhead = sum(OPENAI_TOKENS_PER_MESSAGE + _role_tokens(chat.name, message.role) for message in messages)
    overhead += OPENAI_REPLY_PRIMING if ready else 0
    return segments, tuple(tokens), owners, overhead, function_tokens(chat, tok, tools)


def _owner_of(tokens: list[Token], segments: tuple[Segment, ...]):
    ends, start = [], 0
    for segment in segments:
        start += len(segment.text)
        ends.append((start, segment.message))
    place = 0
    for token in tokens:
        while token.start >= ends[place][0]:
            place += 1
        yield ends[place][1]


def function_tokens(chat: ChatFormat, tok: AnyTokenizer, tools: tuple[Tool, ...]) -> int:
    """The cookbook's ``num_tokens_for_tools`` less the messages' count: what the function definitions add."""
    if not tools:
        return 0
    function_init, _, _, _, _, function_end = OPENAI_FUNCTION_SETTINGS[chat.name]
    count = function_end
    for tool in tools:
        count += function_init + len(tok.encode(f"{tool.name}:{_unstopped(tool.description)}", special=False))
        count += _properties_tokens(chat, tok, (tool.parameters or {}).get("properties"))
    return count


def _properties_tokens(chat: ChatFormat, tok: AnyTokenizer, properties) -> int:
    if not isinstance(properties, dict) or not properties:
        return 0
    _, property_init, property_key, enum_init, enum_item, _ = OPENAI_FUNCTION_SETTINGS[chat.name]
    count = property_init
    for key, schema in properties.items():
        schema = schema if isinstance(schema, dict) else {}
        count += property_key
        enum = schema.get("enum")
        if isinstance(enum, list):
            count += enum_init + sum(enum_item + len(tok.encode(str(item), special=False)) for item in enum)
        kind, description = schema.get("type", ""), _unstopped(schema.get("description"))
        count += len(tok.encode(f"{key}:{kind}:{description}", special=False))
    return count


def _unstopped(description) -> str:
    """A description without its final full stop, as the cookbook counts it."""
    text = description if isinstance(description, str) else ""
    return text[:-1] if text.endswith(".") else text
