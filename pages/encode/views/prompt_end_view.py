"""Encode's word on the prompt's last token: when a text ends where the tokenizer would have merged with what comes
next (a trailing space, half a word, ``http:``), a note and the longer tokens the model is likely to need next, as
chips (escaped).

Nearly every last token starts some longer one (``.`` starts ``..`` and ``.\\n\\n``), so the page speaks only of
the endings that are a slip or cut something short: a trailing space or tab, a letter or digit that the longer
tokens go on with letters or digits (half a word, or a word the text may yet extend), a colon before ``//``.

>>> from bpe_core import load_gpt2
>>> from bpe_core.prompt_end import prompt_end
>>> end_note(prompt_end(load_gpt2(), "Hello ", limit=3), "Hello ")[:84]
'This text ends in the middle of what the tokenizer would merge: its last token, "␣",'
"""

from __future__ import annotations

from bpe_core.prompt_end import PromptEnd
from drawing.escape import attribute, html_text
from drawing.readable import readable_symbol

_CHIPS_STYLE = (
    "<style>.bpe-next{display:flex;flex-wrap:wrap;gap:4px;margin:2px 0 8px 0}"
    ".bpe-next .chip{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;"
    "padding:1px 6px;border:1px solid #9aa0ad;border-radius:10px;background:#f4f6fa;color:#1f2430;"
    "white-space:pre;max-width:100%;overflow:hidden;text-overflow:ellipsis}</style>"
)


_CONTINUED = (
    "A model fed this text goes on from a split it seldom saw in training; token healing backs up over that token "
    "and lets the model write only tokens that start with it, such as these:"
)
_CLOSED = (
    "The model receives the message cut there, a split it seldom saw in training (a trailing space or half a word is "
    "often a slip). Had it gone on, the tokenizer would have made tokens such as these:"
)


def cut_short(end: PromptEnd, text: str) -> bool:
    """Whether ``end``, the end of ``text``, is worth a word: it may merge, and its last token is spaces or tabs,
    a letter or digit that a longer token goes on with a letter or digit, or a colon a longer token adds ``//`` to.

    >>> from bpe_core import load_gpt2
    >>> from bpe_core.prompt_end import prompt_end
    >>> [cut_short(prompt_end(load_gpt2(), text), text) for text in ("Hello ", "Hello wor", "http:", "Hello.")]
    [True, True, True, False]
    """
    if not end.may_merge or end.last is None:
        return False
    last = text[end.last.start : end.last.end]
    added = [grown[len(last) :] for _, grown in end.candidates]
    if last and not last.strip(" \t"):
        return True
    if last[-1:].isalnum() and any(more[:1].isalnum() for more in added):
        return True
    return last.endswith(":") and any(more.startswith("//") for more in added)


def end_note(end: PromptEnd, text: str, *, message: bool = False) -> str:
    """What the page says when ``end`` (the end of ``text``) is cut short (``cut_short``), else "": about a text the
    model goes on from, or (``message``) the last message of a conversation, which the format closes. Plain text:
    the page escapes it."""
    if end.last is None or not cut_short(end, text):  # cut_short is False without a last token too
        return ""
    last = readable_symbol(text[end.last.start : end.last.end])
    longer = f"{end.longer_tokens:,} longer token" + ("" if end.longer_tokens == 1 else "s")
    subject = "The last message" if message else "This text"
    return (
        f'{subject} ends in the middle of what the tokenizer would merge: its last token, "{last}", is the start of '
        f"{longer} of the vocabulary. {_CLOSED if message else _CONTINUED}"
    )


def next_tokens_html(end: PromptEnd) -> str:
    """The tokens the model is likely to need next, as chips (their text with whitespace shown, their id on
    hover), escaped.

    >>> next_tokens_html(PromptEnd(None, ((7, " <b>"),), 1)).count('class="chip"'), "<b>" in next_tokens_html(
    ...     PromptEnd(None, ((7, " <b>"),), 1))
    (1, False)
    """
    chips = "".join(
        f'<span class="chip" title="{attribute(f"token id {token_id}")}">{html_text(readable_symbol(text))}</span>'
        for token_id, text in end.candidates
    )
    return f'{_CHIPS_STYLE}<div class="bpe-next">{chips}</div>'
