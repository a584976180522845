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

from bpe_core.bytelevel import CHAR_TO_BYTE

# ␣ rather than ·: a middle dot is a real letter in some texts (Catalan "l·l"). ← for a carriage return (back to the
# line's start): the Control Pictures' ␍ is missing from common fonts (DejaVu, Liberation, Consolas) and drew as a box.
WHITESPACE_GLYPHS = {" ": "␣", "\n": "↵", "\t": "→", "\r": "←"}
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


def token_text(token: str, byte_level: bool) -> str:
    """A token as plain readable text: a byte-level token as the text its bytes spell (a byte that is only part of
    a character as ``\\xNN``), whitespace as the boxes' glyphs (``readable_symbol``). Escape it for HTML or plotly.

    >>> token_text("Ġthe", byte_level=True), token_text("Ã©", byte_level=True), token_text("Ã", byte_level=True)
    ('␣the', 'é', '\\\\xc3')
    >>> token_text("Ġthe", byte_level=False)  # a model of characters keeps its own spelling
    'Ġthe'
    """
    if not byte_level or any(char not in CHAR_TO_BYTE for char in token):
        return readable_symbol(token)
    raw = bytes(CHAR_TO_BYTE[char] for char in token)
    return readable_symbol(raw.decode("utf-8", errors="backslashreplace"))


def token_pair(left: str, right: str, byte_level: bool) -> str:
    """A pair of tokens as plain readable text, ``left + right`` in ``token_text``'s notation, the way Merges and the
    Class page name it (escape it again for HTML or plotly).

    >>> token_pair("Ġt", "he", byte_level=True), token_pair("Ġ", "t", byte_level=False), token_pair(" ", "\\n", False)
    ('␣t + he', 'Ġ + t', '␣ + ↵')
    """
    return f"{token_text(left, byte_level)} + {token_text(right, byte_level)}"
