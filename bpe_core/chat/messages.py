"""A conversation as the chat formats take it: messages with a role and a text, checked and bounded; an assistant's
message may hold tool calls, and a ``tool`` message is a call's result (OpenAI's form).

>>> read_messages([{"role": "user", "content": "Hi!"}])
(Message(role='user', content='Hi!', tool_calls=(), tool_call_id='', name=''),)
>>> read_messages([{"role": "robot", "content": "Hi!"}])
Traceback (most recent call last):
...
ValueError: message 1 has the role 'robot': a role is one of system, user, assistant, tool
"""

from __future__ import annotations

from dataclasses import dataclass

from .tools import ToolCall, read_tool_calls

ROLES = ("system", "user", "assistant")  # the roles a person types
TOOL_ROLE = "tool"  # a tool's result: it answers an assistant's tool call
ALL_ROLES = (*ROLES, TOOL_ROLE)
MAX_MESSAGES = 64  # a conversation's messages at most
MAX_MESSAGE_CHARS = 100_000  # one message's text at most (as the Encode box)
MAX_CONVERSATION_CHARS = 200_000  # all the messages' text together at most
_KEYS = {"role", "content", "tool_calls", "tool_call_id", "name"}


@dataclass(frozen=True)
class Message:
    """One message of a conversation: who speaks (one of ``ROLES``) and what they say; an assistant's tool calls;
    a tool's result names the call it answers (``tool_call_id``) and the function (``name``, given or the call's)."""

    role: str
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str = ""
    name: str = ""


def read_messages(raw: object) -> tuple[Message, ...]:
    """The messages of a JSON-like list of ``{"role": ..., "content": ...}``, or a ValueError saying what is wrong."""
    if not isinstance(raw, (list, tuple)):
        raise ValueError('the messages are a list of {"role": ..., "content": ...}')
    if not raw:
        raise ValueError("the conversation holds no message")
    if len(raw) > MAX_MESSAGES:
        raise ValueError(f"the conversation holds {len(raw):,} messages; at most {MAX_MESSAGES} are read")
    messages: list[Message] = []
    for number, item in enumerate(raw, start=1):
        messages.append(_answering(number, _message(number, item), messages))
    total = sum(len(message.content) + _calls_size(message) for message in messages)
    if total > MAX_CONVERSATION_CHARS:
        raise ValueError(f"the messages hold {total:,} characters in all; at most {MAX_CONVERSATION_CHARS:,} are read")
    return tuple(messages)


def _calls_size(message: Message) -> int:
    return sum(len(call.name) + len(call.arguments) for call in message.tool_calls)


def _message(number: int, item: object) -> Message:
    if isinstance(item, Message):
        return item
    if not isinstance(item, dict) or "role" not in item or not set(item) <= _KEYS:
        raise ValueError(
            f'message {number} is not {{"role": ..., "content": ...}} (and, for tools, tool_calls, tool_call_id, name)'
        )
    role, content = item["role"], item.get("content")
    if role not in ALL_ROLES:
        raise ValueError(f"message {number} has the role {role!r}: a role is one of {', '.join(ALL_ROLES)}")
    calls = read_tool_calls(number, item["tool_calls"]) if item.get("tool_calls") is not None else ()
    if "content" not in item and not calls:
        raise ValueError(f'message {number} has no content: a message is {{"role": ..., "content": ...}}')
    if calls and role != "assistant":
        raise ValueError(f"message {number} holds tool calls: only an assistant's message does")
    if content is None and calls:
        content = ""
    if not isinstance(content, str):
        raise ValueError(f"message {number}'s content is not a text")
    if len(content) > MAX_MESSAGE_CHARS:
        raise ValueError(f"message {number} holds {len(content):,} characters; at most {MAX_MESSAGE_CHARS:,} are read")
    call_id, name = item.get("tool_call_id", ""), item.get("name", "")
    if role != TOOL_ROLE and (call_id or name):
        raise ValueError(f"message {number} names a tool call: only a tool's result does")
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise ValueError(f"message {number}'s tool_call_id and name are texts")
    return Message(role, content, calls, call_id, name)


def _answering(number: int, message: Message, before: list[Message]) -> Message:
    """A tool's result with the name of the function it answers: its own ``name``, else the name of the
    assistant's call with its ``tool_call_id``; a result that answers no call before it is refused (as OpenAI)."""
    if message.role != TOOL_ROLE:
        return message
    calls = [call for earlier in before for call in earlier.tool_calls]
    if message.tool_call_id:
        calls = [call for call in calls if call.id == message.tool_call_id]
    if not calls:
        answered = f" with the id {message.tool_call_id!r}" if message.tool_call_id else ""
        raise ValueError(
            f"message {number} has the role 'tool' but answers no assistant's tool call{answered} before it"
        )
    if message.name:
        return message
    return Message(message.role, message.content, (), message.tool_call_id, calls[-1].name)
