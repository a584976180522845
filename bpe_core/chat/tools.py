"""The functions a conversation offers its model (OpenAI's ``tools`` list), checked and bounded, and the tool calls
an assistant's message holds.

A tool is ``{"type": "function", "function": {"name": ..., "description": ..., "parameters": JSON schema}}``; a
tool call ``{"id": ..., "type": "function", "function": {"name": ..., "arguments": JSON text or object}}``.

>>> [tool.name for tool in read_tools([{"type": "function", "function": {"name": "get_weather"}}])]
['get_weather']
>>> read_tools(['{"type": "function", "function": {"description": "no name"}}'])
Traceback (most recent call last):
...
ValueError: tool 1 has no name: a tool is {"type": "function", "function": {"name": ..., ...}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..formats.files import MAX_JSON_DEPTH

MAX_TOOLS = 64  # functions offered at most
MAX_TOOLS_CHARS = 100_000  # the tools' JSON at most, all together
MAX_TOOL_CALLS = 64  # calls in one assistant's message at most
_SHAPE = '{"type": "function", "function": {"name": ..., ...}}'


@dataclass(frozen=True)
class Tool:
    """One function offered: ``definition`` is the tool as given (what a chat template receives)."""

    name: str
    description: str | None  # None: not given
    parameters: dict | None  # its JSON schema; None: not given
    definition: dict | str  # str: a stand-in while a template is rendered (chat/prompt.py's marks)


@dataclass(frozen=True)
class ToolCall:
    """One call in an assistant's message: the function's name and its arguments as JSON text."""

    name: str
    arguments: str  # JSON text: as given (OpenAI's form), or written from an object
    id: str = ""

    @property
    def arguments_object(self):
        """The arguments as an object (what most templates write with ``tojson``)."""
        return json.loads(self.arguments)


def read_tools(raw: object) -> tuple[Tool, ...]:
    """The tools of a JSON-like list (or its JSON text; a tool may be JSON text too), or a ValueError in words
    naming the bad tool by its place and, where it has one, its name."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = _json_value(raw, "the tools")
    if not isinstance(raw, (list, tuple)):
        raise ValueError(f"the tools are a list of {_SHAPE}")
    if len(raw) > MAX_TOOLS:
        raise ValueError(f"the tools list holds {len(raw):,} functions; at most {MAX_TOOLS} are read")
    items = [_json_value(item, f"tool {number}") if isinstance(item, str) else item for number, item in _numbered(raw)]
    size = sum(len(json.dumps(item, ensure_ascii=False)) for item in items if _depth_within(item))
    if size > MAX_TOOLS_CHARS:
        raise ValueError(f"the tools hold {size:,} characters of JSON; at most {MAX_TOOLS_CHARS:,} are read")
    return tuple(_tool(number, item) for number, item in _numbered(items))


def _numbered(items) -> list[tuple[int, object]]:
    return list(enumerate(items, start=1))


def _json_value(text: str, what: str):
    if len(text) > MAX_TOOLS_CHARS:
        raise ValueError(f"{what}: {len(text):,} characters of JSON; at most {MAX_TOOLS_CHARS:,} are read")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{what} is not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply") from None


def _depth_within(value) -> bool:
    """Whether ``value`` is nested at most ``MAX_JSON_DEPTH`` levels of objects and lists (as tokenizer.json)."""
    depth, level = 0, [value]
    while level:
        depth += 1
        if depth > MAX_JSON_DEPTH:
            return False
        level = [
            child
            for item in level
            if isinstance(item, (dict, list, tuple))
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, (dict, list, tuple))
        ]
    return True


def _tool(number: int, item: object) -> Tool:
    function = item.get("function") if isinstance(item, dict) else None
    named = f"tool {number}"
    if not isinstance(item, dict) or not isinstance(function, dict):
        raise ValueError(f"{named} is not {_SHAPE}")
    name = function.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{named} has no name: a tool is {_SHAPE}")
    named = f"tool {number} ({name[:64]!r})"
    if item.get("type", "function") != "function":
        raise ValueError(f"{named} has the type {item.get('type')!r}: only functions are read")
    if not _depth_within(item):
        raise ValueError(f"{named} is nested {MAX_JSON_DEPTH + 1} levels deep or more; at most {MAX_JSON_DEPTH}")
    description, parameters = function.get("description"), function.get("parameters")
    if description is not None and not isinstance(description, str):
        raise ValueError(f"{named}'s description is not a text")
    if parameters is not None and not isinstance(parameters, dict):
        raise ValueError(f"{named}'s parameters are not a JSON schema (an object)")
    return Tool(name, description, parameters, item)


def read_tool_calls(number: int, raw: object) -> tuple[ToolCall, ...]:
    """The tool calls of message ``number`` (OpenAI's ``tool_calls``), or a ValueError naming the bad call."""
    if not isinstance(raw, (list, tuple)) or not raw:
        raise ValueError(f"message {number}'s tool_calls are not a list of tool calls")
    if len(raw) > MAX_TOOL_CALLS:
        raise ValueError(f"message {number} holds {len(raw):,} tool calls; at most {MAX_TOOL_CALLS}")
    return tuple(_tool_call(f"message {number}'s tool call {place}", item) for place, item in _numbered(raw))


def _tool_call(named: str, item: object) -> ToolCall:
    function = item.get("function") if isinstance(item, dict) else None
    if not isinstance(item, dict) or not isinstance(function, dict):
        raise ValueError(f'{named} is not {{"type": "function", "function": {{"name": ..., "arguments": ...}}}}')
    name, arguments, call_id = function.get("name"), function.get("arguments", {}), item.get("id", "")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{named} has no name")
    if not isinstance(call_id, str):
        raise ValueError(f"{named}'s id is not a text")
    if isinstance(arguments, str):
        parsed = _json_value(arguments, f"{named} ({name[:64]!r})'s arguments")
    else:
        parsed, arguments = arguments, json.dumps(arguments, ensure_ascii=False)
    if not isinstance(parsed, dict) or not _depth_within(parsed):
        raise ValueError(f"{named} ({name[:64]!r})'s arguments are not a JSON object nested at most {MAX_JSON_DEPTH}")
    if len(arguments) > MAX_TOOLS_CHARS:
        raise ValueError(f"{named} ({name[:64]!r})'s arguments hold more than {MAX_TOOLS_CHARS:,} characters")
    return ToolCall(name, arguments, call_id)
