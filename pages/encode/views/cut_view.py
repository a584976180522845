"""Encode's "Cut at N tokens": the text with the beginning that fits kept and the rest faded, and a sentence.

>>> cut_summary("Hello world, how", "Hello world,", limit=3, used=3)
'Keeps 12 of 16 characters (3 of the 3 tokens allowed); the rest, faded, is cut.'
"""

from __future__ import annotations

from drawing.escape import html_text, scroll_box
from drawing.token_html import FADED

# A box like the token boxes' (scrolls past 300 px); the cut part greyer (still 4.5:1 on white) and struck through
_BOX_STYLE = (
    "white-space:pre-wrap;overflow-wrap:anywhere;max-height:300px;overflow-y:auto;padding:6px 8px;"
    "border:1px solid #e3e5ea;border-radius:6px;background:#fff;color:#1f2430;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:15px;line-height:1.6"
)
_REST_STYLE = f"color:{FADED};text-decoration:line-through"


def cut_summary(text: str, kept: str, *, limit: int, used: int) -> str:
    """One sentence: how much of ``text`` the budget of ``limit`` tokens keeps (``used`` of them).

    >>> cut_summary("abc", "", limit=0, used=0)
    'Nothing fits in 0 tokens: even the first character takes more.'
    """
    if kept == text:
        return f"The whole text fits: {used:,} of the {limit:,} tokens allowed."
    if not kept:
        return f"Nothing fits in {limit:,} tokens: even the first character takes more."
    kept_part = f"Keeps {len(kept):,} of {len(text):,} characters ({used:,} of the {limit:,} tokens allowed)"
    return f"{kept_part}; the rest, faded, is cut."


def cut_html(kept: str, rest: str) -> str:
    """The kept beginning as it is and the rest faded and struck through, escaped, lines and spaces as typed.

    >>> cut_html("a <b>", " c")  # doctest: +ELLIPSIS
    '<div ...><span>a &lt;b&gt;</span><s style="color:#585b65;text-decoration:line-through"> c</s></div>'
    """
    return (
        f'<div {scroll_box("The text cut to the token budget")} style="{_BOX_STYLE}">'
        f'<span>{html_text(kept)}</span><s style="{_REST_STYLE}">{html_text(rest)}</s></div>'
    )
