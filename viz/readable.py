"""Tokens as visible text: the one table of whitespace glyphs, used by labels, tables, chips and token boxes.

A token can hold characters that show as nothing or as a line break: spaces,
newlines, tabs, zero-width and direction marks, control characters.  Every
page labels tokens the same way.

>>> readable_symbol("a\\nb\\t c")
'a↵b→␣c'
>>> readable_symbol("\\x00\\u00a0\\u200b")
'\\\\x00\\\\xa0\\\\u200b'
>>> readable_symbol("Ġthe</w>")  # byte-level and marker tokens are visible already
'Ġthe</w>'
"""

from __future__ import annotations

import unicodedata

# ␣ rather than ·: a middle dot is a real letter in some texts (Catalan "l·l").
WHITESPACE_GLYPHS = {" ": "␣", "\n": "↵", "\t": "→", "\r": "␍"}
# control, format, surrogate, private use, unassigned, line/paragraph/other separators
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"}


def readable_symbol(text: str) -> str:
    """``text`` with invisible characters replaced by stand-ins or ``\\xNN``/``\\uNNNN`` escapes."""
    out = []
    for char in text:
        if char in WHITESPACE_GLYPHS:
            out.append(WHITESPACE_GLYPHS[char])
        elif unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            out.append(f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def pair_label(left: str, right: str) -> str:
    """A pair of tokens as plain readable text, the way Merges and the Class page name it (escape it again for
    HTML or plotly).

    >>> pair_label("Ġ", "t"), pair_label(" ", "\\n")
    ('Ġ + t', '␣ + ↵')
    """
    return f"{readable_symbol(left)} + {readable_symbol(right)}"
