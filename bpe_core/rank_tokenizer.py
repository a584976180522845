"""A tokenizer that encodes as soon as its rank table is read (GPT-4's and GPT-4o's).

A rank file (tiktoken's ``cl100k_base.tiktoken``) gives every token's bytes a rank, which is
also its id.  tiktoken encodes a piece with two rules: a piece that is a token is that token;
otherwise its bytes are joined, again and again, at the adjacent pair whose joined bytes are
the lowest-ranked token.  Both rules need nothing but the table, so this tokenizer encodes
right after reading it.  The rest of what a tokenizer offers (vocabulary, merges, trees,
spans, decoding) needs the full model with 100,000 merges spelled out, several times the
work of reading the table: a :class:`Tokenizer` built on the first use of any of it, once,
which this one holds and hands every such question to.

>>> from bpe_core.bytelevel import bytes_to_display
>>> ranks = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256, b"abb": 257}
>>> def spelled_out():  # the rest of what a Tokenizer is made of
...     print("spelling the merges out")
...     vocab = {bytes_to_display(token): rank for token, rank in ranks.items()}
...     return {"vocab": vocab, "merges": [("a", "b"), ("ab", "b")]}
>>> tok = RankTokenizer(ranks, config=Config(split="none", units="bytes"), name="tiny", full_model=spelled_out)
>>> tok.encode("abbab")  # "abb" (rank 257) and "ab" (256), by rank alone
[257, 256]
>>> tok.merges
spelling the merges out
[('a', 'b'), ('ab', 'b')]
>>> tok.tokenize("abbab")  # built once
['abb', 'ab']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, Generic, TypeVar, overload

from .config import Config
from .explain import TreeNode
from .gc_pause import collector_paused
from .merge_index import RIGHT, SHIFT, apply_merges
from .piece_cache import PieceCache
from .pretokenize import encode_text
from .spans import Token
from .streaming import encode_stream
from .tokenizer import PlainPipeline, Tokenizer
from .trace import Step
from .units import Units

Value = TypeVar("Value")
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


class _FullModels(Generic[Value]):
    """An attribute of a ``RankTokenizer`` that its full model answers (spelled out on first use), of the type the
    full model's is."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, tok: None, owner: type) -> _FullModels[Value]: ...

    @overload
    def __get__(self, tok: RankTokenizer, owner: type) -> Value: ...

    def __get__(self, tok: RankTokenizer | None, owner: type) -> Value | _FullModels[Value]:
        return self if tok is None else getattr(tok.full, self._name)


class RankTokenizer(PlainPipeline):
    """``ranks``: ``{token bytes: id}`` with all 256 single bytes.  ``full_model()`` returns the
    keyword arguments of :class:`Tokenizer` for the same model (vocabulary and merges spelled out).

    It answers every question a :class:`Tokenizer` answers: encoding from the ranks, everything else
    from :attr:`full`."""

    def __init__(self, ranks: dict[bytes, int], *, config: Config, name: str, full_model: Callable[[], dict[str, Any]]):
        self.config = config
        self.name = name
        self._token_ranks = ranks
        self._byte_ids = [ranks[bytes([byte])] for byte in range(256)]
        self._full_model = full_model
        self._full: Tokenizer | None = None
        self._start_caches()

    def _start_caches(self) -> None:
        self._building = threading.Lock()  # one thread spells the model out; the others wait for it
        self._joins = _JoinedRanks(self._token_ranks)
        self._cache = PieceCache(self._merged_piece)

    # A copy (or a pickled one) starts with empty caches and its own lock; a model already spelled out is shared.
    def __getstate__(self) -> dict:
        return {name: value for name, value in vars(self).items() if name not in ("_building", "_joins", "_cache")}

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state)
        self._start_caches()

    @property
    def full(self) -> Tokenizer:
        """The full model, spelled out on the first call by one thread while the others wait.  A model that
        cannot be spelled out raises at every call, saying why."""
        full = self._full
        if full is None:
            with self._building:
                if self._full is None:
                    with collector_paused():
                        self._full = Tokenizer(config=self.config, name=self.name, **self._full_model())
                    self._joins.clear()  # the merge table answers from now on
                full = self._full
        return full

    # -- encoding: the ranks alone until the full model is there -------------------

    def encode(self, text: str, *, special: bool = True) -> list[int]:
        """Token ids for ``text``, as :meth:`Tokenizer.encode` (a special token's id is the full model's)."""
        return encode_text(
            text,
            split=self.config.split,
            specials=self.config.special_tokens if special else (),
            special_id=self._special_id,
            piece_ids=self._cache.__getitem__,
        )

    def _special_id(self, token: str) -> int:
        return self.full.vocab[token]

    def encode_iterable(self, texts: Iterable[str], *, special: bool = True) -> Iterator[int]:
        """The ids of the texts joined together, as :meth:`Tokenizer.encode_iterable`."""
        return encode_stream(
            texts,
            encode=partial(self.encode, special=special),
            split=self.config.split,
            specials=self.config.special_tokens if special else (),
        )

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
        # (read without spelling anything out).
        entry_of = self._joins.__getitem__ if self._full is None else self._full._ranks.get
        return tuple(apply_merges(list(map(self._byte_ids.__getitem__, data)), entry_of))

    # -- the rest is the full model's ------------------------------------------------

    vocab = _FullModels[dict[str, int]]()
    merges = _FullModels[list[tuple[str, str]]]()
    id_to_token = _FullModels[dict[int, str]]()
    special_ids = _FullModels[dict[int, str]]()
    created_at = _FullModels[dict[int, int]]()
    base_size = _FullModels[int | None]()
    corpus_tokens = _FullModels[int | None]()
    stop_reason = _FullModels[str]()
    stop_message = _FullModels[str]()
    warnings = _FullModels[list[str]]()
    steps = _FullModels[list[Step]]()
    has_counts = _FullModels[bool]()
    units = _FullModels[Units]()
    vocab_size = _FullModels[int]()

    def __len__(self) -> int:
        return len(self.full)

    @property
    def byte_level(self) -> bool:
        return self.config.byte_level

    def token(self, token_id: int) -> str:
        return self.full.token(token_id)

    def base_ids(self) -> list[int]:
        return self.full.base_ids()

    def base_tokens(self) -> list[str]:
        return self.full.base_tokens()

    def tokenize(self, text: str, *, special: bool = True) -> list[str]:
        return list(map(self.full.id_to_token.__getitem__, self.encode(text, special=special)))

    def encode_with_spans(self, text: str, *, special: bool = True) -> list[Token]:
        return self.full.encode_with_spans(text, special=special)

    def token_bytes(self, token_id: int) -> bytes:
        return self.full.token_bytes(token_id)

    def decode(self, ids: list[int], *, skip_special: bool = False) -> str:
        return self.full.decode(ids, skip_special=skip_special)

    def merge_tree(self, token: str) -> TreeNode:
        return self.full.merge_tree(token)

    def merge_ranks(self, piece: str) -> list[int]:
        return self.full.merge_ranks(piece)

    def explain(self, piece: str) -> list[tuple[int | None, list[str]]]:
        return self.full.explain(piece)

    def prefix(self, merges: int) -> Tokenizer:
        return self.full.prefix(merges)


# What a published model is: a Tokenizer, or a RankTokenizer answering the same questions.
AnyTokenizer = Tokenizer | RankTokenizer
