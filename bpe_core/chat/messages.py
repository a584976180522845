"""A conversation as the chat formats take it: messages with a role and a text, checked and bounded.

>>> read_messages([{"role": "user", "content": "Hi!"}])
(Message(role='user', content='Hi!'),)
>>> read_messages([{"role": "robot", "content": "Hi!"}])
Traceback (most recent call last):
...
ValueError: message 1 has the role 'robot': a role is one of system, user, assistant
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("system", "user", "assistant")
MAX_MESSAGES = 64  # a conversation's messages at most
MAX_MESSAGE_CHARS = 100_000  # one message's text at most (as the Encode box)
MAX_CONVERSATION_CHARS = 200_000  # all the messages' text together at most


@dataclass(frozen=True)
class Message:
    """One message of a conversation: who speaks (one of ``ROLES``) and what they say."""

    role: str
    content: str


def read_messages(raw: object) -> tuple[Message, ...]:
    """The messages of a JSON-like list of ``{"role": ..., "content": ...}``, or a ValueError saying what is wrong."""
    if not isinstance(raw, (list, tuple)):
        raise ValueError('the messages are a list of {"role": ..., "content": ...}')
    if not raw:
        raise ValueError("the conversation holds no message")
    if len(raw) > MAX_MESSAGES:
        raise ValueError(f"the conversation holds {len(raw):,} messages; at most {MAX_MESSAGES} are read")
    messages = tuple(_message(number, item) for number, item in enumerate(raw, start=1))
    total = sum(len(message.content) for message in messages)
    if total > MAX_CONVERSATION_CHARS:
        raise ValueError(f"the messages hold {total:,} characters in all; at most {MAX_CONVERSATION_CHARS:,} are read")
    return messages


def _message(number: int, item: object) -> Message:
    if isinstance(item, Message):
        item = {"role": item.role, "content": item.content}
    if not isinstance(item, dict) or set(item) != {"role", "content"}:
        raise ValueError(f'message {number} is not {{"role": ..., "content": ...}} (those two keys, no other)')
    role, content = item["role"], item["content"]
    if role not in ROLES:
        raise ValueError(f"message {number} has the role {role!r}: a role is one of {', '.join(ROLES)}")
    if not isinstance(content, str):
        raise ValueError(f"message {number}'s content is not a text")
    if len(content) > MAX_MESSAGE_CHARS:
        raise ValueError(f"message {number} holds {len(content):,} characters; at most {MAX_MESSAGE_CHARS:,} are read")
    return Message(role, content)
