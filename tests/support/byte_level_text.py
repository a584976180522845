"""How the pages spell a byte-level token, worked out with HF's own byte-level decoder rather than ours: the text its
bytes make, with whitespace as the pages' glyphs (``drawing.readable.WHITESPACE_GLYPHS``)."""

from __future__ import annotations

from tokenizers import decoders

from drawing.readable import WHITESPACE_GLYPHS

_DECODER = decoders.ByteLevel()


def spelled(token: str) -> str:
    """``Ġthe`` -> ``␣the`` (tokens whose bytes make whole characters only: HF writes a partial one as U+FFFD)."""
    return "".join(WHITESPACE_GLYPHS.get(char, char) for char in _DECODER.decode([token]))


def spelled_pair(left: str, right: str) -> str:
    """A merge as the Train page's table writes it: ``Ġ t`` -> ``␣ t``."""
    return f"{spelled(left)} {spelled(right)}"
