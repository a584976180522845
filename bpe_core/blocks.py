"""A corpus file in blocks that can be counted apart, so counting can run in parallel.

Merges need only the count of each pre-tokenized piece, and counts add up: a file cut where no
piece crosses the cut has the counts of its parts.  The cuts are the streaming encoder's safe
cuts, kept to ASCII so they are found in raw bytes without decoding what comes before: before a
space with a printable ASCII character on each side, or after such a character and a newline,
before another.  A split that may not be cut there (``none``: one piece per document) is safe
only at line ends, so it needs line-by-line reading.  Each block keeps its pieces in order of
first appearance, and the blocks are added up in file order, so the table equals counting the
whole text, ties and all.

>>> import io
>>> stream = io.BytesIO(b"one two\\nthree")
>>> next_cut(stream, 1, cut_rule("gpt2", lines=False))  # the first cut at or after byte 1
3
>>> next_cut(stream, 5, cut_rule("none", lines=True))   # after the newline
8
"""

from __future__ import annotations

import codecs
import os
import re
from collections import Counter
from collections.abc import Iterable
from typing import BinaryIO

from .config import Config
from .corpus import count_corpus
from .pretokenize import lines as file_lines  # renamed: ``lines`` is these functions' flag
from .pretokenizers import pretokenizer

# As streaming's cut: never before a "/" after a newline (GPT-4o's punctuation piece runs on through it)
_SAFE_CUT = re.compile(rb"(?<=[!-~])(?= [!-~])|(?<=[!-~]\n)(?=[!-.0-~])")
_LINE_END = re.compile(rb"(?<=\n)")
_LOOKBEHIND = 2  # bytes before a cut that the rules look at
_WINDOW = 1 << 16  # bytes read at a time while looking for a cut (more than _LOOKBEHIND + 1, to move on)

Block = tuple[str, int, int]  # file path, first byte, byte after the last


def cut_rule(split: str, *, lines: bool) -> re.Pattern[bytes]:
    """Where a file read with this split (and line by line or not) may be cut."""
    if pretokenizer(split).may_cut_at_spaces:
        return _SAFE_CUT
    if not lines:
        raise ValueError(
            f"the {split} split makes each whole file one piece, which cannot be counted in blocks; "
            "read it line by line (--lines) or train from the text"
        )
    return _LINE_END


def check_countable_specials(special_tokens: Iterable[str]) -> None:
    """A special token with a space or newline inside could be cut in two: refuse it."""
    for token in special_tokens:
        if " " in token or "\n" in token:
            raise ValueError(
                f"the special token {token!r} holds a space or newline, so a block cut could split "
                "it; count with special tokens without them"
            )


def next_cut(stream: BinaryIO, offset: int, rule: re.Pattern[bytes]) -> int:
    """The first place at or after byte ``offset`` where ``rule`` allows a cut (the file's end if none)."""
    if offset <= 0:
        return 0
    start = offset
    while True:
        base = max(0, start - _LOOKBEHIND)
        stream.seek(base)
        window = stream.read(_WINDOW)
        match = rule.search(window, start - base)
        if match:
            return base + match.start()
        if len(window) < _WINDOW:
            return base + len(window)
        # A cut in the last byte was judged without the byte after it: look at it again.
        start = base + len(window) - 1


def plan_blocks(paths: Iterable[str], config: Config, *, lines: bool, block_bytes: int) -> list[Block]:
    """Every file cut into blocks of about ``block_bytes`` where ``config``'s split (read line by line
    or not) allows a cut, in file order; a ValueError when this reading cannot be counted in blocks."""
    if type(block_bytes) is not int or block_bytes < 1:
        raise ValueError(f"the block size must be a whole number of bytes, at least 1, not {block_bytes!r}")
    check_countable_specials(config.special_tokens)
    rule = cut_rule(config.split, lines=lines)
    blocks = []
    for path in paths:
        size = os.path.getsize(path)
        with open(path, "rb") as stream:
            cuts = sorted(
                {0, size} | {next_cut(stream, offset, rule) for offset in range(block_bytes, size, block_bytes)}
            )
        blocks += [(path, start, end) for start, end in zip(cuts, cuts[1:])]
    return blocks


def count_block(block: Block, config: Config, *, lines: bool) -> tuple[Counter[str], int]:
    """The pieces of one block with their counts (in order of first appearance) and the special tokens cut out.

    A file's leading byte-order mark is not text and is dropped, as the command line does.
    """
    path, start, end = block
    with open(path, "rb") as stream:
        stream.seek(start)
        data = stream.read(end - start)
    if start == 0 and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        start = len(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text (byte {start + error.start}: {error.reason})") from None
    return count_corpus(file_lines(text) if lines else [text], config)


def add_up(counted: Iterable[tuple[Counter[str], int]]) -> tuple[Counter[str], int]:
    """Blocks' counts added up in the order given: a piece keeps its place of first appearance."""
    total: Counter[str] = Counter()
    specials_seen = 0
    for counts, specials in counted:
        total.update(counts)
        specials_seen += specials
    return total, specials_seen


def count_files(paths: list[str], config: Config, *, lines: bool, block_bytes: int) -> tuple[Counter[str], int]:
    """Count the files block by block in this process: the reference for counting them elsewhere."""
    blocks = plan_blocks(paths, config, lines=lines, block_bytes=block_bytes)
    return add_up(count_block(block, config, lines=lines) for block in blocks)
