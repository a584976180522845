"""Encode's Conversation mode, the functions offered to the model (OpenAI's ``tools`` list): a sample to load, the
editor's text read or refused in words, what the page says beside the tools' count, and what the link leaves out.

>>> [tool.name for tool in read_tools_text(SAMPLE_TOOLS_TEXT)[0]]
['get_weather', 'search_web']
>>> read_tools_text('[{"type": "function", "function": {}}]')[1][:58]
'These tools are refused: tool 1 has no name: a tool is {"t'
"""

from __future__ import annotations

import json

from bpe_core.chat import ChatPrompt, Tool, read_tools
from session.choices import ToolsList

SAMPLE_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a city",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "The city, e.g. Paris"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_web",
            "description": "Search the web and return the top results",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "What to search for"}},
                "required": ["query"],
            },
        },
    },
]
SAMPLE_TOOLS_TEXT = json.dumps(SAMPLE_TOOLS, indent=2)


def read_tools_text(text: str) -> tuple[tuple[Tool, ...], str]:
    """The tools the editor's ``text`` holds (none when it is blank), or none and why they are refused, in words
    (plain text: the page escapes it)."""
    if not text.strip():
        return (), ""
    try:
        return read_tools(text), ""
    except ValueError as error:
        return (), f"These tools are refused: {error}. The conversation is shown without them."


def tools_note(prompt: ChatPrompt) -> str:
    """What to say beside the tools' count: the format ignores them or has none, or the count is OpenAI's estimate.

    >>> from bpe_core.chat import render_conversation
    >>> tools_note(render_conversation("gemma3", [{"role": "user", "content": "Hi"}], tools=SAMPLE_TOOLS))
    "Gemma 3's template has no tools: the tools list is not sent."
    """
    if not prompt.tools:
        return ""
    if prompt.chat.estimated:
        return (
            f"OpenAI does not publish how {prompt.chat.title} writes the tools: their count is the OpenAI cookbook's "
            "estimate (num_tokens_for_tools), from each function's name, description and parameters."
        )
    return f"{prompt.tools_note}." if prompt.tools_note else ""


def tools_link_note(text: str, max_chars: int) -> str:
    """What the link leaves out: a tools list whose compact JSON is longer than ``max_chars``.

    >>> tools_link_note('[ {"function": {"name": "f"}} ]', 20)[:47]  # [{"function":{"name":"f"}}]: 27 characters
    'The tools (27 characters as a link) are longer '
    """
    compact = ToolsList.text(text) if text.strip() else None
    if compact is None or len(compact) <= max_chars:
        return ""
    return (
        f"The tools ({len(compact):,} characters as a link) are longer than a link carries ({max_chars:,}): the link "
        "leaves them out."
    )
