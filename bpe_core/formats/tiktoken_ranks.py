"""tiktoken's rank files (``cl100k_base.tiktoken``): a merge list in disguise.

A rank file lists every token's bytes (base64) with its rank, and no merges: tiktoken
encodes by joining, again and again, the adjacent pair whose joined bytes rank lowest.
The merges come back from the ranks alone: a token of rank r is made by the last join
that this procedure makes when it encodes the token's own bytes with ranks below r.
Recovering them takes seconds in Python, so the result ships beside each rank file as
"cuts": one byte per merge, where the token splits into the pair that makes it.

>>> ranks = read_ranks("YQ== 0\\nYg== 1\\nYWI= 2\\nYWJi 3\\n")  # a, b, ab, abb
>>> merges_from_ranks(ranks)
[(b'a', b'b'), (b'ab', b'b')]
>>> cuts_of(merges_from_ranks(ranks))  # "ab" = "a" + "b", "abb" = "ab" + "b"
b'\\x01\\x02'
"""

from __future__ import annotations

import binascii
import functools
from itertools import accumulate

from ..bytelevel import bytes_to_display
from ..config import Config
from ..rank_tokenizer import RankTokenizer


def read_ranks(text: str) -> dict[bytes, int]:
    """``{token bytes: rank}`` from the text of a rank file; a ValueError names a bad line."""
    fields = text.split()  # base64, rank, base64, rank, ...: each column decoded by one C-level map
    try:
        if len(fields) != 2 * len(text.splitlines()):
            raise ValueError("not two fields a line")
        return dict(
            zip(map(functools.partial(binascii.a2b_base64, strict_mode=True), fields[0::2]), map(int, fields[1::2]))
        )
    except (ValueError, binascii.Error):
        for number, line in enumerate(text.splitlines(), start=1):  # find the line to name
            parts = line.split()
            if len(parts) != 2 or not parts[1].isdigit() or not _is_base64(parts[0]):
                raise ValueError(f"line {number} of the rank file is not 'base64 rank': {line[:60]!r}") from None
        raise


def _is_base64(text: str) -> bool:
    try:
        binascii.a2b_base64(text, strict_mode=True)
    except binascii.Error:
        return False
    return True


def merges_from_ranks(ranks: dict[bytes, int]) -> list[tuple[bytes, bytes]]:
    """The merge that makes each token of two or more bytes, in rank order."""
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = _join_below(token, ranks, rank)
        if len(parts) != 2:
            raise ValueError(f"token {token!r} (rank {rank}) is not made by joining two tokens of lower rank")
        merges.append((parts[0], parts[1]))
    return merges


def cuts_of(merges: list[tuple[bytes, bytes]]) -> bytes:
    """Each merge as the length of its left part (the data shipped beside a rank file)."""
    return bytes(len(left) for left, _ in merges)


def _join_below(token: bytes, ranks: dict[bytes, int], limit: int) -> list[bytes]:
    """tiktoken's procedure on the token's own bytes, with only the ranks below ``limit``."""
    parts = [token[index : index + 1] for index in range(len(token))]
    while len(parts) > 1:
        best_rank, best = limit, -1
        for index in range(len(parts) - 1):
            rank = ranks.get(parts[index] + parts[index + 1], limit)
            if rank < best_rank:
                best_rank, best = rank, index
        if best < 0:
            break
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    return parts


def from_ranks(
    text: str, *, split: str, special_tokens: dict[str, int], name: str, cuts: bytes | None = None
) -> RankTokenizer:
    """A byte-level tokenizer from a rank file: ids the ranks, special tokens at their own ids.
    It encodes at once; its tokens (spelled with GPT-2's byte characters) and its merges
    (recovered, or read from ``cuts``) are spelled out on first use.  ``cuts`` must be the ones
    recovered from these ranks (the shipped ones are, which a test checks): encoding joins by
    rank until the merges are spelled out, and applies them after."""
    ranks = read_ranks(text)
    if cuts is None:
        cuts = cuts_of(merges_from_ranks(ranks))
    longer = sum(len(token) > 1 for token in ranks)
    if longer != len(cuts):
        raise ValueError(f"the cuts hold {len(cuts)} merges for {longer} tokens of two or more bytes")
    config = Config(split=split, units="bytes", special_tokens=tuple(special_tokens))
    return RankTokenizer(
        ranks, config=config, name=name, full_model=functools.partial(_spelled_out, ranks, special_tokens, name, cuts)
    )


def _spelled_out(ranks: dict[bytes, int], special_tokens: dict[str, int], name: str, cuts: bytes) -> dict:
    """The vocabulary and merges of a rank file, for :class:`Tokenizer`."""
    tokens = sorted(ranks, key=ranks.__getitem__)
    # One character per byte: spell all tokens at once, then cut the spelling at each token's end.
    spelled = bytes_to_display(b"".join(tokens))
    ends = list(accumulate(map(len, tokens)))
    shown = list(map(spelled.__getitem__, map(slice, [0, *ends], ends)))
    vocab = dict(zip(shown, map(ranks.__getitem__, tokens)))
    vocab.update(special_tokens)
    longer = [display for display in shown if len(display) > 1]
    outside = next((display for display, cut in zip(longer, cuts) if not 0 < cut < len(display)), None)
    if outside is not None:
        raise ValueError(f"the cuts of {name} do not cut the token {outside!r} into two parts")
    merges = [(display[:cut], display[cut:]) for display, cut in zip(longer, cuts)]
    return {
        "vocab": vocab,
        "merges": merges,
        "base_size": len(tokens) - len(longer),
        "stop_message": f"{name}'s published ranks (merges recovered from them; no training counts)",
    }
