r"""Pre-tokenization: cut text into pieces that merges never cross.

Five schemes, each a function of the text alone:

* ``none``: the whole text is one piece (``banana_bandana_`` style).
* ``whitespace``: runs of characters that are not Unicode White_Space (HF's ``WhitespaceSplit``).
* ``gpt2``: GPT-2's regex (contractions, letters, digits, other symbols, spaces).
* ``gpt4``: GPT-4's cl100k_base regex (digits in groups of at most three, ...).
* ``gpt4o``: GPT-4o's o200k_base regex (a word's capitals kept with it, contractions as suffixes).

>>> split_text("Hello world's  end!", "gpt2")
['Hello', ' world', "'s", ' ', ' end', '!']
>>> split_text("Hello world's  end!", "whitespace")
['Hello', "world's", 'end!']
>>> split_text("12345 apples", "gpt4")
['123', '45', ' apples']
>>> split_text("HelloWorld's CAT", "gpt4o")
['Hello', "World's", ' CAT']

The GPT patterns are written with Unicode properties (``\p{L}`` letters, ``\p{N}``
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

SPLITS = ("none", "whitespace", "gpt2", "gpt4", "gpt4o")

# Unicode's White_Space property (PropList.txt); stable since Unicode 6.
_WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WORDS = re.compile(f"[^{_WHITE_SPACE}]+")
# str.split() also cuts at these information separators, which are not White_Space.
_SEPARATORS = ("\x1c", "\x1d", "\x1e", "\x1f")

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# The same matches as GPT2_PATTERN, tried in a faster order: the alternatives moved
# ahead of the contractions never start with "'", so they never take a contraction's place.
_GPT2_FAST_ORDER = r""" ?\p{L}+| ?\p{N}+|'(?:s|t|re|ve|m|ll|d)| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# tiktoken's cl100k_base and o200k_base patterns (tiktoken_ext/openai_public.py).
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
GPT4O_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
_PATTERNS = {"gpt2": _GPT2_FAST_ORDER, "gpt4": GPT4_PATTERN, "gpt4o": GPT4O_PATTERN}
# The ASCII members of each class: what the patterns see in ASCII text.
_ASCII_CLASSES = {
    r"\p{Lu}": "A-Z", r"\p{Ll}": "a-z", r"\p{Lt}": "", r"\p{Lm}": "", r"\p{Lo}": "", r"\p{M}": "",
    r"\p{L}": "A-Za-z", r"\p{N}": "0-9", r"\s": "\t\n\x0b\x0c\r ",
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
def compiled_pattern(name: str, ascii_only: bool = False) -> re.Pattern[str] | regex.Pattern[str]:
    """The pattern of a GPT split, compiled once: as published by the ``regex`` module, or with
    ``ascii_only`` as a stdlib ``re`` copy that cuts ASCII text the same way, faster."""
    source = _PATTERNS[name]
    if not ascii_only:
        return regex.compile(source)
    # \S only ever appears outside a class in these patterns.
    return re.compile(_translate(source.replace(r"\S", r"[^\s]"), _ASCII_CLASSES))


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
        return _split_words
    return lambda text: _pattern_for(text, split).findall(text)


def _split_words(text: str) -> list[str]:
    r"""Runs of non-White_Space characters; ``str.split`` is faster and agrees unless a separator is there.

    >>> _split_words("a\x1fb c"), "a\x1fb c".split()
    (['a\x1fb', 'c'], ['a', 'b', 'c'])
    """
    if any(separator in text for separator in _SEPARATORS):
        return _WORDS.findall(text)
    return text.split()


def split_text(text: str, split: str) -> list[str]:
    """The pieces of ``text``."""
    return piece_splitter(split)(text)


def split_spans(text: str, split: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the pieces of ``text``, in order."""
    if split == "none":
        return [(0, len(text))] if text else []
    if split == "whitespace":
        return [match.span() for match in _WORDS.finditer(text)]
    return [match.span() for match in _pattern_for(text, split).finditer(text)]


def lines(text: str) -> list[str]:
    r"""The lines of a file as HF tokenizers and sentencepiece read it for training: each ends with
    its ``\n`` (only ``\n`` ends a line), so no piece crosses a line end.

    >>> lines("one\r\ntwo\n\nthree")
    ['one\r\n', 'two\n', '\n', 'three']
    """
    parts = text.split("\n")  # not str.splitlines, which also ends lines at \r, \x0b, \x85, ...
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


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
    "check_encodable",
    "check_split",
    "compiled_pattern",
    "piece_splitter",
    "special_segments",
    "split_spans",
    "split_text",
]
