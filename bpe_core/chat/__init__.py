"""Conversations as chat models receive them: messages rendered by the model's own chat format, with its special
tokens, then cut into tokens and counted (what an API bills, not the raw text's count).

``render_conversation(name, messages)`` gives a ``ChatPrompt``; ``CHAT_FORMATS`` names the published tokenizers
that have a chat format.  Templates run in jinja2's sandbox, bounded (``jinja_render``).

>>> prompt = render_conversation("llama3", [{"role": "user", "content": "Hi!"}])
>>> prompt.prompt.startswith("<|begin_of_text|><|start_header_id|>system<|end_header_id|>")
True
"""

from .formats import CHAT_FORMATS, ChatFormat, chat_format
from .messages import MAX_MESSAGE_CHARS, MAX_MESSAGES, ROLES, Message, read_messages
from .prompt import ChatPrompt, Segment, render_conversation

__all__ = [
    "CHAT_FORMATS",
    "MAX_MESSAGES",
    "MAX_MESSAGE_CHARS",
    "ROLES",
    "ChatFormat",
    "ChatPrompt",
    "Message",
    "Segment",
    "chat_format",
    "read_messages",
    "render_conversation",
]
