"""Where tokenizers cut one text differently: each tokenizer's tokens as pieces of the text, and the text cut into
stretches at the places where every tokenizer cuts; a stretch that some tokenizer cuts inside is one where they
disagree.

>>> row = lambda *spans: [Piece(start, end, (index,), ("t",)) for index, (start, end) in enumerate(spans)]
>>> stretches = line_up(6, [row((0, 3), (3, 6)), row((0, 2), (2, 3), (3, 6))])
>>> [(stretch.start, stretch.end, stretch.differs) for stretch in stretches]
[(0, 3, True), (3, 6, False)]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bpe_core import Token
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.published import listed

SPACE_MARK = "▁"  # SentencePiece's space, which a normalizer may write for a space (Llama 2, Gemma 3)


@dataclass(frozen=True)
class Piece:
    """A stretch of the text one tokenizer covers with ``ids`` (shown as ``labels``): one token, or the tokens
    that share a character (byte-level pieces of an emoji), or a token with the markers after it."""

    start: int
    end: int
    ids: tuple[int, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Stretch:
    """The text from ``start`` to ``end``, where every tokenizer cuts at both ends; ``pieces``: each tokenizer's
    pieces inside it (none where it drops the text, as a whitespace split drops spaces)."""

    start: int
    end: int
    pieces: tuple[tuple[Piece, ...], ...]
    differs: bool


def text_positions(text: str, shown: str) -> list[int] | None:
    """For each place 0..len(shown) in the text a normalizer made (``shown``), the place in ``text`` it stands for;
    None when the two cannot be lined up by the rewrites tokenizers make: a space written as ``▁``, one put in front,
    a character replaced by its compatibility form (NFKC: "ﬁ" as "fi").

    >>> text_positions("a b", "▁a▁b")
    [0, 0, 1, 2, 3]
    >>> text_positions("ﬁx", "fix")
    [0, 0, 1, 2]
    """
    if shown == text:
        return list(range(len(text) + 1))
    positions: list[int] = []
    at = 0
    while len(positions) < len(shown):
        here = len(positions)
        char = text[at] if at < len(text) else ""
        written = unicodedata.normalize("NFKC", char) if char else ""
        if char and (shown[here] == char or (shown[here] == SPACE_MARK and char == " ")):
            positions.append(at)
        elif written and shown.startswith(written, here):
            positions += [at] * len(written)
        elif shown[here] == SPACE_MARK:  # a space put in front covers no character of the text
            positions.append(at)
            continue
        else:
            return None
        at += 1
    return positions + [at] if at == len(text) else None


def pieces_of(tokens: Sequence[Token], positions: Sequence[int]) -> list[Piece]:
    """``tokens`` (spans in the shown text) as pieces of the text: tokens that overlap (bytes of one character) are
    one piece, a token that covers nothing (a marker) joins the piece before it.

    >>> from bpe_core import load_gpt2
    >>> [(p.start, p.end, p.labels) for p in pieces_of(load_gpt2().encode_with_spans("a 😀"), range(4))]
    [(0, 1, ('a',)), (1, 3, ('ĠðŁĺ', 'Ģ'))]
    """
    pieces: list[Piece] = []
    for token in tokens:
        start, end = positions[token.start], positions[token.end]
        last = pieces[-1] if pieces else None
        if last is not None and (start < last.end or start == end):
            pieces[-1] = Piece(last.start, max(last.end, end), (*last.ids, token.id), (*last.labels, token.token))
        else:
            pieces.append(Piece(start, end, (token.id,), (token.token,)))
    return pieces


def rows_of(text: str, tokenizers: Mapping[str, AnyTokenizer]) -> tuple[dict[str, list[Piece]], list[str]]:
    """Each tokenizer's pieces of ``text``, by title; and the titles of those whose normalizer rewrites the text in
    a way that cannot be lined up with it.

    >>> from bpe_core import load_gpt2
    >>> rows, left_out = rows_of("hi", {"GPT-2": load_gpt2()})
    >>> [(piece.start, piece.end) for piece in rows["GPT-2"]], left_out
    ([(0, 2)], [])
    """
    rows, left_out = {}, []
    for title, tok in tokenizers.items():
        positions = text_positions(text, tok.shown_text(text))
        if positions is None:
            left_out.append(title)
        else:
            rows[title] = pieces_of(tok.encode_with_spans(text), positions)
    return rows, left_out


def line_up(length: int, rows: Sequence[Sequence[Piece]]) -> list[Stretch]:
    """The text (``length`` characters) cut where every row's pieces start or end (and at both ends), with each
    row's pieces inside each stretch; a stretch ``differs`` when the rows do not all cut it into the same pieces."""
    places = [{0, length} | {piece.start for piece in row} | {piece.end for piece in row} for row in rows]
    shared = sorted(set.intersection(*places))
    next_piece = [0] * len(rows)
    stretches = []
    for start, end in zip(shared, shared[1:]):
        inside = []
        for index, row in enumerate(rows):
            taken = next_piece[index]
            while next_piece[index] < len(row) and row[next_piece[index]].end <= end:
                next_piece[index] += 1
            inside.append(tuple(row[taken : next_piece[index]]))
        spans = {tuple((piece.start, piece.end) for piece in pieces) for pieces in inside}
        stretches.append(Stretch(start, end, tuple(inside), differs=len(spans) > 1))
    return stretches


def disagreement_sentence(titles: Sequence[str], stretches: Sequence[Stretch]) -> str:
    """How much of the text the tokenizers cut alike.

    >>> disagreement_sentence(["A", "B"], [Stretch(0, 3, ((), ()), True), Stretch(3, 9, ((), ()), False)])
    'A and B cut 1 of 2 stretches differently (3 of 9 characters), marked below.'
    >>> disagreement_sentence(["Llama 3", "Qwen3.5 and Qwen3.6"], [Stretch(0, 3, ((), ()), False)])
    'Llama 3 and Qwen3.5/Qwen3.6 cut this text in the same places.'
    """
    names = listed(titles)
    differing = [stretch for stretch in stretches if stretch.differs]
    if not differing:
        return f"{names} cut this text in the same places."
    characters = sum(stretch.end - stretch.start for stretch in differing)
    total = stretches[-1].end if stretches else 0
    return (
        f"{names} cut {len(differing):,} of {len(stretches):,} stretches differently "
        f"({characters:,} of {total:,} characters), marked below."
    )
