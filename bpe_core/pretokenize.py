"""Pre-tokenization: cut text into pieces that merges never cross.

Four schemes, each a function of the text alone:

* ``none``: the whole text is one piece (``banana_bandana_`` style).
* ``whitespace``: runs of non-whitespace, as ``str.split()`` cuts them.
* ``gpt2``: GPT-2's regex (contractions, letters, digits, other symbols, spaces).
* ``gpt4``: the cl100k regex of GPT-4 (digits in groups of at most three, ...).

>>> split_text("Hello world's  end!", "gpt2")
['Hello', ' world', "'s", ' ', ' end', '!']
>>> split_text("Hello world's  end!", "whitespace")
['Hello', "world's", 'end!']
>>> split_text("12345 apples", "gpt4")
['123', '45', ' apples']

The GPT regexes are written with ``\\p{L}`` (letters), ``\\p{N}`` (numbers) and
``\\s`` (Unicode White_Space) in the original.  The standard ``re`` module has
no ``\\p{..}``, and its ``\\s``/``\\w`` are close but not equal (``\\w`` treats
``²`` and ``½`` as letters, ``\\s`` counts the separators U+001C-U+001F as
spaces).  So the classes are built here from ``unicodedata`` categories and the
White_Space list, which makes them equal to the originals for Latin, Cyrillic,
CJK, digits, emoji and combining marks.  What can still differ is the Unicode
version: Python's ``unicodedata`` (see ``UNICODE_VERSION``) and the Rust regex
crate may disagree on characters assigned in between.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

SPLITS = ("none", "whitespace", "gpt2", "gpt4")
UNICODE_VERSION = unicodedata.unidata_version

# Unicode's White_Space property (PropList.txt); stable since Unicode 6.
_WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# No letter or number is assigned above this code point (planes 4-13 are empty,
# 14-16 hold tags, variation selectors and private use).
_LAST_ASSIGNED_LN = 0x323AF

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# The same matches as GPT2_PATTERN, tried in a faster order: the alternatives moved
# ahead of the contractions never start with "'", so they never take a contraction's place.
_GPT2_FAST_ORDER = r""" ?\p{L}+| ?\p{N}+|'(?:s|t|re|ve|m|ll|d)| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


@functools.cache
def _unicode_classes() -> dict[str, str]:
    """Character-class bodies for ``\\p{L}``, ``\\p{N}`` and ``\\s``, built once.

    Every category code is two letters, capital first (``Lu``, ``Nd``, ...), so the
    codes of all code points joined into one string let ``re`` find the runs of
    letters and numbers at C speed, the run at offset ``2 * i`` starting at ``chr(i)``.
    """
    codes = "".join(map(unicodedata.category, map(chr, range(_LAST_ASSIGNED_LN + 1))))

    def ranges(first_letter: str) -> str:
        parts = []
        for run in re.finditer(f"(?:{first_letter}[a-z])+", codes):
            first, last = chr(run.start() // 2), chr(run.end() // 2 - 1)
            parts.append(re.escape(first) if first == last else f"{re.escape(first)}-{re.escape(last)}")
        return "".join(parts)

    return {r"\p{L}": ranges("L"), r"\p{N}": ranges("N"), r"\s": _WHITE_SPACE}


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
def compiled_pattern(name: str, ascii_only: bool = False) -> re.Pattern[str]:
    """The stdlib ``re`` translation of the GPT-2 or GPT-4 pattern (built once).

    With ``ascii_only`` the classes hold only their ASCII members: the same cuts
    for ASCII text, and about 2.5 times faster to match.
    """
    source = {"gpt2": _GPT2_FAST_ORDER, "gpt4": GPT4_PATTERN}[name]
    if ascii_only:
        classes = {r"\p{L}": "A-Za-z", r"\p{N}": "0-9", r"\s": "\t\n\x0b\x0c\r "}
    else:
        classes = _unicode_classes()
    # \S only ever appears outside a class in these patterns.
    source = source.replace(r"\S", r"[^\s]")
    return re.compile(_translate(source, classes))


def _pattern_for(text: str, split: str) -> re.Pattern[str]:
    check_split(split)
    return compiled_pattern(split, text.isascii())


def check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"unknown pre-tokenization {split!r}: choose one of {', '.join(SPLITS)}")


@functools.cache
def piece_splitter(split: str) -> Callable[[str], list[str]]:
    """The function that cuts a text into its pieces (fast path, no offsets).

    >>> piece_splitter("gpt2")("Hi there")
    ['Hi', ' there']
    """
    check_split(split)
    if split == "none":
        return lambda text: [text] if text else []
    if split == "whitespace":
        return str.split
    return lambda text: _pattern_for(text, split).findall(text)


def split_text(text: str, split: str) -> list[str]:
    """The pieces of ``text``."""
    return piece_splitter(split)(text)


def split_spans(text: str, split: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the pieces of ``text``, in order."""
    if split == "none":
        return [(0, len(text))] if text else []
    if split == "whitespace":
        return [match.span() for match in re.finditer(r"\S+", text)]
    return [match.span() for match in _pattern_for(text, split).finditer(text)]


def special_segments(text: str, specials: tuple[str, ...]) -> list[tuple[int, int, bool]]:
    """Cut ``text`` around special tokens: ``(start, end, is_special)`` segments.

    Longer specials win over their prefixes (``<|end|>`` vs ``<|endoftext|>``).

    >>> special_segments("a<s>b", ("<s>",))
    [(0, 1, False), (1, 4, True), (4, 5, False)]
    """
    if not specials:
        return [(0, len(text), False)] if text else []
    alternatives = "|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True))
    segments: list[tuple[int, int, bool]] = []
    position = 0
    for match in re.finditer(alternatives, text):
        if match.start() > position:
            segments.append((position, match.start(), False))
        segments.append((match.start(), match.end(), True))
        position = match.end()
    if position < len(text):
        segments.append((position, len(text), False))
    return segments


def check_encodable(text: str) -> None:
    """Raise a clear ValueError if ``text`` holds a lone surrogate (not valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        raise ValueError(
            f"the text holds a lone surrogate U+{code:04X} at position {error.start}; "
            "it is not a character and cannot be encoded as UTF-8"
        ) from None


__all__ = [
    "SPLITS",
    "UNICODE_VERSION",
    "check_encodable",
    "check_split",
    "compiled_pattern",
    "piece_splitter",
    "special_segments",
    "split_spans",
    "split_text",
]
