"""The piece caches of every tokenizer in the process: each piece a tokenizer has encoded and its token ids, kept so
that the next text with the same words is cut at once, and at most a budget of bytes together (64 MB unless
:func:`set_budget` says otherwise: the app sets ``BPE_PIECE_CACHE_MB``).

An entry is counted as :mod:`bpe_core.footprint` counts a model's cache: the piece and the tuple of its ids (the ids
themselves are the model's own numbers), plus its slot in its cache's table and its place in the line below. The
entries of all caches stand in one line, oldest first; an entry beyond the budget pushes out the oldest ones,
whichever tokenizer they belong to. A cache never reorders its entries, so the oldest entry in the line is always
the first of its own cache. A dropped tokenizer's entries leave its cache at once but stay in the line, counted,
until their turn comes: what the line counts is never less than what the caches hold.

>>> budget = CacheBudget(3 * entry_bytes("ab", (1, 2)))
>>> cache = PieceCache(lambda piece: tuple(map(ord, piece)), budget)  # a tokenizer's method in its own use
>>> cache["ab"], cache["cd"], cache["ef"], list(cache)
((97, 98), (99, 100), (101, 102), ['ab', 'cd', 'ef'])
>>> cache["gh"], list(cache), budget.held_bytes == 3 * entry_bytes("ab", (1, 2))  # "ab" is pushed out
((103, 104), ['cd', 'ef', 'gh'], True)
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable

from .footprint import model_bytes

MB = 2**20
DEFAULT_BUDGET_MB = 64
# An entry's share of its cache's table (CPython's dict: 24 bytes an entry, its index and the room kept free, at
# most 72 bytes an entry just after it grows) and of the line (a deque's pointer, a tuple of two, its size)
_SLOT_BYTES = 72 + 8 + sys.getsizeof((None, None)) + sys.getsizeof(2**20)


def entry_bytes(piece: str, ids: tuple[int, ...]) -> int:
    """What one entry holds, in bytes, as :mod:`bpe_core.footprint` counts it, with its slots.

    >>> entry_bytes("newest", (7,)) == sys.getsizeof("newest") + sys.getsizeof((7,)) + _SLOT_BYTES
    True
    """
    return model_bytes(piece) + sys.getsizeof(ids) + _SLOT_BYTES


class CacheBudget:
    """The line of the entries of all caches that share ``budget_bytes``, oldest first. Thread-safe: the sessions
    of a server encode with the same tokenizers at once."""

    def __init__(self, budget_bytes: int):
        self.budget_bytes = budget_bytes
        self.held_bytes = 0
        self._line: deque[tuple[weakref.ref, int]] = deque()  # (an entry's cache, its bytes), oldest first
        self._lock = threading.Lock()

    def keep(self, cache: PieceCache, piece: str, ids: tuple[int, ...]) -> None:
        """Put ``piece`` in ``cache`` (unless another thread just did), then push out the oldest entries of every
        cache while they hold more than the budget (this one too, if it alone is bigger)."""
        size = entry_bytes(piece, ids)
        with self._lock:
            if piece in cache or size > self.budget_bytes:  # kept already, or it would push out all the others
                return
            dict.__setitem__(cache, piece, ids)
            self._line.append((cache.own_reference, size))
            self.held_bytes += size
            while self.held_bytes > self.budget_bytes:
                reference, oldest_size = self._line.popleft()
                self.held_bytes -= oldest_size
                owner = reference()
                if owner is not None:  # else its tokenizer was dropped, and the entry with it
                    del owner[next(iter(owner))]


_BUDGET = CacheBudget(DEFAULT_BUDGET_MB * MB)


def set_budget(megabytes: int) -> None:
    """Give the piece caches of this process ``megabytes`` together from now on (the entries beyond it are pushed
    out as the next piece comes).

    >>> set_budget(32); process_budget().budget_bytes == 32 * MB
    True
    >>> set_budget(DEFAULT_BUDGET_MB)
    """
    with _BUDGET._lock:
        _BUDGET.budget_bytes = megabytes * MB


def process_budget() -> CacheBudget:
    """The budget every tokenizer's piece cache shares unless it was given another."""
    return _BUDGET


class PieceCache(dict):
    """piece -> its token ids, computed on the first lookup and kept within ``budget`` (the process's, by default).

    It holds its tokenizer's method weakly: a strong reference would make a cycle, and a tokenizer
    dropped by a page (a prefix, say) would wait for the cycle collector. It holds its budget weakly too: the budget
    is the process's, and :mod:`bpe_core.footprint` counts no weak reference as the model's."""

    def __init__(self, compute: Callable[[str], tuple[int, ...]], budget: CacheBudget | None = None):
        super().__init__()
        self._compute = weakref.WeakMethod(compute) if hasattr(compute, "__self__") else lambda: compute
        self._budget = weakref.ref(budget or _BUDGET)
        self.own_reference = weakref.ref(self)  # what the budget's line holds of this cache

    def __missing__(self, piece: str) -> tuple[int, ...]:
        compute, budget = self._compute(), self._budget()
        if compute is None or budget is None:  # a cache is only reached through its tokenizer
            raise ReferenceError("the tokenizer or the budget of this piece cache is gone")
        ids = compute(piece)
        budget.keep(self, piece, ids)
        return ids
