"""The tokenizer: encode, decode, explain, and cut to a prefix.

>>> from bpe_core import Config, train
>>> tok = train("low lower newest widest low low low low newest newest newest newest",
...             Config(end_of_word="_", min_frequency=2), vocab_size=50)
>>> [tok.token(i) for i in tok.encode("lowest")]
['low', 'est_']
>>> tok.decode(tok.encode("lowest low"))
'lowest low'
>>> tok.prefix(2).tokenize("lowest")
['low', 'e', 's', 't', '_']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import cast

from .config import UNK_TOKEN, Config
from .explain import TreeNode, merge_tree, replay
from .merge_index import MergeTables, apply_merges, trained_merge_tables
from .piece_cache import PieceCache
from .pretokenize import check_encodable, encode_text, special_segments, split_spans
from .spans import Token, piece_tokens
from .streaming import encode_stream
from .trace import STOP_PREFIX, Step, steps_without_counts
from .units import BaseEncoder, Units, units_for


class OnFirstUse:
    """An attribute built on first use and kept: ``functools.cached_property`` without Python 3.11's lock, one
    for all instances, which would keep every tokenizer waiting while one spells GPT-4's model out."""

    def __init__(self, build: Callable):
        self.build, self.name = build, build.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.build(instance)  # found in the instance from now on
        return value


class UnknownIdError(ValueError):
    """An id that is not in the vocabulary was given to ``decode``."""

    def __init__(self, token_id, vocab_size: int):
        self.token_id = token_id
        super().__init__(
            f"id {token_id} is not in the vocabulary (ids run from 0 to {vocab_size - 1} with gaps allowed)"
        )


class PlainPipeline:
    """What a model answers about a tokenizer.json's own parts when it runs none of them, only its ``Config``'s
    cutting and its merges (a ``Tokenizer`` trained or read from other files, a ``RankTokenizer``); a
    ``PipelineTokenizer`` runs them and answers otherwise."""

    # Whether it runs a tokenizer.json's own parts (normalizer, pre-tokenizer, decoder) rather than what its
    # Config says: pages show those parts, only a tokenizer.json holds it, and it decodes as HF's does.
    runs_pipeline = False

    def shown_text(self, text: str, *, special: bool = True) -> str:
        """The text as the model sees it, which the spans of ``encode_with_spans`` point into: ``text`` itself, for
        a model that rewrites nothing before cutting it.

        >>> PlainPipeline().shown_text("Héllo")
        'Héllo'
        """
        return text

    def ignores_merges(self, piece: str) -> bool:
        """Whether the model takes ``piece`` whole because it is a token (HF's ``ignore_merges``): never here."""
        return False

    def with_model_specials(self, ids: list[int]) -> list[int]:
        """``ids`` with the model's own special tokens added (HF's ``add_special_tokens``): none here."""
        return list(ids)


