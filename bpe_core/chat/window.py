"""A conversation cut to the model's context window: its last message's text cut short (between graphemes, as
``truncate.fit_prefix`` cuts a text) so that the whole prompt takes at most N tokens, by default the model's
published context length.

>>> messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "one two three four"}]
>>> cut_to_window("qwen3", messages, 18)[-1]  # 16 tokens besides the last text's 4: 2 are left
{'role': 'user', 'content': 'one two'}
"""

from __future__ import annotations

from dataclasses import replace

from ..pretrained import load_pretrained
from ..truncate import check_budget, fit_prefix
from .messages import Message
from .prompt import render_conversation

_TRIES = 4  # renderings after the first cut: the text's edges may merge with the format's by a token or two


def cut_to_window(name: str, messages, limit: int | None = None, *, tools=None, ready_for_reply: bool = True) -> list:
    """``messages`` (as given: dicts or ``Message``) with the last one's text cut to the longest beginning with
    which the prompt of the chat model of ``name`` takes at most ``limit`` tokens (None: its context window);
    the conversation as it is when it fits, a ValueError in words when even an empty last text does not."""
    prompt = render_conversation(name, messages, ready_for_reply=ready_for_reply, tools=tools)
    limit = prompt.context_window if limit is None else limit
    check_budget(limit)
    if prompt.total <= limit:
        return list(messages)
    last = len(prompt.messages) - 1
    text = prompt.messages[last].content
    if not text:
        raise ValueError(f"the prompt takes {prompt.total:,} tokens, and its last message has no text to cut")
    outside = prompt.total - prompt.message_counts[last]
    budget = limit - outside
    plain = prompt.chat.estimated or bool(prompt.chat.script)  # those formats send a message's text as text
    for _ in range(_TRIES):
        if budget < 0:
            raise ValueError(f"without its last message's text the prompt takes {outside:,} tokens: over {limit:,}")
        shorter = _with_text(messages, last, fit_prefix(load_pretrained(name), text, budget, special=not plain))
        total = render_conversation(name, shorter, ready_for_reply=ready_for_reply, tools=tools).total
        if total <= limit:
            return shorter
        budget -= total - limit
    raise ValueError(f"the last message's text could not be cut to fit {limit:,} tokens")


def _with_text(messages, index: int, text: str) -> list:
    message = messages[index]
    changed = replace(message, content=text) if isinstance(message, Message) else {**message, "content": text}
    return [*messages[:index], changed, *messages[index + 1 :]]
