"""Streaming encode: the ids of a text that arrives in pieces (the lines of a big file), in flat memory.

A text can be cut and its parts encoded apart wherever no pre-tokenized piece crosses the cut.
A split that ``may_cut_at_spaces`` puts a non-space followed by a space, or a single newline between
two non-spaces, in separate pieces: so the text is cut before such a space or after such a
newline, and never inside a special token.  The others (``none``: its one piece is the whole
input) have no such place, and the input is held until the end.

>>> last_safe_cut("one two", split="gpt2", specials=())  # before the space
3
>>> last_safe_cut("one two", split="none", specials=())
0
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import chain

from .pretokenize import special_segments
from .pretokenizers import pretokenizer

# Before a space, or after a single newline, between non-spaces; never before a "/" after the newline: GPT-4o's
# punctuation piece takes the line end and the slashes after it ("!\n/" in "!\n/a").
_SAFE_CUT = re.compile(r"(?<=\S)(?= \S)|(?<=\S\n)(?=[^\s/])")
_CUT_WINDOW = 4096  # how far back from the end a cut is looked for
_STREAM_CHUNK = 1 << 16  # characters gathered before a streamed text is cut and encoded


def encode_stream(
    texts: Iterable[str], *, encode: Callable[[str], list[int]], split: str, specials: tuple[str, ...]
) -> Iterator[int]:
    """The ids ``encode`` gives the joined texts, yielded part by part (chained in C: a Python
    generator step per id would cost as much as the encoding)."""
    return chain.from_iterable(_encoded_parts(texts, encode, split, specials))


def _encoded_parts(
    texts: Iterable[str], encode: Callable[[str], list[int]], split: str, specials: tuple[str, ...]
) -> Iterator[list[int]]:
    pending = ""
    for text in texts:
        pending += text
        if len(pending) < _STREAM_CHUNK:
            continue  # encoding line by line would cost more in calls than in merges
        cut = last_safe_cut(pending, split=split, specials=specials)
        if cut:
            yield encode(pending[:cut])
            pending = pending[cut:]
    yield encode(pending)


def last_safe_cut(text: str, *, split: str, specials: tuple[str, ...]) -> int:
    """The last place where ``text`` can be cut without changing its pieces (0: none yet)."""
    if not pretokenizer(split).may_cut_at_spaces:
        return 0
    # A special token starting before the cut must lie wholly in the text seen so far.
    limit = len(text) - max(map(len, specials), default=0)
    inside = [(start, end) for start, end, is_special in special_segments(text, specials) if is_special]
    for match in reversed(list(_SAFE_CUT.finditer(text, max(0, limit - _CUT_WINDOW), max(limit, 0)))):
        cut = match.start()
        if not any(start < cut < end for start, end in inside):
            return cut
    return 0
