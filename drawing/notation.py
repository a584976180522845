"""The legend of every glyph a page writes tokens with: one table of what each stand-in means, and the one line that
names those a view actually shows, shown wherever tokens are written as text.

Tokens reach the page as text through ``drawing.readable`` (``␣`` for a space, ``\\xNN`` for a byte that is only part of
a character); some models spell tokens with marks of their own (SentencePiece's ``▁``, byte fallback's ``<0x41>``,
``</w>``), and a few views show GPT-2's stand-ins raw (``Ġ``, ``Ċ``) because they teach them.

>>> glyph_legend(["␣the", "an"])
'Key: ␣ a space.'
>>> print(glyph_legend(["Ġa", "\\\\xc3", "a↵"], spaces_as_g=True).replace(" · ", "\\n"))
Key: ↵ a newline
\\xNN a byte by its hex code (part of a character, or one that does not print)
Ġ a space in GPT-2's byte alphabet.
>>> glyph_legend(["ĠcafÃ©"], byte_alphabet=True)
"Key: Ġ a space in GPT-2's byte alphabet · Ã© bytes beyond ASCII, one letter each (Ã© is é)."
>>> glyph_legend(["the", "an"])
''
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

from bpe_core import Config
from bpe_core.bytelevel import CHAR_TO_BYTE
from drawing.readable import WHITESPACE_GLYPHS, token_text

# What a whitespace glyph stands for, in the order a legend names them.
WHITESPACE_NAMES = {" ": "a space", "\n": "a newline", "\t": "a tab", "\r": "a carriage return"}

# (glyph as a legend shows it, what it means, how to find it in a token's text), in the order a legend names them; the
# marks some models spell their tokens with come last
_SPELLING_MARKS = (("▁", "a space, as SentencePiece marks it", "▁"), ("</w>", "the end of a word", re.escape("</w>")))
_MARKS = (
    *((WHITESPACE_GLYPHS[char], name, re.escape(WHITESPACE_GLYPHS[char])) for char, name in WHITESPACE_NAMES.items()),
    ("\\xNN", "a byte by its hex code (part of a character, or one that does not print)", r"\\x[0-9a-f]{2}"),
    ("\\uNNNN", "a character that does not print, by its code", r"\\u[0-9a-f]{4}"),
    ("<0xNN>", "byte fallback: one byte of a character the vocabulary lacks", r"<0x[0-9A-F]{2}>"),
    *_SPELLING_MARKS,
)
# GPT-2's stand-ins are letters of some alphabets (Maltese Ġ, French é), so they are named only where a view says it
# writes them: the "spaces as Ġ" setting, or a byte-level model's raw symbols
# the stand-ins of bytes 0x80-0xFF and of the bytes that do not print, Ġ and Ċ excepted (they are named apart)
_OTHER_STAND_INS = "[" + "".join(sorted(set(CHAR_TO_BYTE) - set(string.printable) - {"Ġ", "Ċ"})) + "]"
_SPACE_STAND_IN = ("Ġ", "a space in GPT-2's byte alphabet", "Ġ")
_BYTE_STAND_INS = (
    _SPACE_STAND_IN,
    ("Ċ", "a newline in GPT-2's byte alphabet", "Ċ"),
    ("Ã©", "bytes beyond ASCII, one letter each (Ã© is é)", _OTHER_STAND_INS),
)


def glyphs_shown(
    texts: Iterable[str], *, spaces_as_g: bool = False, byte_alphabet: bool = False
) -> list[tuple[str, str]]:
    """The (glyph, meaning) pairs of every mark that occurs in ``texts``, in the legend's order; ``spaces_as_g``: the
    texts write a space as ``Ġ``; ``byte_alphabet``: they are a byte-level model's raw symbols (``Ġ``, ``Ċ``, ``Ã©``).

    >>> [glyph for glyph, _ in glyphs_shown(["a␣b", "<0xE2>", "Ġ"])]
    ['␣', '<0xNN>']
    """
    return _found(_MARKS + (_BYTE_STAND_INS if byte_alphabet else (_SPACE_STAND_IN,) if spaces_as_g else ()), texts)


def spelling_marks(tokens: Iterable[str]) -> list[tuple[str, str]]:
    """The (mark, meaning) pairs of the marks a model spells its tokens with (``▁``, ``</w>``) found in ``tokens``:
    what the token boxes' legend adds to its whitespace glyphs.

    >>> spelling_marks(["the</w>", "▁a", "x"])
    [('▁', 'a space, as SentencePiece marks it'), ('</w>', 'the end of a word')]
    """
    return _found(_SPELLING_MARKS, tokens)


def _found(marks: Iterable[tuple[str, str, str]], texts: Iterable[str]) -> list[tuple[str, str]]:
    """The (glyph, meaning) of each of ``marks`` whose pattern occurs in ``texts``, in ``marks``' order."""
    joined = "\n".join(texts)
    return [(glyph, meaning) for glyph, meaning, pattern in marks if re.search(pattern, joined)]


def glyph_legend(texts: Iterable[str], *, spaces_as_g: bool = False, byte_alphabet: bool = False) -> str:
    """One plain line naming the marks that occur in ``texts`` (empty when none does); escape it where it is shown.
    The flags are ``glyphs_shown``'s."""
    shown = glyphs_shown(texts, spaces_as_g=spaces_as_g, byte_alphabet=byte_alphabet)
    if not shown:
        return ""
    return "Key: " + " · ".join(f"{glyph} {meaning}" for glyph, meaning in shown) + "."


def written_glyph_legend(texts: Iterable[str], config: Config) -> str:
    """``glyph_legend`` for a model's tokens already written by ``drawing.readable.token_text`` (a table's cells, say):
    ``Ġ`` is named only where the "spaces as Ġ" setting makes it a space.

    >>> written_glyph_legend(["Ġthe"], Config(space_marker=True)), written_glyph_legend(["Ġthe"], Config())
    ("Key: Ġ a space in GPT-2's byte alphabet.", '')
    """
    return glyph_legend(texts, spaces_as_g=config.space_marker)


def token_glyph_legend(tokens: Iterable[str], config: Config) -> str:
    """``written_glyph_legend`` for a model's own tokens, written as ``drawing.readable.token_text`` writes them (a
    byte-level model's as the text they spell).

    >>> token_glyph_legend(["Ġthe", "Ã"], Config(units="bytes"))
    'Key: ␣ a space · \\\\xNN a byte by its hex code (part of a character, or one that does not print).'
    """
    byte_level = config.byte_level
    return written_glyph_legend((token_text(token, byte_level) for token in tokens), config)
