r"""Oniguruma's regexes (the engine HF tokenizers runs) on the ``regex`` module.

The ``pattern`` option of Replace and Split is written in Oniguruma's Ruby syntax.
:func:`compile_oniguruma` compiles it with the ``regex`` module, rewriting the few
constructs whose meaning differs there, and :func:`match_segments` cuts a text at its
matches the way HF does, with the onig crate's rule for empty matches.  Checked against
HF on every character: ``\s``, ``\w``, ``\h``, POSIX brackets, ``\p{..}`` and the
contractions group ``(?i:'s|'t|...)``; on sample texts: ``\b``, ``^``, ``$``, ``\Z`` and
empty matches.  Not translated: inside a scoped ``(?i:...)`` the ``regex`` module folds case
one character at a time (Oniguruma also matches "ß" to "ss"), and under ``(?i)`` it folds
``\p{Lu}``-style classes (Oniguruma does not); a nested class, ``&&``, or ``\W`` or ``\H``
inside a class raise :class:`Untranslatable`.

>>> match_segments(compile_oniguruma(r"\h+"), "zz1f")
[(0, 2, False), (2, 4, True)]
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

import regex


class Untranslatable(ValueError):
    """An Oniguruma construct with no equivalent in the ``regex`` module's V0 syntax."""


# Oniguruma's \w in a class (and [[:word:]]) is the regex module's \w without the two joiners
# (U+200C, U+200D); alone, \w (and \W, \b, \B) also takes the Latin-1 ² ³ ¹ ¼ ½ ¾.
_WORD_IN_CLASS = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}"
_WORD = _WORD_IN_CLASS + r"\xb2\xb3\xb9\xbc-\xbe"
_HEX = "0-9A-Fa-f"  # Oniguruma's \h is a hex digit; the regex module's is horizontal space
_OUTSIDE_CLASS = {
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "h": f"[{_HEX}]",
    "H": f"[^{_HEX}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
    "Z": r"(?=\n?\Z)",  # Ruby's \Z also matches before a final newline
    "z": r"\Z",
}
_INSIDE_CLASS = {"w": _WORD_IN_CLASS, "h": _HEX}
# POSIX brackets whose Oniguruma (Unicode) meaning differs from the regex module's.
_POSIX = {"punct": r"\p{P}\p{S}", "digit": r"\d", "alnum": r"\p{Alphabetic}\d", "word": _WORD_IN_CLASS}
# One search of a pattern read from a file, at most (the regex module looks at the clock now and then, so a search
# may run a few times longer): GPT-4's split pattern cuts the pages' longest text (100,000 characters) in about
# 0.05 s, while a pattern like "(x|x)+y" doubles its time with each "x" typed. BPE_PATTERN_SECONDS sets it.
PATTERN_SECONDS = float(os.environ.get("BPE_PATTERN_SECONDS", "2"))
# One call of a tokenizer.json's tokenizer (an encode, its spans, its pieces, a decode), all its searches together:
# a text cut into many stretches (between added tokens) or pieces runs a pattern on each, and each search may take
# PATTERN_SECONDS. Gemma 3 encodes 1 MB of English in about 3 s; the pages' texts are 100,000 characters at most.
ENCODE_SECONDS = float(os.environ.get("BPE_ENCODE_SECONDS", "10"))
_DEADLINE: ContextVar[float | None] = ContextVar("bpe_encode_deadline", default=None)  # time.monotonic()'s
_Call = TypeVar("_Call", bound=Callable)
_INLINE_FLAGS = regex.compile(r"\(\?[imx]*(?:-[imx]*)?[:)]")
_POSIX_BRACKET = regex.compile(r"\[:(\^?)([a-z]+):\]")
_HEX_BRACES = regex.compile(r"\\x\{([0-9A-Fa-f]+)\}")


def compile_oniguruma(source: str) -> regex.Pattern[str]:
    """``source`` compiled as Oniguruma reads it (raises :class:`Untranslatable` or ``regex.error``)."""
    return regex.compile(_from_oniguruma(source), regex.MULTILINE | regex.FULLCASE)


def _from_oniguruma(source: str) -> str:
    r"""Rewrite a pattern in Oniguruma's Ruby syntax for the ``regex`` module (which then runs
    with MULTILINE, since Ruby's ``^`` and ``$`` always match at line ends).

    >>> _from_oniguruma(r"(?m:.)\h[[:punct:]\w]")
    '(?s:.)[0-9A-Fa-f][\\p{P}\\p{S}\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}]'
    """
    out: list[str] = []
    position, inside_class = 0, False
    while position < len(source):
        char = source[position]
        if char == "\\" and position + 1 < len(source):
            braces = _HEX_BRACES.match(source, position)
            if braces:
                out.append(f"\\U{int(braces.group(1), 16):08x}")
                position = braces.end()
                continue
            letter = source[position + 1]
            if inside_class and letter in "WH":
                raise Untranslatable("\\" + letter + " inside a character class")
            table = _INSIDE_CLASS if inside_class else _OUTSIDE_CLASS
            out.append(table.get(letter, source[position : position + 2]))
            position += 2
        elif inside_class and char == "[":
            posix = _POSIX_BRACKET.match(source, position)
            if not posix or posix.group(1):
                raise Untranslatable("a nested or negated character class")
            out.append(_POSIX.get(posix.group(2), posix.group()))
            position = posix.end()
        elif inside_class and source.startswith("&&", position):
            raise Untranslatable("a class intersection (&&)")
        elif not inside_class and (flags := _INLINE_FLAGS.match(source, position)):
            out.append(flags.group().replace("m", "s"))  # Ruby's m is "dot matches newline"
            position = flags.end()
        else:
            if char == "[" or (char == "]" and inside_class):
                inside_class = char == "["
            out.append(char)
            position += 1
    return "".join(out)


