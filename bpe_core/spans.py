"""Where each token sits in the text: character spans for drawing token boundaries.

A token covers some input bytes; a page needs character offsets.  A byte-level
token can hold part of a multi-byte character: it is marked ``partial`` and
spans that whole character, so it can still be drawn.

>>> [(t.token, t.start, t.end, t.partial) for t in piece_tokens(
...     "a😀", 0, (0, 1, 2), [1, 1, 1, 1, 1], base_counts={1: 3}, id_to_token=["a", "ðŁĺ", "Ģ"],
...     kind_of=lambda i: "normal")]
[('a', 0, 1, False), ('ðŁĺ', 1, 2, True), ('Ģ', 1, 2, True)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    """One token of an encoded text.

    ``start``/``end`` are character offsets in the input: ``text[start:end]`` is
    what the token covers.  A byte-level token holding part of a multi-byte
    character is ``partial``; its span is the whole character it is part of.
    ``kind`` is ``normal``, ``special``, ``unknown`` (``<unk>``) or ``byte``
    (a byte-fallback token).
    """

    id: int
    token: str
    start: int
    end: int
    raw: bytes
    kind: str = "normal"
    partial: bool = False


def piece_tokens(
    piece: str,
    offset: int,
    ids: Sequence[int],
    lengths: Sequence[int],
    *,
    base_counts: Mapping[int, int],
    id_to_token: Mapping[int, str] | Sequence[str],
    kind_of: Callable[[int], str],
) -> list[Token]:
    """The tokens of one encoded piece that starts at character ``offset`` of the text.

    ``lengths`` gives the input bytes behind each base symbol of the piece (0 for a
    marker); ``base_counts`` how many base symbols a merged token spans (1 if absent).
    """
    raw = piece.encode("utf-8")
    char_at_byte: dict[int, int] = {}  # byte offset -> character offset, at character starts only
    byte_position = 0
    for index, char in enumerate(piece):
        char_at_byte[byte_position] = index
        byte_position += len(char.encode("utf-8"))
    char_at_byte[byte_position] = len(piece)
    tokens: list[Token] = []
    symbol_index = byte_start = 0
    for token_id in ids:
        symbols = base_counts.get(token_id, 1)
        byte_end = byte_start + sum(lengths[symbol_index : symbol_index + symbols])
        symbol_index += symbols
        partial = byte_start not in char_at_byte or byte_end not in char_at_byte
        first_char = _char_index(char_at_byte, byte_start)
        last_char = _char_index(char_at_byte, byte_end - 1) + 1 if byte_end > byte_start else first_char
        tokens.append(
            Token(
                id=token_id,
                token=id_to_token[token_id],
                start=offset + first_char,
                end=offset + max(last_char, first_char),
                raw=raw[byte_start:byte_end],
                kind=kind_of(token_id),
                partial=partial,
            )
        )
        byte_start = byte_end
    return tokens


def _char_index(char_at_byte: dict[int, int], byte_offset: int) -> int:
    """The index of the character holding ``byte_offset`` (walks back to its first byte)."""
    while byte_offset not in char_at_byte:
        byte_offset -= 1
    return char_at_byte[byte_offset]
