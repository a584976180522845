"""The merges indexed for encoding: which pair of ids merges, at which rank, into which id.

A published model has hundreds of thousands of merges, so every list here is made by one
C-level map over all of them rather than a Python loop (loading stays well under a second).

>>> vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}
>>> left_ids, right_ids, made, merged_ids = merge_ids([("a", "b"), ("ab", "c")], vocab)
>>> made, merged_ids
(['ab', 'abc'], [3, 4])
>>> rank_table(left_ids, right_ids, merged_ids)[pair_key(3, 2)]  # (rank, merged id)
(1, 4)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import repeat

SHIFT = 32  # a pair of ids as one int: left << SHIFT | right


def pair_key(left_id: int, right_id: int) -> int:
    return left_id << SHIFT | right_id


def merge_ids(merges: list[tuple[str, str]], vocab: dict[str, int],
              joined: Callable[[str, str], str] = operator.add) -> tuple[list[int], list[int], list[str], list[int]]:
    """``(left ids, right ids, merged tokens, merged ids)`` of every merge; ``joined(left, right)``
    spells the merged token.  A part missing from the vocabulary raises KeyError."""
    lefts, rights = list(map(operator.itemgetter(0), merges)), list(map(operator.itemgetter(1), merges))
    made = list(map(joined, lefts, rights))
    lookup = vocab.__getitem__
    return list(map(lookup, lefts)), list(map(lookup, rights)), made, list(map(lookup, made))


def rank_table(left_ids: list[int], right_ids: list[int], merged_ids: list[int], *,
               first_wins: bool = True) -> dict[int, tuple[int, int]]:
    """Pair key -> ``(rank, merged id)``.  A pair listed twice keeps its first rank (our trainer's
    files), or its last one (``first_wins=False``: HF's table, filled in order)."""
    pairs = map(operator.or_, map(operator.lshift, left_ids, repeat(SHIFT)), right_ids)
    entries = list(zip(pairs, zip(range(len(merged_ids)), merged_ids)))
    return dict(reversed(entries) if first_wins else entries)
