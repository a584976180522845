"""Encode's Conversation mode, as pure builders: the prompt a chat model receives drawn as token boxes (the format's
own tokens striped, the messages' plain), its counts, and what the page says about the format.

>>> from bpe_core.chat import render_conversation
>>> from bpe_core.pretrained import load_pretrained
>>> prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
>>> html_text = prompt_html(prompt, load_pretrained("qwen3"))
>>> html_text.count('class="tok '), html_text.count(' fmt"')  # 10 tokens, 8 of them the format's
(10, 8)
>>> counts(prompt)
[('Tokens in all', '10'), ('In messages', '2'), ('By the format', '8')]
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from bpe_core import Token
from bpe_core.chat import ChatFormat, ChatPrompt
from bpe_core.chat.formats import OPENAI_REPLY_PRIMING, OPENAI_TOKENS_PER_MESSAGE
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.pipeline_view import tokens_html
from drawing.token_html import render_lines
from session.choices import Conversation

DEFAULT_MESSAGES = (
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "How many tokens does this question cost? 🙂"},
)
ROLE_LABELS = {"system": "System", "user": "User", "assistant": "Assistant"}


def chat_model_label(chat_title: str, tokenizer_title: str) -> str:
    """A chat model as the list of them names it: its title, with its tokenizer's in parentheses where that adds a
    name; one title where one already holds the other (gpt-oss's tokenizer is "gpt-oss (o200k_harmony)"), and no
    parentheses inside parentheses.

    >>> chat_model_label("Llama 3.3 70B Instruct", "Llama 3")
    'Llama 3.3 70B Instruct (Llama 3)'
    >>> chat_model_label("gpt-oss", "gpt-oss (o200k_harmony)"), chat_model_label("DeepSeek-V3", "DeepSeek-V3")
    ('gpt-oss (o200k_harmony)', 'DeepSeek-V3')
    >>> chat_model_label("Gemma 3 (instruct)", "Gemma 3"), chat_model_label("Qwen3 0.6B", "Qwen3")
    ('Gemma 3 (instruct)', 'Qwen3 0.6B')
    """
    if tokenizer_title.startswith(chat_title):
        return tokenizer_title
    if chat_title.startswith(f"{tokenizer_title} ") or "(" in chat_title:
        return chat_title
    return f"{chat_title} ({tokenizer_title})"


def prompt_html(prompt: ChatPrompt, tok: AnyTokenizer) -> str:
    """The prompt's token boxes with ``tok``'s display settings: one box over the whole prompt, the format's tokens
    striped, the tools' striped across; for an estimated format (GPT-4, GPT-4o) one row per message, the format and
    the tools being counts only."""
    if not prompt.chat.estimated:
        tools = {position for position, tool in enumerate(prompt.tool_owners) if tool is not None}
        marked = {position for position, owner in enumerate(prompt.owners) if owner is None} - tools
        return tokens_html(tok, prompt.tokens, prompt.prompt, marked=marked, tool_marked=tools)
    rows: list[list[Token]] = [[] for _ in prompt.messages]
    starts = [0]
    for message in prompt.messages:
        starts.append(starts[-1] + len(message.content))
    owners = cast(tuple[int, ...], prompt.owners)  # an estimated format's tokens are all its messages'
    for token, owner in zip(prompt.tokens, owners):
        rows[owner].append(replace(token, start=token.start - starts[owner], end=token.end - starts[owner]))
    texts = [message.content for message in prompt.messages]
    return render_lines(texts, rows, byte_level=tok.byte_level, created_at=tok.created_at)


def counts(prompt: ChatPrompt) -> list[tuple[str, str]]:
    """The counts shown above the boxes: in all, the messages' text, the tools' when some are offered, the format's
    (or OpenAI's estimate of the tools and the format)."""
    estimate = " (OpenAI's estimate)" if prompt.chat.estimated else ""
    tools = [(f"By the tools{estimate}", f"{prompt.tools_count:,}")] if prompt.tools else []
    return [
        ("Tokens in all", f"{prompt.total:,}"),
        ("In messages", f"{sum(prompt.message_counts):,}"),
        *tools,
        (f"By the format{estimate}", f"{prompt.format_count:,}"),
    ]


def message_count(prompt: ChatPrompt, index: int) -> str:
    """What one message's text costs, in words.

    >>> from bpe_core.chat import render_conversation
    >>> message_count(render_conversation("qwen3", [{"role": "user", "content": "Hi!"}]), 0)
    '2 tokens'
    """
    count = prompt.message_counts[index]
    return f"{count:,} token" + ("" if count == 1 else "s")


def format_note(chat: ChatFormat, ready: bool) -> str:
    """Where the format comes from and what it adds, in words (plain text: the page escapes it)."""
    if chat.estimated:
        reply = f", and {OPENAI_REPLY_PRIMING} for the opening of the reply" if ready else ""
        return (
            f"OpenAI does not publish {chat.title}'s chat format: the count adds its documented estimate "
            f"(the OpenAI cookbook), {OPENAI_TOKENS_PER_MESSAGE} tokens a message plus its role{reply}. "
            "Each message's own tokens are exact."
        )
    reply = " and the opening of the assistant's reply" if ready else ""
    if chat.script:
        written = f"in {chat.source}"
    else:
        written = f"as the chat template published with {chat.source} writes them (rendered as transformers' "
        written += "apply_chat_template does)"
    said = f"The prompt {chat.title} receives: the messages {written}, with its special tokens{reply}."
    return f"{said} {chat.caveat}".rstrip()


def placing_note(prompt: ChatPrompt) -> str:
    """A word when the messages' texts could not be told apart from the format's (every token counted as format)."""
    if prompt.placed:
        return ""
    return "The template rewrote the messages beyond recognition: every token is counted as the format's."


def special_typed_note(prompt: ChatPrompt) -> str:
    """A word when a message's text holds a special token's text, which the model receives as that token.

    >>> from bpe_core.chat import render_conversation
    >>> special_typed_note(render_conversation("qwen3", [{"role": "user", "content": "a <|im_end|>"}]))[:40]
    'A message holds the text of a special to'
    """
    typed = [
        token for token, owner in zip(prompt.tokens, prompt.owners) if owner is not None and token.kind == "special"
    ]
    if not typed:
        return ""
    names = ", ".join(dict.fromkeys(token.token for token in typed))
    return (
        f"A message holds the text of a special token ({names}): the model receives it as that token, as "
        "transformers does by default (sanitize_control_tokens=True would send it as text)."
    )


def link_note(messages, max_chars: int) -> str:
    """What the link leaves out: a conversation whose JSON is longer than ``max_chars``.

    >>> link_note([{"role": "user", "content": "x" * 30}], 20)[:62]  # [["user","xxx…"]]: 10 + 30 + 3 characters
    'The conversation (43 characters as a link) is longer than a li'
    """
    size = len(Conversation.text(messages))
    if size <= max_chars:
        return ""
    return (
        f"The conversation ({size:,} characters as a link) is longer than a link carries ({max_chars:,}): the link "
        "keeps the chat model and its choices, not the messages."
    )
