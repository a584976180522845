"""Pure helpers for the Encode / Decode page: parse typed ids, explain a lossy round trip.

>>> parse_ids("[15496, 11 0]")
[15496, 11, 0]
>>> describe_round_trip("a  b\\nc", "a b c")
['whitespace: runs of spaces/newlines became single spaces']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bpe_core import Token

UNK = "<unk>"
MAX_NAMED_CHARACTERS = 12  # unknown characters listed by name before "..."

_ID_SEPARATORS = re.compile(r"[\s,;]+")
_WHITESPACE_RUN = re.compile(r"\s+")


def parse_ids(text: str) -> list[int]:
    """Token ids typed as ``1, 2 3`` or pasted as a list ``[1, 2, 3]``.

    Raises ``ValueError`` naming the first item that is not a whole number >= 0.

    >>> parse_ids("")
    []
    >>> parse_ids("12, x")
    Traceback (most recent call last):
    ...
    ValueError: item 2, 'x', is not a token id: ids are whole numbers such as 15496
    """
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    ids: list[int] = []
    for position, item in enumerate((part for part in _ID_SEPARATORS.split(body) if part), start=1):
        if re.fullmatch(r"-[0-9]+", item):
            raise ValueError(f"item {position}, {item}, is negative: token ids start at 0")
        if not re.fullmatch(r"\+?[0-9]+", item):  # ASCII digits only: int() would accept "١٢"
            raise ValueError(f"item {position}, {item!r}, is not a token id: ids are whole numbers such as 15496")
        ids.append(int(item))
    return ids


def describe_round_trip(original: str, decoded: str) -> list[str]:
    """Short sentences saying what ``decoded`` (= decode(encode(original))) lost; [] if nothing.

    Knows the two ways the engine loses text: whitespace (the whitespace split keeps
    words only) and characters never seen in training (``<unk>``). Anything else is
    reported as the first place where the texts differ.

    >>> describe_round_trip("café", "caf<unk>")
    ["characters never seen in training became <unk>: 'é'"]
    """
    if original == decoded:
        return []
    notes: list[str] = []
    whitespace_note = _whitespace_change(original, decoded)
    if whitespace_note:
        notes.append(whitespace_note)
    lost, mismatch_at = _unknown_characters("".join(original.split()), "".join(decoded.split()))
    if lost:
        named = ", ".join(repr(char) for char in lost[:MAX_NAMED_CHARACTERS])
        more = f" and {len(lost) - MAX_NAMED_CHARACTERS} more" if len(lost) > MAX_NAMED_CHARACTERS else ""
        notes.append(f"characters never seen in training became {UNK}: {named}{more}")
    if mismatch_at is not None or not notes:
        notes.append(_first_difference(original, decoded))
    return notes


def _whitespace_change(original: str, decoded: str) -> str:
    """A sentence about how the whitespace changed, or "" if it did not."""
    before = _WHITESPACE_RUN.findall(original.strip())
    after = _WHITESPACE_RUN.findall(decoded.strip())
    edges_lost = original != original.strip() and decoded == decoded.strip()
    if before == after and not edges_lost:
        return ""
    if before and not after:
        return "whitespace: all spaces and newlines were dropped, so the words run together"
    if after and all(run == " " for run in after):
        return "whitespace: runs of spaces/newlines became single spaces"
    if before == after:
        return "whitespace: spaces/newlines at the start or end were dropped"
    return "whitespace: spaces/newlines changed"


def _unknown_characters(original: str, decoded: str) -> tuple[list[str], int | None]:
    """Walk both texts together; return the characters that became ``<unk>`` (unique, in order)
    and the index in ``original`` where the texts differ some other way (None if they don't)."""
    lost: dict[str, None] = {}
    i = j = 0
    while i < len(original) and j < len(decoded):
        if original[i] == decoded[j]:
            i, j = i + 1, j + 1
        elif decoded.startswith(UNK, j):
            lost.setdefault(original[i])
            i, j = i + 1, j + len(UNK)
        else:
            return list(lost), i
    return list(lost), (None if i == len(original) and j == len(decoded) else i)


def _first_difference(original: str, decoded: str) -> str:
    index = next((k for k, (a, b) in enumerate(zip(original, decoded)) if a != b), min(len(original), len(decoded)))
    return (
        f"other: the texts first differ at character {index}: "
        f"{original[index:index + 12]!r} became {decoded[index:index + 12]!r}"
    )


def unique_pieces(pieces: Iterable[str], limit: int = 200) -> list[str]:
    """The first ``limit`` distinct non-blank pieces, in order of appearance.

    >>> unique_pieces(["the", " ", "cat", "the"])
    ['the', 'cat']
    """
    seen: dict[str, None] = {}
    for piece in pieces:
        if piece.strip() and piece not in seen:
            seen[piece] = None
            if len(seen) >= limit:
                break
    return list(seen)


def token_rows(tokens: Sequence[Token], text: str) -> list[dict]:
    """One row per token for a table: position, id, token, text, bytes (hex), span, kind.

    >>> token_rows([Token(7, "ab", 0, 2, b"ab")], "ab")
    [{'position': 0, 'id': 7, 'token': 'ab', 'text': 'ab', 'bytes (hex)': '61 62', 'span': '0–2', 'kind': 'normal'}]
    """
    return [
        {
            "position": position,
            "id": token.id,
            "token": token.token,
            "text": text[token.start : token.end],
            "bytes (hex)": token.raw.hex(" ").upper(),
            "span": f"{token.start}–{token.end}",
            "kind": token.kind + (" (part of a character)" if token.partial else ""),
        }
        for position, token in enumerate(tokens)
    ]


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&])")


def markdown_literal(text: str) -> str:
    """``text`` escaped so Streamlit markdown shows it literally (no formatting, no tags).

    >>> markdown_literal("<unk> *x*")
    '\\\\<unk\\\\> \\\\*x\\\\*'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
