"""Textbook BPE that recounts every pair before every merge: slow, obviously right.

The tests use it as the oracle for the fast trainer; the benchmark times it.

>>> from bpe_core import Config
>>> naive_merges("banana_bandana_", Config(split="none"), 3)
[('a', 'n'), ('b', 'an'), ('an', 'a')]
"""

from __future__ import annotations

from collections import Counter

from bpe_core import Config, count_pieces
from bpe_core.config import piece_symbols


def merge_pair(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    """Replace ``pair`` left to right without overlap."""
    out, index = [], 0
    while index < len(symbols):
        if index + 1 < len(symbols) and symbols[index] == pair[0] and symbols[index + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            index += 2
        else:
            out.append(symbols[index])
            index += 1
    return out


def naive_merges(corpus, config: Config, merges: int) -> list[tuple[str, str]]:
    """Recount, take the first maximum (order of first occurrence), merge everywhere, repeat."""
    words = [(piece_symbols(piece, config), freq) for piece, freq in count_pieces(corpus, config).items()]
    learned: list[tuple[str, str]] = []
    for _ in range(merges):
        counts: Counter[tuple[str, str]] = Counter()
        for symbols, freq in words:
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += freq
        if not counts:
            break
        best = max(counts, key=counts.get)
        learned.append(best)
        words = [(merge_pair(symbols, best), freq) for symbols, freq in words]
    return learned
