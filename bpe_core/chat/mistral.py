"""Mistral's Tekken v3 instructions (NeMo, Large 2, Small 3) as mistral-common writes a chat completion request:
its checks (``MistralRequestValidatorV3``, test mode), its merging of the messages (``InstructRequestNormalizer``)
and its encoding (``InstructTokenizerV3``), tools and tool calls included.

>>> [segment.text for segment in mistral_v3((Message("system", "S"), Message("user", "A")), True)]
['<s>', '[INST]', 'S', '\\n\\n', 'A', '[/INST]']
"""

from __future__ import annotations

import json
import re

from .messages import Message
from .segments import Segment

MISTRAL_CONTROL = frozenset(
    {"<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_CALLS]", "[TOOL_RESULTS]"}
    | {"[/TOOL_RESULTS]"}
)
# which role may follow which (mistral-common's _validate_message_order)
_FOLLOWS = {
    "system": {"user", "assistant", "system"},
    "user": {"assistant", "system", "user"},
    "assistant": {"assistant", "user", "tool"},
    "tool": {"assistant", "tool", "user"},
}
_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_CALL_ID = re.compile(r"[a-zA-Z0-9]{9}")


def mistral_v3(messages: tuple[Message, ...], ready: bool, tools=()) -> tuple[Segment, ...]:
    """Mistral's Tekken v3 prompt: ``<s>``, each user turn ``[INST]text[/INST]``, each assistant turn ``text</s>``
    or ``[TOOL_CALLS][{"name": ..., "arguments": ..., "id": ...}]</s>``, each tool's result
    ``[TOOL_RESULTS]{"content": ..., "call_id": ...}[/TOOL_RESULTS]``; neighbouring messages of one role joined by a
    blank line; the system messages, joined the same way, lead the last user turn, and the tools
    (``[AVAILABLE_TOOLS][...][/AVAILABLE_TOOLS]``) come before it.  It always ends ready for the reply; as
    mistral-common, it refuses a conversation that ends with the assistant, or whose roles follow in an order it
    does not take."""
    _check(messages, tools)
    turns = _turns(messages)
    system = [index for index, message in enumerate(messages) if message.role == "system" and message.content]
    last_user = max(number for number, (role, _) in enumerate(turns) if role == "user")
    segments = [Segment("<s>", None)]
    for number, (role, indices) in enumerate(turns):
        if role == "assistant":
            segments += _assistant(messages, indices)
        elif role == "tool":
            segments += _tool_result(messages, indices[0])
        else:
            lead = system if number == last_user else []
            segments += _available_tools(tools) if number == last_user and tools else []
            separator = [Segment("\n\n", None)] if lead else []
            segments += [Segment("[INST]", None), *_joined(messages, lead), *separator]
            segments += [*_joined(messages, indices), Segment("[/INST]", None)]
    return tuple(segment for segment in segments if segment.text)


def _check(messages: tuple[Message, ...], tools) -> None:
    """mistral-common's refusals, in words."""
    for before, after in zip(messages, messages[1:]):
        if after.role not in _FOLLOWS[before.role]:
            raise ValueError(
                f"Mistral's format takes no {after.role} message right after the {before.role}'s (as mistral-common)"
            )
    if messages[-1].role == "assistant":
        raise ValueError(
            "Mistral's format answers a user: the conversation must end with a user's message or a tool's result"
        )
    for number, message in enumerate(messages, start=1):
        if message.role == "assistant" and bool(message.content) == bool(message.tool_calls):
            raise ValueError(f"message {number}: Mistral's assistant message holds either a text or tool calls")
        ids = [call.id for call in message.tool_calls] + ([message.tool_call_id] if message.role == "tool" else [])
        if not all(_CALL_ID.fullmatch(call_id) for call_id in ids):
            raise ValueError(f"message {number}: Mistral's v3 format takes tool call ids of 9 letters and digits")
        names = [call.name for call in message.tool_calls] + ([message.name] if message.role == "tool" else [])
        if not all(_NAME.fullmatch(name) for name in names):
            raise ValueError(f"message {number}: Mistral takes function names of letters, digits, _ and - (at most 64)")
    for tool in tools:
        if not _NAME.fullmatch(tool.name):
            raise ValueError(
                f"tool {tool.name!r}: Mistral takes function names of letters, digits, _ and - (at most 64)"
            )
    _check_results_answer(messages)


