"""A text cut to a token budget: the longest beginning of it that a tokenizer encodes in at most N tokens.

The cut falls between user-perceived characters (Unicode grapheme clusters: an emoji with its modifiers, a letter
with its combining accents stay whole) and never inside a special token, so the result is always an exact prefix of
the text, never half a character (the bytes of a byte-level token need not end on one). Tokens are counted by
encoding the prefix itself: the tokens of a prefix are not always a prefix of the text's tokens, since the last word
may merge differently, and a longer prefix may even take fewer tokens ("ab" in 2, "abc" in 1). Such a prefix is
looked for ``LOOK_AHEAD`` characters past the first one that does not fit: a word longer than that, whose beginning
takes more tokens than it does whole, is the one case where a longer fitting prefix is not found.

>>> from bpe_core import load_gpt2
>>> fit_prefix(load_gpt2(), "Hello world, how are you?", 3)
'Hello world,'
>>> fit_prefix(load_gpt2(), "naïve 👍🏽 emoji", 5)  # "naïve 👍" takes 4 tokens, but 👍🏽 is one character
'naïve '
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

import regex

from .pretokenize import special_segments
from .rank_tokenizer import AnyTokenizer

LOOK_AHEAD = 16  # graphemes tried past the first prefix that does not fit (a longer word may merge into fewer)
_GRAPHEME = regex.compile(r"\X")


def grapheme_ends(text: str) -> list[int]:
    """The character offsets where a prefix of ``text`` may end without splitting a grapheme: 0, ..., len(text).

    >>> grapheme_ends("e\\u0301a")  # e + combining acute accent is one grapheme
    [0, 2, 3]
    """
    return [0] + [match.end() for match in _GRAPHEME.finditer(text)]


def check_budget(limit) -> None:
    """A token budget is a whole number from 0 up."""
    if type(limit) is not int or limit < 0:
        raise ValueError(f"the token budget must be a whole number from 0 up, not {limit!r}")


def longest_fitting(
    text: str, limit: int, count: Callable[[str], int], estimate: int | None = None, ends: list[int] | None = None
) -> int:
    """The length of the longest prefix of ``text`` ending at one of ``ends`` (by default, between graphemes) for
    which ``count`` is at most ``limit``, searched from ``estimate`` (a guess at the answer, in characters)
    outwards, then by halving, then ``LOOK_AHEAD`` ends past the first prefix that does not fit. 0 when nothing fits.

    >>> longest_fitting("aaaa bb", 5, len)
    5
    """
    check_budget(limit)
    if count(text) <= limit:
        return len(text)
    ends = grapheme_ends(text) if ends is None else ends
    last = len(ends) - 1  # the whole text: known not to fit

    def fits(index: int) -> bool:
        return count(text[: ends[index]]) <= limit

    guess = min(max(bisect_right(ends, estimate or 0) - 1, 0), last - 1)
    low, high, step = guess, guess + 1, 1  # find low that fits and high above it that does not, around the guess
    while low > 0 and not fits(low):
        high, low, step = low, max(low - step, 0), step * 2
    while high < last and fits(high):
        low, high, step = high, min(high + step, last), step * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    for index in range(high + 1, min(high + 1 + LOOK_AHEAD, last)):
        if fits(index):
            low = index
    return ends[low]  # low is 0 when not even the empty text fits (a model whose own tokens pass the budget)


def fit_prefix(tok: AnyTokenizer, text: str, limit: int, *, special: bool = True, add_special: bool = False) -> str:
    """The longest beginning of ``text`` that ``tok`` encodes in at most ``limit`` tokens (see
    :func:`longest_fitting`), cut outside special tokens unless ``special`` is False (their text is then ordinary
    text); the model's own special tokens (Llama's ``<s>``) count with ``add_special``."""

    def ids(part: str) -> list[int]:
        encoded = tok.encode(part, special=special)
        return tok.with_model_specials(encoded) if add_special else encoded

    check_budget(limit)
    whole = ids(text)
    if len(whole) <= limit:
        return text
    # where the first ``limit`` tokens end is a close guess: decoded, they give about that many characters
    estimate = len(tok.decode(whole[:limit], skip_special=True))
    ends = grapheme_ends(text)
    if special:  # a special token's text is one token only whole
        inside = {
            position
            for start, end, is_special in special_segments(text, tok.config.special_tokens)
            if is_special
            for position in range(start + 1, end)
        }
        ends = [end for end in ends if end not in inside]
    return text[: longest_fitting(text, limit, lambda part: len(ids(part)), estimate, ends)]