def oniguruma_matches(pattern: regex.Pattern[str], text: str, field: str = "pattern") -> list[tuple[int, int]]:
    """The ``(start, end)`` of each match, as the Rust onig crate's iterator (HF's) reports them.

    Both engines agree until an empty match.  Then onig drops any empty match that ends where
    the previous match ended and searches again one character later, so no match starts at
    an empty match (Python's iterator lets a non-empty one start there).

    A pattern comes from a file, so one search may take at most ``PATTERN_SECONDS``; a longer one
    (a pattern that backtracks without end) is a ValueError naming the ``field`` it came from.

    >>> oniguruma_matches(regex.compile("x*"), "xab"), oniguruma_matches(regex.compile("|a"), "a")
    ([(0, 1), (2, 2), (3, 3)], [(0, 0), (1, 1)])
    >>> oniguruma_matches(regex.compile("(x|x)+y"), "x" * 40, "normalizer.pattern")
    Traceback (most recent call last):
    ...
    ValueError: normalizer.pattern: one search took longer than 2 s on this text (it backtracks without end)
    """
    spans: list[tuple[int, int]] = []
    try:
        for match in pattern.finditer(text, timeout=seconds_left()):
            if match.start() == match.end():
                return _empty_aware_matches(pattern, text)
            spans.append(match.span())
    except TimeoutError:
        raise too_slow(field) from None
    return spans


def within_budget(call: _Call) -> _Call:
    """A tokenizer's method whose searches share ``ENCODE_SECONDS`` in all (a call inside it shares its budget).

    >>> seconds_left() == PATTERN_SECONDS  # outside any call: each search on its own
    True
    >>> within_budget(lambda: seconds_left() <= min(PATTERN_SECONDS, ENCODE_SECONDS))()
    True
    """

    @functools.wraps(call)
    def bounded(*args, **kwargs):
        if _DEADLINE.get() is not None:
            return call(*args, **kwargs)
        token = _DEADLINE.set(time.monotonic() + ENCODE_SECONDS)
        try:
            return call(*args, **kwargs)
        finally:
            _DEADLINE.reset(token)

    return bounded  # type: ignore[return-value]


def seconds_left() -> float:
    """How long the next search may take: ``PATTERN_SECONDS``, or what is left of the call's budget if less (a
    ValueError once it is spent)."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return PATTERN_SECONDS
    left = deadline - time.monotonic()
    if left <= 0:
        raise ValueError(
            f"this took longer than {ENCODE_SECONDS:g} s in all (the tokenizer's patterns ran on many parts of the "
            "text): give it a shorter text (the server's BPE_ENCODE_SECONDS sets the limit)"
        )
    return min(PATTERN_SECONDS, left)


def too_slow(field: str) -> ValueError:
    """What a pattern from ``field`` that ran out of time says: its own search's limit, or the call's budget."""
    seconds_left()  # raises if the budget is what ran out
    return ValueError(
        f"{field}: one search took longer than {PATTERN_SECONDS:g} s on this text (it backtracks without end)"
    )


def _empty_aware_matches(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position, previous_end = 0, -1
    while position <= len(text):
        match = pattern.search(text, position, timeout=seconds_left())
        if match is None:
            break
        start, end = match.span()
        if start == end == previous_end:
            position += 1
            continue
        spans.append((start, end))
        position = previous_end = end
    return spans


def match_segments(pattern: regex.Pattern[str], text: str, field: str = "pattern") -> list[tuple[int, int, bool]]:
    """``text`` cut into ``(start, end, is_match)`` segments, in order, as HF cuts it
    for Split and Replace (an empty text is one empty non-match); ``field`` as for :func:`oniguruma_matches`."""
    if not text:
        return [(0, 0, False)]
    segments: list[tuple[int, int, bool]] = []
    previous = 0
    for start, end in oniguruma_matches(pattern, text, field):
        if start > previous:
            segments.append((previous, start, False))
        segments.append((start, end, True))
        previous = end
    if previous < len(text):
        segments.append((previous, len(text), False))
    return segments


def replace_matches(pattern: regex.Pattern[str], content: str, text: str, field: str = "pattern") -> str:
    """``text`` with every match replaced by ``content`` taken literally (no group references).

    >>> replace_matches(regex.compile("b*"), "X", "abc")
    'XaXcX'
    """
    segments = match_segments(pattern, text, field)
    return "".join(content if is_match else text[start:end] for start, end, is_match in segments)
