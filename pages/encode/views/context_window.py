"""Encode's Conversation mode, the model's context window: how much of it the prompt takes and what is left for
the reply, in words (plain text: the page escapes it).

>>> from bpe_core.chat import render_conversation
>>> window_line(render_conversation("qwen3", [{"role": "user", "content": "Hi!"}]))  # 10 of Qwen3's 32,768
'10 of 32,768 tokens (0.03%), 32,758 left for the reply'
"""

from __future__ import annotations

from bpe_core.chat import ChatPrompt


def _percent(part: int, whole: int) -> str:
    """A share in per cent: two decimals under 1%, none above.

    >>> _percent(1, 3), _percent(1, 8_192), _percent(8_192, 8_192)
    ('33%', '0.01%', '100%')
    """
    share = 100 * part / whole
    return f"{share:.2f}%" if share < 1 else f"{share:.0f}%"


def window_line(prompt: ChatPrompt) -> str:
    """The prompt against the window: "N of W tokens (x%), R left for the reply", or how far past it goes."""
    used, window = prompt.total, prompt.context_window
    if prompt.remaining < 0:
        return f"{used:,} tokens: {-prompt.remaining:,} past the {window:,}-token window"
    return f"{used:,} of {window:,} tokens ({_percent(used, window)}), {prompt.remaining:,} left for the reply"


def window_help(prompt: ChatPrompt) -> str:
    """The tooltip: what the context window is and where its length is published."""
    return (
        f"The context window: the tokens {prompt.chat.title} reads at most, the prompt and its reply together. "
        f"Source: {prompt.chat.context_source}."
    )


def past_window_note(prompt: ChatPrompt) -> str:
    """What a prompt past the window means, and what Cut to fit does ("" while the prompt fits).

    >>> from dataclasses import replace
    >>> from bpe_core.chat import render_conversation
    >>> prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
    >>> small = replace(prompt, chat=replace(prompt.chat, context_window=8))
    >>> past_window_note(small)[:64]
    'The prompt takes 10 tokens, 2 more than Qwen3 0.6B reads (8): th'
    """
    if prompt.remaining >= 0:
        return ""
    return (
        f"The prompt takes {prompt.total:,} tokens, {-prompt.remaining:,} more than {prompt.chat.title} reads "
        f"({prompt.context_window:,}): the model cannot receive it, and leaves no room for a reply. Cut to fit "
        "shortens the last message so that the prompt fits the window."
    )
