r"""The GPT pre-tokenizers' regexes, and how they are run fast.

>>> pattern_pieces(GPT4_PATTERN)("12345 apples")
['123', '45', ' apples']
>>> pattern_spans(GPT4_PATTERN)("12345 apples")
[(0, 3), (3, 5), (5, 12)]

The patterns are written with Unicode properties (``\p{L}`` letters, ``\p{N}``
numbers, ``\p{Lu}`` capitals, ``\p{M}`` marks, ``\s`` White_Space).  The standard
``re`` module has no ``\p{..}``, and ``unicodedata`` knows only the Unicode version of
the Python it ships with, which can be older than the one tiktoken and HF tokenizers use.
So text with any non-ASCII character is cut by the ``regex`` module, which reads the
patterns as published, with a recent Unicode; ASCII text (most of it, in English) by a
stdlib ``re`` copy whose classes hold their ASCII members only: the same cuts, about twice
as fast.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# The same matches as GPT2_PATTERN, tried in a faster order: the alternatives moved
# ahead of the contractions never start with "'", so they never take a contraction's place.
GPT2_FAST_ORDER = r""" ?\p{L}+| ?\p{N}+|'(?:s|t|re|ve|m|ll|d)| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# tiktoken's cl100k_base and o200k_base patterns (tiktoken_ext/openai_public.py).
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
GPT4O_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# The ASCII members of each class: what the patterns see in ASCII text.
_ASCII_CLASSES = {
    r"\p{Lu}": "A-Z",
    r"\p{Ll}": "a-z",
    r"\p{Lt}": "",
    r"\p{Lm}": "",
    r"\p{Lo}": "",
    r"\p{M}": "",
    r"\p{L}": "A-Za-z",
    r"\p{N}": "0-9",
    r"\s": "\t\n\x0b\x0c\r ",
}


def _translate(source: str, classes: dict[str, str]) -> str:
    """Rewrite ``\\p{L}``-style escapes as explicit classes, in or outside ``[...]``."""
    out: list[str] = []
    inside_class = False
    position = 0
    while position < len(source):
        for escape, body in classes.items():
            if source.startswith(escape, position):
                out.append(body if inside_class else f"[{body}]")
                position += len(escape)
                break
        else:
            char = source[position]
            if char == "\\":
                out.append(source[position : position + 2])
                position += 2
                continue
            if char == "[":
                inside_class = True
            elif char == "]":
                inside_class = False
            out.append(char)
            position += 1
    return "".join(out)


@functools.cache
def compiled_pattern(source: str, ascii_only: bool = False) -> re.Pattern[str] | regex.Pattern[str]:
    """One of the patterns above, compiled once: as published by the ``regex`` module, or with
    ``ascii_only`` as a stdlib ``re`` copy that cuts ASCII text the same way, faster."""
    if not ascii_only:
        return regex.compile(source)
    # \S only ever appears outside a class in these patterns.
    return re.compile(_translate(source.replace(r"\S", r"[^\s]"), _ASCII_CLASSES))


def pattern_pieces(source: str) -> Callable[[str], list[str]]:
    """The cutter that gives a text's matches of ``source``, in order (see the module's examples)."""
    return lambda text: compiled_pattern(source, text.isascii()).findall(text)


def pattern_spans(source: str) -> Callable[[str], list[tuple[int, int]]]:
    """The ``(start, end)`` offsets of the same matches."""
    return lambda text: [match.span() for match in compiled_pattern(source, text.isascii()).finditer(text)]