class Tokenizer(PlainPipeline):
    """A BPE model: configuration, vocabulary (token -> id), merges in rank order, and the trace.

    ``base_size``: how many ids (special tokens and base symbols) come before the merged tokens,
    when known (training knows it); it tells a base symbol from a merge that spells it again.
    ``corpus_tokens``: how many tokens the training corpus is cut into (training knows it too,
    so nobody needs to encode the corpus again to measure compression).
    """

    def __init__(
        self,
        *,
        config: Config,
        vocab: dict[str, int],
        merges: list[tuple[str, str]],
        steps: list[Step] | None = None,
        stop_reason: str = "",
        stop_message: str = "",
        name: str = "",
        warnings: list[str] | None = None,
        base_size: int | None = None,
        corpus_tokens: int | None = None,
        special_ids: dict[int, str] | None = None,
        merge_tables: MergeTables | None = None,
    ):
        # A model read by other rules (a tokenizer.json's) brings its ``special_ids`` (an id outside ``vocab``
        # may name one) and its ``merge_tables``; by default they are made as training makes them.
        self.config = config
        self.vocab = dict(vocab)
        # tuple() of a pair that is a tuple already is that tuple: three times faster than unpacking each pair
        self.merges = cast(list[tuple[str, str]], [tuple(pair) for pair in merges])
        self.stop_reason = stop_reason
        self.stop_message = stop_message
        self.name = name
        self.warnings = list(warnings or [])  # what the user should know about these settings
        self.id_to_token = {index: token for token, index in self.vocab.items()}
        if len(self.id_to_token) != len(self.vocab):
            owner: dict[int, str] = {}
            for token, index in self.vocab.items():
                if index in owner:
                    raise ValueError(f"vocab: {owner[index]!r} and {token!r} share the id {index}")
                owner[index] = token
        missing = [s for s in config.all_special_tokens if s not in self.vocab]
        if missing:
            raise ValueError(f"special token(s) missing from the vocabulary: {', '.join(missing)}")
        if special_ids is None:
            special_ids = {self.vocab[s]: s for s in config.all_special_tokens}
        self.special_ids = dict(special_ids)
        for token_id, token in self.special_ids.items():
            self.id_to_token.setdefault(token_id, token)
        self.base_size = base_size
        self.corpus_tokens = corpus_tokens
        if merge_tables is None:
            plain = config.byte_level or not (config.end_of_word or config.unknown == "byte_fallback")
            merge_tables = trained_merge_tables(
                self.merges, self.vocab, self.special_ids, base_size=base_size, one_char_symbols=plain
            )
        self._ranks, self.created_at, self._base_counts = merge_tables
        self._steps = steps  # None: known only from the merges, spelled out on first read

    # Encoders, built on first use from the model's data (a subclass's from its own); a copy leaves them out.

    @OnFirstUse
    def units(self) -> Units:
        return units_for(self.config)

    @OnFirstUse
    def _base_encoder(self) -> BaseEncoder:  # a piece's base-symbol ids and the input bytes behind each
        return self.units.base_encoder(self.vocab, self.special_ids)

    @OnFirstUse
    def _base_ids(self) -> Callable[[str], list[int]]:  # the ids alone: the hot path
        return self.units.ids_encoder(self.vocab, self.special_ids)

    @OnFirstUse
    def _cache(self) -> PieceCache:
        return PieceCache(self._merged_piece)

    def __getstate__(self) -> dict:
        built = type(self)
        return {
            name: value for name, value in vars(self).items() if not isinstance(getattr(built, name, 0), OnFirstUse)
        }

    # -- facts ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def byte_level(self) -> bool:
        """Whether its base symbols are the 256 bytes (written as GPT-2's stand-ins: ``Ġ`` a space)."""
        return self.config.byte_level

    @property
    def steps(self) -> list[Step]:
        """The trace: one :class:`Step` per merge (without counts for a published or loaded model)."""
        if self._steps is None:
            self._steps = steps_without_counts(self.merges, self.vocab)
        return self._steps

    @steps.setter
    def steps(self, steps: list[Step]) -> None:
        self._steps = steps

    @property
    def has_counts(self) -> bool:
        return self._steps is not None and any(step.count is not None for step in self._steps)

    def token(self, token_id: int) -> str:
        return self.id_to_token[token_id]

    def base_ids(self) -> list[int]:
        """Ids of the tokens no merge creates and that are not special, in order."""
        return [i for i in sorted(self.id_to_token) if i not in self.created_at and i not in self.special_ids]

    def base_tokens(self) -> list[str]:
        """The base tokens themselves (see :meth:`base_ids`)."""
        return [self.id_to_token[i] for i in self.base_ids()]

    # -- encoding ------------------------------------------------------------------

    def _apply_merges(self, ids: list[int], fired: list[int] | None = None) -> list[int]:
        """The ids of one piece after its merges (see :func:`bpe_core.merge_index.apply_merges`)."""
        return apply_merges(ids, self._ranks.get, fired)

    def _merged_piece(self, piece: str) -> tuple[int, ...]:
        return tuple(self._apply_merges(self._base_ids(piece)))

    def _segments(self, text: str, special: bool = True) -> list[tuple[int, int, bool]]:
        """``(start, end, is_special)`` cuts of a text known to be valid UTF-8 (no special token
        matched unless ``special``)."""
        check_encodable(text)
        return special_segments(text, self.config.special_tokens if special else ())

    def encode(self, text: str, *, special: bool = True) -> list[int]:
        """Token ids for ``text``.  A special token's text is that special token, unless ``special``
        is False: then it is encoded as ordinary text.

        >>> from bpe_core import load_gpt2
        >>> load_gpt2().encode("Hello, ByteLevel BPE!")
        [15496, 11, 30589, 4971, 347, 11401, 0]
        """
        return encode_text(
            text,
            split=self.config.split,
            specials=self.config.special_tokens if special else (),
            special_id=self.vocab.__getitem__,
            piece_ids=self._cache.__getitem__,
        )

    def encode_iterable(self, texts: Iterable[str], *, special: bool = True) -> Iterator[int]:
        r"""The ids of the texts joined together (the lines of a file, say), yielded as soon as they
        are certain, so that memory does not grow with the input (see :mod:`bpe_core.streaming`).

        >>> from bpe_core import load_gpt2
        >>> gpt2 = load_gpt2()
        >>> parts = ["Hello wor", "ld\nBye  \n", "\nnow"]
        >>> list(gpt2.encode_iterable(parts)) == gpt2.encode("Hello world\nBye  \n\nnow")
        True
        """
        return encode_stream(
            texts,
            encode=partial(self.encode, special=special),
            split=self.config.split,
            specials=self.config.special_tokens if special else (),
        )

    def tokenize(self, text: str, *, special: bool = True) -> list[str]:
        """The token strings for ``text`` (display form: ``Ġ`` for a space byte)."""
        return [self.id_to_token[i] for i in self.encode(text, special=special)]

    def encode_with_spans(self, text: str, *, special: bool = True) -> list[Token]:
        """Tokens with their character spans in ``text``, so a page can draw boundaries.

        >>> from bpe_core import load_gpt2
        >>> [(t.token, t.start, t.end, t.partial) for t in load_gpt2().encode_with_spans("a 😀")]
        [('a', 0, 1, False), ('ĠðŁĺ', 1, 3, True), ('Ģ', 2, 3, True)]
        """
        tokens: list[Token] = []
        for start, end, is_special in self._segments(text, special):
            if is_special:
                token = text[start:end]
                tokens.append(Token(self.vocab[token], token, start, end, token.encode("utf-8"), "special"))
                continue
            for piece_start, piece_end in split_spans(text[start:end], self.config.split):
                piece = text[start + piece_start : start + piece_end]
                tokens += self._piece_tokens(piece, start + piece_start)
        return tokens

    def _piece_tokens(self, piece: str, offset: int) -> list[Token]:
        return piece_tokens(
            piece,
            offset,
            self._cache[piece],
            self._base_encoder(piece)[1],
            base_counts=self._base_counts,
            id_to_token=self.id_to_token,
            kind_of=self._kind,
        )

    def _kind(self, token_id: int) -> str:
        if token_id in self.special_ids:
            return "unknown" if self.special_ids[token_id] == UNK_TOKEN and self.config.uses_unk else "special"
        if self.units.is_byte_fallback(self.id_to_token[token_id]):
            return "byte"
        return "normal"

    # -- decoding ------------------------------------------------------------------

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes a token stands for as stored (``<0xE2>`` is the byte E2; markers kept)."""
        if token_id not in self.id_to_token:
            raise UnknownIdError(token_id, len(self.vocab))
        token = self.id_to_token[token_id]
        return token.encode("utf-8") if token_id in self.special_ids else self.units.token_bytes(token)

    def decode(self, ids: list[int], *, skip_special: bool = False) -> str:
        """The text for ``ids`` (special tokens left out if ``skip_special``); raises
        :class:`UnknownIdError` naming an id not in the vocabulary.

        Bytes that are not valid UTF-8 (a partial token on its own) decode to U+FFFD.
        In chars mode markers turn back into spaces; the marker after the last word is dropped.
        """
        runs: list[str] = []
        pending = bytearray()
        for token_id in ids:
            if token_id in self.special_ids:
                if not skip_special:
                    runs += [
                        self.units.restore(pending.decode("utf-8", errors="replace"), last=False),
                        self.special_ids[token_id],
                    ]
                    pending.clear()
            else:
                pending += self.token_bytes(token_id)
        runs.append(self.units.restore(pending.decode("utf-8", errors="replace"), last=True))
        return "".join(runs)

    # -- explaining ----------------------------------------------------------------

    def merge_tree(self, token: str) -> TreeNode:
        """The tree of merges that builds ``token``.

        >>> from bpe_core import Config, train
        >>> tree = train("banana_bandana_", Config(split="none"), merges=6).merge_tree("banana_ban")
        >>> "".join(tree.leaves()), tree.step, tree.left.token, tree.right.token
        ('banana_ban', 6, 'banana_', 'ban')
        """
        return merge_tree(
            token,
            vocab=self.vocab,
            created_at=self.created_at,
            merges=self.merges,
            counts=[step.count for step in self._steps] if self._steps else [None] * len(self.merges),
        )

    def merge_ranks(self, piece: str) -> list[int]:
        """The rank (0-based) of every merge that fires while one piece is encoded, in order.

        >>> from bpe_core import Config, train
        >>> train("banana_bandana_", Config(split="none"), merges=6).merge_ranks("banana_")
        [0, 0, 1, 2, 3, 4]
        """
        fired: list[int] = []
        self._apply_merges(self._base_ids(piece), fired)
        return fired

    def explain(self, piece: str) -> list[tuple[int | None, list[str]]]:
        """Replay one piece's encoding: ``(step, symbols)`` after each merge that changed it.

        The first entry has step None: the base symbols.

        >>> from bpe_core import Config, train
        >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
        >>> [(step, "|".join(symbols)) for step, symbols in tok.explain("bandana_")]
        [(None, 'b|a|n|d|a|n|a|_'), (1, 'b|an|d|an|a|_'), (2, 'ban|d|an|a|_'), (3, 'ban|d|ana|_'), (4, 'ban|d|ana_')]
        """
        return replay(
            self._base_ids(piece),
            self.merge_ranks(piece),
            vocab=self.vocab,
            id_to_token=self.id_to_token,
            merges=self.merges,
        )

    # -- prefixes ------------------------------------------------------------------

    def prefix(self, merges: int) -> Tokenizer:
        """The same tokenizer cut to its first ``merges`` merges (no retraining)."""
        merges = max(0, min(merges, len(self.merges)))
        kept_ids = {i for i in self.id_to_token if i not in self.created_at or self.created_at[i] < merges}
        return Tokenizer(
            config=self.config,
            vocab={token: i for token, i in self.vocab.items() if i in kept_ids},
            merges=self.merges[:merges],
            steps=None if self._steps is None else self._steps[:merges],
            stop_reason=STOP_PREFIX,
            stop_message=f"the first {merges} of {len(self.merges)} merges",
            name=self.name,
            warnings=self.warnings,
            base_size=self.base_size,
        )
