"""A tokenizer that encodes as soon as its rank table is read (GPT-4's and GPT-4o's).

A rank file (tiktoken's ``cl100k_base.tiktoken``) gives every token's bytes a rank, which is
also its id.  tiktoken encodes a piece with two rules: a piece that is a token is that token;
otherwise its bytes are joined, again and again, at the adjacent pair whose joined bytes are
the lowest-ranked token.  Both rules need nothing but the table, so this tokenizer encodes
right after reading it.  The rest of what a tokenizer offers (vocabulary, merges, trees,
spans, decoding) needs the full model with 100,000 merges spelled out, several times the
work of reading the table: it is built on the first use of any of it, once.

>>> from bpe_core.bytelevel import bytes_to_display
>>> ranks = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256, b"abb": 257}
>>> def spelled_out():  # the rest of what a Tokenizer is made of
...     vocab = {bytes_to_display(token): rank for token, rank in ranks.items()}
...     return {"vocab": vocab, "merges": [("a", "b"), ("ab", "b")]}
>>> tok = RankTokenizer(ranks, config=Config(split="none", units="bytes"), name="tiny", full_model=spelled_out)
>>> tok.encode("abbab")  # "abb" (rank 257) and "ab" (256); the merges are not spelled out yet
[257, 256]
>>> "merges" in vars(tok), tok.merges, "merges" in vars(tok)
(False, [('a', 'b'), ('ab', 'b')], True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .config import Config
from .gc_pause import collector_paused
from .merge_index import RIGHT, SHIFT, apply_merges
from .tokenizer import Tokenizer

_BUILDING = threading.RLock()  # one thread spells a model out; the others wait for it
_PAIRS_KEPT = 200_000  # pairs of tokens remembered by one tokenizer (some tens of MB at most)


class _JoinedRanks(dict):
    """tiktoken's joining rule as a merge table for :func:`apply_merges`: two tokens join when
    their bytes together are a token, at that token's rank, into that token.  Each pair is
    worked out on first sight and then read at C speed; the memory is bounded like a cache."""

    def __init__(self, ranks: dict[bytes, int]):
        super().__init__()
        self._token_ranks = ranks
        self._bytes = dict(zip(ranks.values(), ranks))  # id -> bytes

    def __missing__(self, key: int) -> tuple[int, int] | None:
        if len(self) >= _PAIRS_KEPT:
            self.clear()
        joined = self._token_ranks.get(self._bytes[key >> SHIFT] + self._bytes[key & RIGHT])
        entry = self[key] = None if joined is None else (joined, joined)
        return entry


class RankTokenizer(Tokenizer):
    """``ranks``: ``{token bytes: id}`` with all 256 single bytes.  ``full_model()`` returns the
    keyword arguments of :class:`Tokenizer` for the same model (vocabulary and merges spelled out)."""

    def __init__(self, ranks: dict[bytes, int], *, config: Config, name: str, full_model: Callable[[], dict[str, Any]]):
        self.config = config
        self.name = name
        self._token_ranks = ranks
        self._byte_ids = [ranks[bytes([byte])] for byte in range(256)]
        self._joins = _JoinedRanks(ranks)
        self._full_model = full_model

    def __getattr__(self, name: str):
        # Reached only for an attribute not set yet: spell the full model out, then look again.
        # Python's and notebooks' probes for optional hooks (__deepcopy__, _repr_html_) build nothing.
        if name.startswith(("__", "_repr_", "_ipython_")):
            raise AttributeError(name)
        with _BUILDING:
            full_model = self.__dict__.pop("_full_model", None)
            if full_model is not None:
                try:
                    with collector_paused():
                        full = Tokenizer(config=self.config, name=self.name, **full_model())
                except BaseException:
                    self._full_model = full_model  # the next use tries again and says again why it fails
                    raise
                # Every attribute at once (a reader waits on the lock until they are there); the encoders
                # are built on first use, and the piece cache kept: joining by rank gave the same tokens.
                self.__dict__.update(full.__getstate__())  # its data without encoders
                self._joins.clear()  # the merge table answers from now on
        return object.__getattribute__(self, name)

    def vocabulary_bytes(self) -> list[tuple[bytes, int]]:
        """Every token but the special ones as (its bytes, its id): the ranks themselves, read without spelling the
        merges out."""
        return list(self._token_ranks.items())

    def _merged_piece(self, piece: str) -> tuple[int, ...]:
        """tiktoken's two rules (see the module's docstring).  Applying the merges recovered from the
        ranks gives the same tokens: when two parts are about to join, what happened inside them is
        what joining by rank does on their bytes alone, which ends with the recovered cut."""
        data = piece.encode("utf-8")
        whole = self._token_ranks.get(data)
        if whole is not None:
            return (whole,)
        # Once the merges are spelled out their table answers at C speed; until then the rule does
        # (read from __dict__: asking for the attribute would spell the merges out).
        merge_table = self.__dict__.get("_ranks")
        entry_of = self._joins.__getitem__ if merge_table is None else merge_table.get
        return tuple(apply_merges(list(map(self._byte_ids.__getitem__, data)), entry_of))
