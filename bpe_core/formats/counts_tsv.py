r"""The counts table: a corpus's pre-tokenized pieces with their counts, what training needs of it.

A header line names the format and how the corpus was read (split, special tokens, line by line,
special tokens cut out); then one line per piece, in order of first appearance (tie-breaks
depend on it): the count, a tab, and the piece as a JSON string (pieces may hold tabs and newlines).

>>> text = counts_to_tsv({"low": 2, " lower": 1}, CountsHeader("gpt2", (), lines=False, specials_seen=0))
>>> text.splitlines()[1:]
['2\t"low"', '1\t" lower"']
>>> counts_from_tsv(text)[0]
{'low': 2, ' lower': 1}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from ..pretokenize import SPLITS
from .files import read_json

MAGIC = "# bpe_core piece counts v1 "


@dataclass(frozen=True)
class CountsHeader:
    """How the corpus was read: training from the table must read text the same way."""

    split: str
    special_tokens: tuple[str, ...]
    lines: bool
    specials_seen: int  # special tokens cut out of the text, counted for corpus_tokens


def counts_to_tsv(counts: Mapping[str, int], header: CountsHeader) -> str:
    fields = {
        "split": header.split,
        "special_tokens": list(header.special_tokens),
        "lines": header.lines,
        "specials_seen": header.specials_seen,
    }
    rows = [f"{count}\t{json.dumps(piece, ensure_ascii=False)}\n" for piece, count in counts.items()]
    return MAGIC + json.dumps(fields, ensure_ascii=False) + "\n" + "".join(rows)


def counts_from_tsv(text: str) -> tuple[dict[str, int], CountsHeader]:
    """The table and its header; anything else is a ValueError naming the line."""
    first, _, body = text.partition("\n")
    if not first.startswith(MAGIC):
        raise ValueError(
            f"not a counts table: the first line should start with {MAGIC.strip()!r} (made by python -m bpe_core count)"
        )
    fields = read_json(first[len(MAGIC) :])
    header = _header(fields)
    counts: dict[str, int] = {}
    rows = body.split("\n")  # not splitlines: a piece's JSON may hold U+2028 and the like unescaped
    if rows[-1] == "":
        rows.pop()
    for number, line in enumerate(rows, start=2):
        count, tab, field = line.partition("\t")
        try:
            piece = json.loads(field) if tab else None
        except json.JSONDecodeError:
            piece = None
        if not (count.isascii() and count.isdigit() and int(count) > 0 and isinstance(piece, str) and piece):
            raise ValueError(f"line {number} of the counts table is not a count, a tab and a JSON string")
        if piece in counts:
            raise ValueError(f"line {number} of the counts table repeats the piece {piece!r}")
        counts[piece] = int(count)
    return counts, header


def _header(fields) -> CountsHeader:
    if not isinstance(fields, dict) or set(fields) != {"split", "special_tokens", "lines", "specials_seen"}:
        raise ValueError("the counts table's header should hold split, special_tokens, lines and specials_seen")
    specials, seen = fields["special_tokens"], fields["specials_seen"]
    if (
        fields["split"] not in SPLITS
        or not isinstance(fields["lines"], bool)
        or not isinstance(specials, list)
        or not all(isinstance(token, str) and token for token in specials)
        or type(seen) is not int
        or seen < 0
    ):
        raise ValueError(f"the counts table's header has a value out of range: {fields}")
    return CountsHeader(fields["split"], tuple(specials), fields["lines"], seen)
