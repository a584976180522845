"""The piece caches of all tokenizers share one budget in bytes (bpe_core/piece_cache.py): entries counted by hand
from CPython's sizes, the oldest pushed out first whichever tokenizer holds them, a tokenizer's ids unchanged by
what its cache forgot (tiktoken's), and a model's footprint free of the budget's line."""

from __future__ import annotations

import copy
import gc
import sys
from pathlib import Path

from bpe_core import Config, train
from bpe_core.footprint import model_bytes
from bpe_core.piece_cache import CacheBudget, PieceCache, entry_bytes, process_budget, set_budget
from bpe_core.pretrained import load_pretrained

# CPython 3.11 (the Dockerfile's) on 64 bits: an ASCII str of n letters takes 49 + n bytes, a tuple of k items
# 40 + 8k, a tuple of two 56, an int below 2**30 28; a cache's table at most 72 bytes an entry, the line's deque 8.
SLOT = 72 + 8 + 56 + 28
ENTRY = (49 + 2) + (40 + 2 * 8) + SLOT  # a two-letter piece and its two ids: 271 bytes


SAMPLE = (Path(__file__).parents[2] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")[:200_000]


def letter_ids(piece: str) -> tuple[int, ...]:
    """A tokenizer without merges, in a test's hands: one id a letter."""
    return tuple(map(ord, piece))


def test_an_entry_is_counted_as_cpython_sizes_it():
    assert sys.version_info[:2] == (3, 11) and sys.maxsize == 2**63 - 1  # the sizes above are this Python's
    assert entry_bytes("ab", (97, 98)) == ENTRY == 271
    assert entry_bytes("a", (97,)) == 0 + (40 + 8) + SLOT  # one letter of Latin-1: Python's own, shared


def test_the_oldest_entries_of_every_cache_go_first_within_the_budget():
    budget = CacheBudget(3 * ENTRY)
    first, second = PieceCache(letter_ids, budget), PieceCache(letter_ids, budget)
    assert first["ab"] == (97, 98) and second["cd"] == (99, 100) and first["ef"] == (101, 102)
    assert budget.held_bytes == 3 * ENTRY
    assert second["gh"] == (103, 104)  # a fourth: the oldest, first's "ab", goes
    assert (list(first), list(second), budget.held_bytes) == (["ef"], ["cd", "gh"], 3 * ENTRY)
    assert first["ab"] == (97, 98)  # computed again: second's "cd" goes
    assert (list(first), list(second)) == (["ef", "ab"], ["gh"])


def test_a_piece_bigger_than_the_budget_is_not_kept_and_pushes_nothing_out():
    budget = CacheBudget(2 * ENTRY)
    cache = PieceCache(letter_ids, budget)
    cache["ab"]
    assert cache["a" * 200] == (97,) * 200 and list(cache) == ["ab"] and budget.held_bytes == ENTRY


def test_a_dropped_cache_is_counted_until_its_turn_then_gives_its_room_back():
    budget = CacheBudget(2 * ENTRY)
    dropped = PieceCache(letter_ids, budget)
    dropped["ab"], dropped["cd"]
    del dropped
    gc.collect()
    kept = PieceCache(letter_ids, budget)
    kept["ef"]  # the dropped cache's "ab" had its turn
    assert budget.held_bytes == 2 * ENTRY and list(kept) == ["ef"]
    kept["gh"]
    assert budget.held_bytes == 2 * ENTRY and list(kept) == ["ef", "gh"]


def test_a_small_budget_changes_no_id_and_holds_the_caches_of_the_process_to_it(tiktoken_module):
    gpt2 = copy.copy(load_pretrained("gpt2"))  # its cache of its own, empty
    set_budget(1)  # MB: some 4,000 of the sample's pieces, fewer than it has
    try:
        ids = gpt2.encode(SAMPLE)
        assert 0 < process_budget().held_bytes <= 2**20 and len(gpt2._cache) < len(set(SAMPLE.split()))
    finally:
        set_budget(64)
    assert ids == tiktoken_module.get_encoding("gpt2").encode_ordinary(SAMPLE)


def test_a_model_s_footprint_counts_its_own_entries_never_the_budget_s_line():
    model = train("low lower lowest newer newest widest", Config(), merges=8)
    other = train("banana bandana", Config(), merges=3)
    model.encode("lowest newer")
    before = model_bytes(model)
    other.encode(" ".join(f"word{number}" for number in range(500)))  # 500 entries more in the line: 82 KB
    assert abs(model_bytes(model) - before) < 100  # (a few bytes move with what the process shares, as before)