def _check_results_answer(messages: tuple[Message, ...]) -> None:
    """As mistral-common: an assistant speaks again only once each of its tool calls has its result."""
    waiting = 0
    for message in messages[1:]:
        if message.role == "tool":
            waiting -= 1
        elif message.role == "assistant":
            if waiting:
                raise ValueError(
                    "Mistral's format takes as many tool results as tool calls before the assistant speaks"
                )
            waiting = len(message.tool_calls)


def _turns(messages: tuple[Message, ...]) -> list[tuple[str, list[int]]]:
    """The user, assistant and tool turns: next-door user (or assistant) messages together, each tool's result
    alone (a system message between them keeps them apart, though it is written elsewhere), an empty user turn
    first when the conversation does not start with one."""
    turns: list[tuple[str, list[int]]] = []
    previous = ""
    for index, message in enumerate(messages):
        if message.role in ("user", "assistant") and message.role == previous:
            turns[-1][1].append(index)
        elif message.role != "system":
            turns.append((message.role, [index]))
        previous = message.role
    if not turns or turns[0][0] != "user":
        turns.insert(0, ("user", []))
    return turns


def _joined(messages: tuple[Message, ...], indices: list[int]) -> list[Segment]:
    """The messages' texts with a blank line between them (an empty one left out)."""
    segments: list[Segment] = []
    for index in (index for index in indices if messages[index].content):
        segments += [Segment("\n\n", None)] if segments else []
        segments.append(Segment(messages[index].content, index))
    return segments


def _assistant(messages: tuple[Message, ...], indices: list[int]) -> list[Segment]:
    """An assistant's turn: its text (trailing spaces dropped, as mistral-common), or its calls as JSON."""
    calls = [(index, call) for index in indices for call in messages[index].tool_calls]
    if calls and any(messages[index].content for index in indices):
        raise ValueError("Mistral's format takes no text and tool calls in one assistant turn (as mistral-common)")
    if not calls:
        text = _joined(messages, indices)
        last = text[-1]
        return [*text[:-1], Segment(last.text.rstrip(" "), last.message), Segment("</s>", None)]
    segments = [Segment("[TOOL_CALLS]", None), Segment("[", None)]
    for place, (index, call) in enumerate(calls):
        segments += [Segment(", " if place else "", None), Segment('{"name": "', None), Segment(call.name, index)]
        segments += [Segment('", "arguments": ', None), Segment(_json_text(call.arguments), index)]
        segments.append(Segment(f', "id": {json.dumps(call.id)}}}', None))
    return [*segments, Segment("]", None), Segment("</s>", None)]


def _json_text(text: str) -> str:
    """A text as mistral-common writes it into its JSON: parsed and written again when it is JSON, else quoted."""
    try:
        value = json.loads(text) if text else {}
    except json.JSONDecodeError:
        value = text
    return json.dumps(value, ensure_ascii=False)


def _tool_result(messages: tuple[Message, ...], index: int) -> list[Segment]:
    message = messages[index]
    return [
        Segment("[TOOL_RESULTS]", None),
        Segment('{"content": ', None),
        Segment(_json_text(message.content), index),
        Segment(f', "call_id": {json.dumps(message.tool_call_id)}}}', None),
        Segment("[/TOOL_RESULTS]", None),
    ]


def _available_tools(tools) -> list[Segment]:
    """``[AVAILABLE_TOOLS]`` and the tools as mistral-common dumps them: type, then name, description, parameters."""
    segments = [Segment("[AVAILABLE_TOOLS]", None), Segment("[", None)]
    for index, tool in enumerate(tools):
        function = {"name": tool.name, "description": tool.description or "", "parameters": tool.parameters or {}}
        segments += [Segment(", ", None)] if index else []
        segments.append(
            Segment(json.dumps({"type": "function", "function": function}, ensure_ascii=False), None, tool=index)
        )
    return [*segments, Segment("]", None), Segment("[/AVAILABLE_TOOLS]", None)]
