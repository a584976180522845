"""The merges indexed for encoding (which pair of ids merges, at which rank, into which id),
and applied to the ids of one piece.

A published model has hundreds of thousands of merges, so every list here is made by one
C-level map over all of them rather than a Python loop (loading stays well under a second).

>>> vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}
>>> left_ids, right_ids, made, merged_ids = merge_ids([("a", "b"), ("ab", "c")], vocab)
>>> made, merged_ids
(['ab', 'abc'], [3, 4])
>>> table = rank_table(left_ids, right_ids, merged_ids)
>>> table[pair_key(3, 2)]  # (rank, merged id)
(1, 4)
>>> apply_merges([0, 1, 2, 0], table.get)  # a b c a -> abc a
[4, 0]
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Callable
from itertools import accumulate, compress, repeat
from typing import NamedTuple

SHIFT = 32  # a pair of ids as one int: left << SHIFT | right
RIGHT = (1 << SHIFT) - 1  # key & RIGHT is the right id


def pair_key(left_id: int, right_id: int) -> int:
    return left_id << SHIFT | right_id


def merge_ids(
    merges: list[tuple[str, str]], vocab: dict[str, int], joined: Callable[[str, str], str] = operator.add
) -> tuple[list[int], list[int], list[str], list[int]]:
    """``(left ids, right ids, merged tokens, merged ids)`` of every merge; ``joined(left, right)``
    spells the merged token.  A part missing from the vocabulary raises ValueError naming it."""
    lefts, rights = list(map(operator.itemgetter(0), merges)), list(map(operator.itemgetter(1), merges))
    made = list(map(joined, lefts, rights))
    lookup = vocab.__getitem__
    try:
        return list(map(lookup, lefts)), list(map(lookup, rights)), made, list(map(lookup, made))
    except KeyError:
        raise ValueError(_missing_part(merges, vocab, joined)) from None


def _missing_part(merges: list[tuple[str, str]], vocab: dict[str, int], joined: Callable[[str, str], str]) -> str:
    rank, left, right, part = next(
        (rank, left, right, part)
        for rank, (left, right) in enumerate(merges)
        for part in (left, right, joined(left, right))
        if part not in vocab
    )
    return f"merge {rank + 1} ({left!r} {right!r}) names {part!r}, which is not in the vocabulary"


class MergeTables(NamedTuple):
    """The merges as encoding and the pages read them."""

    ranks: dict[int, tuple[int, int]]  # pair key -> (rank, merged id): see rank_table
    created_at: dict[int, int]  # merged id -> rank of the first merge making it
    base_counts: dict[int, int]  # merged id -> how many base symbols it spans


def trained_merge_tables(
    merges: list[tuple[str, str]],
    vocab: dict[str, int],
    special_ids: dict[int, str],
    *,
    base_size: int | None,
    one_char_symbols: bool,
) -> MergeTables:
    """The merges indexed as our trainer makes them.  Merged tokens take new ids in the order they are made,
    after the base vocabulary: a merge result below the newest id re-makes a token that was there before (a
    special token, or a symbol spelled like a marker that also occurs in the text), and does not create it.
    Training knows where the base vocabulary ends (``base_size``); for a loaded file it is the last id that no
    merge makes (a base symbol that a merge also spells can then look made by it).  ``one_char_symbols``: each
    base symbol is one character of a token (no end-of-word marker, no byte fallback)."""
    left_ids, right_ids, made, merged_ids = merge_ids(merges, vocab)
    if base_size is None:
        results = set(merged_ids)
        newest = max((i for i in vocab.values() if i not in results and i not in special_ids), default=-1)
    else:
        newest = base_size - 1
    creates = list(map(operator.gt, merged_ids, accumulate(merged_ids, max, initial=newest)))
    created_at = dict(zip(compress(merged_ids, creates), compress(range(len(made)), creates)))
    if one_char_symbols:
        counts = dict(zip(compress(merged_ids, creates), map(len, compress(made, creates))))
    else:
        counts = {}
        for left_id, right_id, merged in compress(zip(left_ids, right_ids, merged_ids), creates):
            counts[merged] = counts.get(left_id, 1) + counts.get(right_id, 1)
    return MergeTables(rank_table(left_ids, right_ids, merged_ids), created_at, counts)


def rank_table(
    left_ids: list[int], right_ids: list[int], merged_ids: list[int], *, first_wins: bool = True
) -> dict[int, tuple[int, int]]:
    """Pair key -> ``(rank, merged id)``.  A pair listed twice keeps its first rank (our trainer's
    files), or its last one (``first_wins=False``: HF's table, filled in order)."""
    pairs = map(operator.or_, map(operator.lshift, left_ids, repeat(SHIFT)), right_ids)
    entries = list(zip(pairs, zip(range(len(merged_ids)), merged_ids)))
    return dict(reversed(entries) if first_wins else entries)


def apply_merges(
    ids: list[int], entry_of: Callable[[int], tuple[int, int] | None], fired: list[int] | None = None
) -> list[int]:
    """Merge lowest rank first, leftmost first among equal ranks (a heap over a linked list).

    ``entry_of(pair key)`` gives ``(rank, merged id)``, or None for a pair that does not merge
    (a rank table's ``get``).
    That is the same as applying the merge list in order, each merge everywhere
    left to right, as long as every merge only uses tokens made before it.
    ``fired``, when given, receives the rank of every merge made, in order.
    """
    size = len(ids)
    if size < 2:
        return ids
    sym = list(ids)
    nxt = list(range(1, size + 1))
    nxt[-1] = -1
    prv = list(range(-1, size - 1))
    heap = []
    for position in range(size - 1):
        entry = entry_of(sym[position] << SHIFT | sym[position + 1])
        if entry is not None:
            heap.append((entry[0], position))
    heapq.heapify(heap)
    while heap:
        rank, position = heapq.heappop(heap)
        after = nxt[position]
        if after < 0 or sym[position] < 0:
            continue
        entry = entry_of(sym[position] << SHIFT | sym[after])
        if entry is None or entry[0] != rank:
            continue  # this place changed since the entry was pushed
        merged = entry[1]
        if fired is not None:
            fired.append(rank)
        sym[position], sym[after] = merged, -1
        beyond = nxt[after]
        nxt[position] = beyond
        if beyond >= 0:
            prv[beyond] = position
            entry = entry_of(merged << SHIFT | sym[beyond])
            if entry is not None:
                heapq.heappush(heap, (entry[0], position))
        before = prv[position]
        if before >= 0:
            entry = entry_of(sym[before] << SHIFT | merged)
            if entry is not None:
                heapq.heappush(heap, (entry[0], before))
    return [s for s in sym if s >= 0]
