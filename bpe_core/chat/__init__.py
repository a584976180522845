"""Conversations as chat models receive them: messages (tool calls and results included) and the functions offered
(OpenAI's ``tools``) rendered by the model's own chat format, with its special tokens, then cut into tokens and
counted apart: the messages, the tools, the format (what an API bills, not the raw text's count), against the
model's context window.

``render_conversation(name, messages, tools=...)`` gives a ``ChatPrompt``; ``CHAT_FORMATS`` names the published
tokenizers that have a chat format; ``cut_to_window`` cuts the last message to fit the window.  Templates run in
jinja2's sandbox, bounded (``jinja_render``).

>>> prompt = render_conversation("llama3", [{"role": "user", "content": "Hi!"}])
>>> prompt.prompt.startswith("<|begin_of_text|><|start_header_id|>system<|end_header_id|>")
True
"""

from .formats import CHAT_FORMATS, ChatFormat, chat_format
from .messages import ALL_ROLES, MAX_MESSAGE_CHARS, MAX_MESSAGES, ROLES, TOOL_ROLE, Message, read_messages
from .prompt import ChatPrompt, render_conversation
from .segments import SEGMENT_KINDS, Segment
from .tools import MAX_TOOLS, MAX_TOOLS_CHARS, Tool, ToolCall, read_tools
from .window import cut_to_window

__all__ = [
    "ALL_ROLES",
    "CHAT_FORMATS",
    "MAX_MESSAGES",
    "MAX_MESSAGE_CHARS",
    "MAX_TOOLS",
    "MAX_TOOLS_CHARS",
    "ROLES",
    "SEGMENT_KINDS",
    "TOOL_ROLE",
    "ChatFormat",
    "ChatPrompt",
    "Message",
    "Segment",
    "Tool",
    "ToolCall",
    "chat_format",
    "cut_to_window",
    "read_messages",
    "read_tools",
    "render_conversation",
]
