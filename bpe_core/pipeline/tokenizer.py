"""A BPE tokenizer assembled from a ``tokenizer.json``'s parts, exactly as HF tokenizers runs it.

Encoding: added tokens are cut out of the raw text; each stretch between them is
normalized, then cut again at added tokens matched on normalized text; the pre-tokenizer
cuts the rest into pieces; the BPE model turns each piece into ids (base symbols by the
model's options, then merges by rank).  Decoding hands the tokens to the decoder chain.

The explorer draws tokens on *the text the model sees*: the raw added tokens and the
normalized stretches, joined (``shown_text``); spans of ``encode_with_spans`` point into it.

>>> from bpe_core.pipeline.added_tokens import AddedToken
>>> tok = PipelineTokenizer(vocab={"▁": 0, "a": 1, "b": 2, "▁a": 3, "<s>": 4}, merges=[("▁", "a")],
...     parts={"normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}},
...     added=[AddedToken("<s>", 4)])
>>> tok.tokenize("<s>b a"), tok.shown_text("<s>b a")
(['<s>', 'b', '▁a'], '<s>b▁a')
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from itertools import chain

from ..config import UNK_TOKEN, Config
from ..merge_index import MergeTables, merge_ids, rank_table
from ..pretokenize import check_encodable
from ..spans import Token, piece_tokens
from ..tokenizer import OnFirstUse, Tokenizer, UnknownIdError
from ..trace import STOP_PREFIX
from ..units import BYTE_TOKEN_VALUE, BaseEncoder
from .added_tokens import AddedToken, AddedTokens
from .decoders import Decoder, build_decoder
from .model import ModelOptions, base_symbols
from .normalizers import Normalizer, build_normalizer
from .oniguruma import within_budget
from .post_processors import PostProcessor, build_post_processor
from .pre_tokenizers import PreTokenizer, build_piece_cutter, build_pre_tokenizer

# Where a long piece may be cut into words (see _words): before a space or a space marker.
_CUT_CANDIDATES = re.compile(r"[▁\s]")
_LONG_PIECE = 64  # characters; shorter pieces are merged whole


def _uses_byte_level(spec: dict | None) -> bool:
    if not isinstance(spec, dict):
        return False
    return spec.get("type") == "ByteLevel" or any(_uses_byte_level(step) for step in spec.get("pretokenizers", []))


def _hf_merge_tables(merges: list[tuple[str, str]], vocab: dict[str, int], options: ModelOptions) -> MergeTables:
    """The merges indexed as HF builds its merge table: each merge's ids, a later copy of a pair taking
    its place.  A token is created by the first merge that makes it (a sentencepiece vocabulary lists
    its single characters last, so ids say nothing about the order of making)."""
    joined = options.joined if options.continuing_subword_prefix else operator.add
    left_ids, right_ids, made, merged_ids = merge_ids(merges, vocab, joined)
    # walked from the last merge to the first, the first merge making a token is written last
    created_at = dict(zip(reversed(merged_ids), range(len(made) - 1, -1, -1)))
    if options.plain:  # each base symbol is one character of the token
        counts = dict(zip(merged_ids, map(len, made)))
    else:
        counts = {}
        for left_id, right_id, merged in zip(left_ids, right_ids, merged_ids):
            counts.setdefault(merged, counts.get(left_id, 1) + counts.get(right_id, 1))
    return MergeTables(rank_table(left_ids, right_ids, merged_ids, first_wins=False), created_at, counts)


class PipelineTokenizer(Tokenizer):
    """A tokenizer.json's BPE model with its normalizer, pre-tokenizer, decoder and post-processor.

    ``parts`` holds the four specs as the file writes them (absent: none); ``added`` the added
    tokens; ``options`` the model's options.  Everything a page asks of a :class:`Tokenizer`
    works, with spans on :meth:`shown_text`.
    """

    runs_pipeline = True

    def __init__(
        self,
        *,
        vocab: dict[str, int],
        merges: list[tuple[str, str]],
        parts: dict | None = None,
        added: list[AddedToken] | None = None,
        options: ModelOptions | None = None,
        name: str = "",
        stop_message: str = "loaded from a tokenizer.json (no training counts)",
        stop_reason: str = "",
    ):
        parts = dict(parts or {})
        options = options or ModelOptions()
        # HF matches (and names) a "normalized" added token by its normalized text; a file keeps it as written
        normalize = build_normalizer(parts.get("normalizer")) or str
        added_as_written = list(added or [])
        added_tokens = [
            replace(token, content=normalize(token.content)) if token.normalized else token
            for token in added_as_written
        ]
        full_vocab = dict(vocab)
        for token in added_tokens:
            full_vocab.setdefault(token.content, token.id)
        unk_is_ours = options.unk_token == UNK_TOKEN and not options.byte_fallback
        config = Config(
            split="none",
            units="bytes" if _uses_byte_level(parts.get("pre_tokenizer")) else "chars",
            special_tokens=tuple(token.content for token in added_tokens),
            unknown="unk" if unk_is_ours else "byte_fallback",
        )
        super().__init__(
            config=config,
            vocab=full_vocab,
            merges=merges,
            name=name,
            stop_message=stop_message,
            stop_reason=stop_reason,
            special_ids={token.id: token.content for token in added_tokens},  # an added token keeps its own id
            merge_tables=_hf_merge_tables(merges, full_vocab, options),
        )
        self.parts = parts
        self.options = options
        self.model_vocab = vocab  # the model's own vocabulary: added tokens not in it are never merged
        self.added_as_written = added_as_written
        self.added_tokens = added_tokens

    # The parts as functions, built on first use (see Tokenizer's encoders).

    @OnFirstUse
    def _normalize(self) -> Normalizer:
        return build_normalizer(self.parts.get("normalizer")) or str

    @OnFirstUse
    def _pre_tokenize(self) -> PreTokenizer:
        return build_pre_tokenizer(self.parts.get("pre_tokenizer"))

    @OnFirstUse
    def _cut_pieces(self) -> Callable[..., list[str]]:
        return build_piece_cutter(self.parts.get("pre_tokenizer"))  # the same pieces, no offsets

    @OnFirstUse
    def _decode_tokens(self) -> Decoder:
        return build_decoder(self.parts.get("decoder"))

    @OnFirstUse
    def _add_specials(self) -> PostProcessor:
        return build_post_processor(self.parts.get("post_processor"))

    @OnFirstUse
    def added(self) -> AddedTokens:
        return AddedTokens(self.added_tokens)

    @OnFirstUse
    def _base_encoder(self) -> BaseEncoder:
        return partial(base_symbols, vocab=self.model_vocab, options=self.options)

    @OnFirstUse
    def _base_ids(self) -> Callable[[str], list[int]]:
        encoder = self._base_encoder
        return lambda piece: encoder(piece)[0]

    @OnFirstUse
    def _joinable(self) -> set[tuple[str, str]]:
        """The (last character, first character) of every merge's two parts (see ``_words``)."""
        return {(left[-1], right[0]) for left, right in self.merges if left and right}

    # -- encoding ------------------------------------------------------------------

    def _stretches(self, text: str, special: bool):
        """``(text the model sees, added id or None, starts the text)`` in order: added tokens and
        normalized stretches.  Only a stretch from the text's very start gets Metaspace's "first" ``▁``."""
        at_start = True
        for part, added_id in self.added.split(text, normalized=False, special=special):
            if added_id is not None:
                yield part, added_id, False
            else:
                for index, (sub, sub_id) in enumerate(
                    self.added.split(self._normalize(part), normalized=True, special=special)
                ):
                    yield sub, sub_id, at_start and index == 0
            at_start = False

    @within_budget
    def shown_text(self, text: str, *, special: bool = True) -> str:
        """The text as the model sees it: added tokens as written, the rest normalized."""
        return "".join(part for part, _, _ in self._stretches(text, special))

    @within_budget
    def encode(self, text: str, *, special: bool = True) -> list[int]:
        """HF's ``encode(text, add_special_tokens=False)`` ids; ``special=False`` leaves special added
        tokens in the text as text (HF's ``encode_special_tokens``)."""
        check_encodable(text)
        ids: list[int] = []
        for part, added_id, at_start in self._stretches(text, special):
            if added_id is not None:
                ids.append(added_id)
            else:
                pieces = self._cut_pieces(part, at_text_start=at_start)
                ids.extend(chain.from_iterable(map(self._cache.__getitem__, pieces)))
        return ids

    def with_model_specials(self, ids: list[int]) -> list[int]:
        """``ids`` as HF's ``add_special_tokens=True`` gives them (Llama 2's ``<s>`` first, say)."""
        return self._add_specials(list(ids))

    def encode_iterable(self, texts, *, special: bool = True):
        """The ids of the texts joined: a normalizer may look at the whole text (Llama 2 prepends
        ``▁`` once), so the text is encoded in one go."""
        yield from self.encode("".join(texts), special=special)

    def ignores_merges(self, piece: str) -> bool:
        """Whether the model takes ``piece`` whole because it is a token (``ignore_merges``)."""
        return self.options.ignore_merges and piece in self.model_vocab

    @within_budget
    def pieces(self, text: str, *, special: bool = True) -> list[tuple[str, int, int]]:
        """The pre-tokenizer's pieces as ``(model piece, start, end)``, spans in :meth:`shown_text`
        (added tokens are not pieces): what merges work on, for pages that show the split."""
        found: list[tuple[str, int, int]] = []
        offset = 0
        for part, added_id, at_start in self._stretches(text, special):
            if added_id is None:
                found += [
                    (piece, offset + start, offset + end)
                    for piece, start, end in self._pre_tokenize(part, at_text_start=at_start)
                ]
            offset += len(part)
        return found

    def words(self, piece: str) -> list[str]:
        """``piece`` cut wherever no merge can join its two sides, however short it is (``_words``):
        each part alone merges to the tokens it has inside ``piece``, so each can be replayed alone."""
        return self._words(piece, shortest=1)

    def _merged_piece(self, piece: str) -> tuple[int, ...]:
        if self.ignores_merges(piece):
            return (self.model_vocab[piece],)
        words = self._words(piece)
        if len(words) > 1:
            return tuple(chain.from_iterable(map(self._cache.__getitem__, words)))
        return tuple(self._apply_merges(self._base_ids(piece)))

    def _words(self, piece: str, shortest: int = _LONG_PIECE) -> list[str]:
        """A long piece cut where no merge can ever join its two sides, so each side merges alone.

        Llama 2 and Gemma 3 merge the whole text as one piece.  A merge joins the symbol that ends
        at a place with the one that starts there; when no merge has a left part ending in the
        character before the place and a right part starting with the one after it, no merge ever
        crosses it, and both sides end the same merged apart (each one's merges keep their order).
        """
        if len(piece) < shortest or not self.options.plain or self.options.ignore_merges:
            return [piece]
        vocab, joinable = self.model_vocab, self._joinable
        cuts = [0]
        for match in _CUT_CANDIDATES.finditer(piece, 1):
            place = match.start()
            before, after = piece[place - 1], piece[place]
            if (before, after) not in joinable and before in vocab and after in vocab:
                cuts.append(place)
        cuts.append(len(piece))
        return [piece[start:end] for start, end in zip(cuts, cuts[1:]) if end > start]

    # -- spans ---------------------------------------------------------------------

    @within_budget
    def encode_with_spans(self, text: str, *, special: bool = True) -> list[Token]:
        """Tokens with spans in :meth:`shown_text` (the text the model sees)."""
        check_encodable(text)
        tokens: list[Token] = []
        offset = 0
        for part, added_id, at_start in self._stretches(text, special):
            if added_id is not None:
                tokens.append(Token(added_id, part, offset, offset + len(part), part.encode("utf-8"), "special"))
            else:
                for model_piece, start, end in self._pre_tokenize(part, at_text_start=at_start):
                    source = part[start:end]
                    if self.ignores_merges(model_piece):  # one token for the whole piece
                        lengths, counts = [len(source.encode("utf-8"))], {}
                    else:
                        lengths = self._source_lengths(model_piece, source, self._base_encoder(model_piece)[1])
                        counts = self._base_counts
                    tokens += piece_tokens(
                        source,
                        offset + start,
                        self._cache[model_piece],
                        lengths,
                        base_counts=counts,
                        id_to_token=self.id_to_token,
                        kind_of=self._kind,
                    )
            offset += len(part)
        return tokens

    def _source_lengths(self, model_piece: str, source: str, lengths: list[int]) -> list[int]:
        """Bytes of ``source`` behind each base symbol, from bytes of ``model_piece`` behind each.

        They differ when the pre-tokenizer rewrote the piece: byte-level stand-ins (each character
        one byte of the source), ``▁`` for a space, or a space or ``▁`` put in front (no source).
        """
        if model_piece == source:
            return lengths
        if self.byte_level:
            sizes = [1] * len(source.encode("utf-8"))
        else:
            sizes = [len(char.encode("utf-8")) for char in source]
        sizes = [0] * (len(model_piece) - len(sizes)) + sizes
        model_sizes = [len(char.encode("utf-8")) for char in model_piece]
        result: list[int] = []
        char = used = 0  # the model character being consumed, and its bytes consumed so far
        for length in lengths:
            given = 0
            while length > 0 and char < len(model_sizes):
                take = min(length, model_sizes[char] - used)
                given += min(take, max(sizes[char] - used, 0))
                used += take
                length -= take
                if used == model_sizes[char]:
                    char, used = char + 1, 0
            result.append(given)
        return result

    def _kind(self, token_id: int) -> str:
        token = self.id_to_token[token_id]
        if token == self.options.unk_token:  # whether an added token or only in the model's vocabulary
            return "unknown"
        if token_id in self.special_ids:
            return "special"
        return "byte" if token in BYTE_TOKEN_VALUE else "normal"

    # -- decoding ------------------------------------------------------------------

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes a token stands for: byte-level stand-ins and ``<0xNN>`` read back, else its text."""
        if token_id not in self.id_to_token:
            raise UnknownIdError(token_id, len(self.vocab))
        token = self.id_to_token[token_id]
        if token in BYTE_TOKEN_VALUE:
            return bytes([BYTE_TOKEN_VALUE[token]])
        if self.byte_level and token_id not in self.special_ids:
            return self.units.token_bytes(token)
        return token.encode("utf-8")

    @within_budget
    def decode(self, ids: list[int], *, skip_special: bool = False) -> str:
        """HF's ``decode(ids, skip_special_tokens=skip_special)``; an id not in the vocabulary raises
        :class:`UnknownIdError` (HF would drop it silently)."""
        for token_id in ids:
            if token_id not in self.id_to_token:
                raise UnknownIdError(token_id, len(self.vocab))
        skipped = self.added.special_ids if skip_special else ()
        return self._decode_tokens([self.id_to_token[i] for i in ids if i not in skipped])

    # -- prefixes ------------------------------------------------------------------

    def prefix(self, merges: int) -> PipelineTokenizer:
        """The same pipeline with its first ``merges`` merges (and the tokens they need)."""
        merges = max(0, min(merges, len(self.merges)))
        dropped = {i for i, rank in self.created_at.items() if rank >= merges}
        return PipelineTokenizer(
            vocab={token: i for token, i in self.model_vocab.items() if i not in dropped},
            merges=self.merges[:merges],
            parts=self.parts,
            added=self.added_as_written,
            options=self.options,
            name=self.name,
            stop_reason=STOP_PREFIX,
            stop_message=f"the first {merges} of {len(self.merges)} merges",
        )
