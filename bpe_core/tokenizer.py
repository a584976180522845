"""The trained tokenizer: encode, decode, explain, cut to a prefix, save and load.

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

import heapq
import json
import weakref
from itertools import chain
from dataclasses import dataclass

from .bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE
from .config import SPACE_MARKER, UNK_TOKEN, Config, piece_symbols
from .pretokenize import check_encodable, special_segments, split_spans, split_text
from .train import Step

FORMAT_NAME = "bpe-explorer"
FORMAT_VERSION = 1
_SHIFT = 32
_CACHE_LIMIT = 100_000  # distinct pieces remembered by one tokenizer


class _PieceCache(dict):
    """piece -> its token ids, computed on the first lookup; forgets everything at the limit.

    It holds its tokenizer's method weakly: a strong reference would make a cycle, and a
    tokenizer dropped by a page (a prefix, say) would wait for the cycle collector.
    """

    def __init__(self, compute):
        super().__init__()
        self._compute = weakref.WeakMethod(compute)

    def __missing__(self, piece: str) -> tuple[int, ...]:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        ids = self[piece] = self._compute()(piece)
        return ids


class UnknownIdError(ValueError):
    """An id that is not in the vocabulary was given to ``decode``."""

    def __init__(self, token_id, vocab_size: int):
        self.token_id = token_id
        super().__init__(f"id {token_id} is not in the vocabulary (ids run from 0 to {vocab_size - 1} with gaps allowed)")


@dataclass(frozen=True)
class Token:
    """One token of an encoded text.

    ``start``/``end`` are character offsets in the input: ``text[start:end]`` is
    what the token covers.  A byte-level token holding part of a multi-byte
    character is ``partial``; its span is the whole character it is part of.
    ``kind`` is ``normal``, ``special``, ``unknown`` (``<unk>``) or ``byte``
    (a byte-fallback token).
    """

    id: int
    token: str
    start: int
    end: int
    raw: bytes
    kind: str = "normal"
    partial: bool = False


@dataclass(frozen=True)
class TreeNode:
    """How a token was built: its two parts, recursively, down to base symbols."""

    token: str
    id: int
    step: int | None = None  # the merge step that created it (None for a base symbol)
    count: int | None = None  # that step's pair count (None without training counts)
    left: TreeNode | None = None
    right: TreeNode | None = None

    def leaves(self) -> list[str]:
        if self.left is None or self.right is None:
            return [self.token]
        return self.left.leaves() + self.right.leaves()


class Tokenizer:
    """A BPE model: configuration, vocabulary (token -> id), merges in rank order, and the trace."""

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
    ):
        self.config = config
        self.vocab = dict(vocab)
        self.merges = [tuple(pair) for pair in merges]
        self.stop_reason = stop_reason
        self.stop_message = stop_message
        self.name = name
        self.warnings = list(warnings or [])  # what the user should know about these settings
        self.id_to_token = {index: token for token, index in self.vocab.items()}
        if len(self.id_to_token) != len(self.vocab):
            raise ValueError("two tokens share an id in the vocabulary")
        self.special_ids = {self.vocab[s]: s for s in config.all_special_tokens if s in self.vocab}
        missing = [s for s in config.all_special_tokens if s not in self.vocab]
        if missing:
            raise ValueError(f"special token(s) missing from the vocabulary: {', '.join(missing)}")
        # rank table: (left id, right id) packed -> (rank, merged id); first rank wins for a repeated pair
        self._ranks: dict[int, tuple[int, int]] = {}
        self.created_at: dict[int, int] = {}  # merged id -> rank of the first merge making it
        self._base_counts: dict[int, int] = {}  # merged id -> how many base symbols it spans
        vocab, ranks, created_at, base_counts = self.vocab, self._ranks, self.created_at, self._base_counts
        for rank, (left, right) in enumerate(self.merges):
            for part in (left, right, left + right):
                if part not in vocab:
                    raise ValueError(f"merge {rank + 1} ({left!r} {right!r}) names {part!r}, which is not in the vocabulary")
        # Merged tokens take new ids in the order they are made, after the base vocabulary.  A merge
        # result below the newest id re-makes a token that was there before (a special token, or a
        # symbol spelled like a marker that also occurs in the text): that merge does not create it.
        results = {vocab[left + right] for left, right in self.merges}
        newest = max((i for i in self.id_to_token if i not in results and i not in self.special_ids), default=-1)
        for rank, (left, right) in enumerate(self.merges):
            left_id, right_id, merged = vocab[left], vocab[right], vocab[left + right]
            ranks.setdefault(left_id << _SHIFT | right_id, (rank, merged))
            if merged > newest:
                newest, created_at[merged] = merged, rank
                base_counts[merged] = base_counts.get(left_id, 1) + base_counts.get(right_id, 1)
        self.steps = steps if steps is not None else self._steps_without_counts()
        self._byte_ids = self._byte_table()
        self._byte_id_set = {i for i in self._byte_ids if i is not None}
        self._cache = _PieceCache(self._merged_piece)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        del state["_cache"]  # it holds this tokenizer weakly, which cannot be serialised: start it empty
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._cache = _PieceCache(self._merged_piece)

    # -- facts ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def has_counts(self) -> bool:
        return any(step.count is not None for step in self.steps)

    @property
    def is_lossless(self) -> bool:
        return self.config.is_lossless

    def token(self, token_id: int) -> str:
        return self.id_to_token[token_id]

    def base_ids(self) -> list[int]:
        """Ids of the tokens no merge creates and that are not special, in order."""
        return [i for i in sorted(self.id_to_token) if i not in self.created_at and i not in self.special_ids]

    def base_tokens(self) -> list[str]:
        """The base tokens themselves (see :meth:`base_ids`)."""
        return [self.id_to_token[i] for i in self.base_ids()]

    def _steps_without_counts(self) -> list[Step]:
        return [
            Step(step=rank + 1, left=left, right=right, new_token=left + right,
                 new_id=self.vocab[left + right], count=None, tied=0)
            for rank, (left, right) in enumerate(self.merges)
        ]

    def _byte_table(self) -> list[int | None]:
        """For each byte value, the id of its base token (stand-in char or ``<0xXX>``)."""
        if self.config.units == "bytes":
            return [self.vocab.get(BYTE_TO_CHAR[byte]) for byte in range(256)]
        return [self.vocab.get(f"<0x{byte:02X}>") for byte in range(256)]

    # -- encoding ------------------------------------------------------------------

    def _base_ids(self, piece: str) -> list[int]:
        """The piece as base-symbol ids; unseen characters become ``<unk>`` or byte tokens."""
        if self.config.units == "bytes":
            byte_ids = self._byte_ids
            return [byte_ids[byte] for byte in piece.encode("utf-8")]
        return self._chars_base(piece)[0]

    def _source_byte_lengths(self, piece: str) -> list[int]:
        """How many input bytes each base symbol of the piece stands for (markers: 0)."""
        if self.config.units == "bytes":
            return [1] * len(piece.encode("utf-8"))
        return self._chars_base(piece)[1]

    def _chars_base(self, piece: str) -> tuple[list[int], list[int]]:
        """Chars mode: base ids of the piece and the input bytes behind each of them."""
        config, vocab = self.config, self.vocab
        ids: list[int] = []
        lengths: list[int] = []
        for symbol, char in zip(piece_symbols(piece, config), _source_chars(piece, config)):
            size = len(char.encode("utf-8"))
            token_id = vocab.get(symbol)
            if token_id is not None and token_id not in self.special_ids:
                ids.append(token_id)
                lengths.append(size)
            elif config.unknown == "byte_fallback":
                # HF falls back on the whole symbol, a glued end-of-word marker included.
                data = symbol.encode("utf-8")
                ids += [self._byte_ids[byte] for byte in data]
                lengths += [1] * size + [0] * (len(data) - size)
            else:
                ids.append(vocab[UNK_TOKEN])
                lengths.append(size)
        return ids, lengths

    def _apply_merges(self, ids: list[int], fired: list[int] | None = None) -> list[int]:
        """Merge lowest rank first, leftmost first among equal ranks (a heap over a linked list).

        That is the same as applying the merge list in order, each merge everywhere
        left to right, as long as every merge only uses tokens made before it.
        ``fired``, when given, receives the rank of every merge made, in order.
        """
        size = len(ids)
        if size < 2:
            return ids
        ranks = self._ranks
        sym = list(ids)
        nxt = list(range(1, size + 1))
        nxt[-1] = -1
        prv = list(range(-1, size - 1))
        heap = []
        for position in range(size - 1):
            entry = ranks.get(sym[position] << _SHIFT | sym[position + 1])
            if entry is not None:
                heap.append((entry[0], position))
        heapq.heapify(heap)
        while heap:
            rank, position = heapq.heappop(heap)
            after = nxt[position]
            if after < 0 or sym[position] < 0:
                continue
            entry = ranks.get(sym[position] << _SHIFT | sym[after])
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
                entry = ranks.get(merged << _SHIFT | sym[beyond])
                if entry is not None:
                    heapq.heappush(heap, (entry[0], position))
            before = prv[position]
            if before >= 0:
                entry = ranks.get(sym[before] << _SHIFT | merged)
                if entry is not None:
                    heapq.heappush(heap, (entry[0], before))
        return [s for s in sym if s >= 0]

    def _merged_piece(self, piece: str) -> tuple[int, ...]:
        return tuple(self._apply_merges(self._base_ids(piece)))

    def _segments(self, text: str) -> list[tuple[int, int, bool]]:
        """``(start, end, is_special)`` cuts of a text known to be valid UTF-8."""
        check_encodable(text)
        return special_segments(text, self.config.special_tokens)

    def encode(self, text: str) -> list[int]:
        """Token ids for ``text``.

        >>> from bpe_core import load_gpt2
        >>> load_gpt2().encode("Hello, ByteLevel BPE!")
        [15496, 11, 30589, 4971, 347, 11401, 0]
        """
        ids: list[int] = []
        for start, end, is_special in self._segments(text):
            if is_special:
                ids.append(self.vocab[text[start:end]])
                continue
            pieces = split_text(text[start:end], self.config.split)
            # C code looks every piece up and stitches the ids together; only a piece
            # never seen before calls back into Python (the cache's __missing__).
            ids.extend(chain.from_iterable(map(self._cache.__getitem__, pieces)))
        return ids

    def tokenize(self, text: str) -> list[str]:
        """The token strings for ``text`` (display form: ``Ġ`` for a space byte)."""
        return [self.id_to_token[i] for i in self.encode(text)]

    def encode_with_spans(self, text: str) -> list[Token]:
        """Tokens with their character spans in ``text``, so a page can draw boundaries.

        >>> from bpe_core import load_gpt2
        >>> [(t.token, t.start, t.end, t.partial) for t in load_gpt2().encode_with_spans("a 😀")]
        [('a', 0, 1, False), ('ĠðŁĺ', 1, 3, True), ('Ģ', 2, 3, True)]
        """
        tokens: list[Token] = []
        for start, end, is_special in self._segments(text):
            if is_special:
                special = text[start:end]
                tokens.append(Token(self.vocab[special], special, start, end, special.encode("utf-8"), "special"))
                continue
            for piece_start, piece_end in split_spans(text[start:end], self.config.split):
                piece = text[start + piece_start : start + piece_end]
                tokens += self._piece_tokens(piece, start + piece_start)
        return tokens

    def _piece_tokens(self, piece: str, offset: int) -> list[Token]:
        ids = self._cache[piece]
        raw = piece.encode("utf-8")
        # byte offset -> character offset, at character boundaries only
        char_at_byte: dict[int, int] = {}
        byte_position = 0
        for index, char in enumerate(piece):
            char_at_byte[byte_position] = index
            byte_position += len(char.encode("utf-8"))
        char_at_byte[byte_position] = len(piece)
        lengths = self._source_byte_lengths(piece)
        tokens: list[Token] = []
        symbol_index = byte_start = 0
        for token_id in ids:
            symbols = self._base_counts.get(token_id, 1)
            byte_end = byte_start + sum(lengths[symbol_index : symbol_index + symbols])
            symbol_index += symbols
            partial = byte_start not in char_at_byte or byte_end not in char_at_byte
            first_char = _char_index(char_at_byte, byte_start)
            last_char = _char_index(char_at_byte, byte_end - 1) + 1 if byte_end > byte_start else first_char
            tokens.append(
                Token(
                    id=token_id,
                    token=self.id_to_token[token_id],
                    start=offset + first_char,
                    end=offset + max(last_char, first_char),
                    raw=raw[byte_start:byte_end],
                    kind=self._kind(token_id),
                    partial=partial,
                )
            )
            byte_start = byte_end
        return tokens

    def _kind(self, token_id: int) -> str:
        if token_id in self.special_ids:
            return "unknown" if self.special_ids[token_id] == UNK_TOKEN and self.config.uses_unk else "special"
        if self.config.units == "chars" and token_id in self._byte_id_set:
            return "byte"
        return "normal"

    # -- decoding ------------------------------------------------------------------

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes a token stands for as stored (``<0xE2>`` is the byte E2; markers kept)."""
        if token_id not in self.id_to_token:
            raise UnknownIdError(token_id, len(self.vocab))
        token = self.id_to_token[token_id]
        if self.config.units == "bytes" and token_id not in self.special_ids:
            return bytes(CHAR_TO_BYTE[char] for char in token)
        if token_id in self._byte_id_set:
            return bytes([int(token[3:5], 16)])
        return token.encode("utf-8")

    def decode(self, ids: list[int]) -> str:
        """The text for ``ids``; raises :class:`UnknownIdError` naming an id not in the vocabulary.

        Bytes that are not valid UTF-8 (a partial token on its own) decode to U+FFFD.
        In chars mode markers turn back into spaces; the marker after the last word is dropped.
        """
        runs: list[str] = []
        pending = bytearray()
        for token_id in ids:
            if token_id in self.special_ids:
                runs.append(self._chars_text(pending.decode("utf-8", errors="replace")))
                runs.append(self.special_ids[token_id])
                pending.clear()
            else:
                pending += self.token_bytes(token_id)
        runs.append(self._chars_text(pending.decode("utf-8", errors="replace"), last=True))
        return "".join(runs)

    def _chars_text(self, text: str, *, last: bool = False) -> str:
        """Chars mode: the space marker and end-of-word markers back to spaces."""
        config = self.config
        if config.units == "bytes":
            return text
        if config.end_of_word:
            if last and text.endswith(config.end_of_word):
                text = text[: -len(config.end_of_word)]
            text = text.replace(config.end_of_word, " ")
        return text.replace(SPACE_MARKER, " ") if config.space_marker else text

    # -- explaining ----------------------------------------------------------------

    def merge_tree(self, token: str) -> TreeNode:
        """The tree of merges that builds ``token``.

        >>> from bpe_core import Config, train
        >>> tree = train("banana_bandana_", Config(split="none"), merges=6).merge_tree("banana_ban")
        >>> "".join(tree.leaves()), tree.step, tree.left.token, tree.right.token
        ('banana_ban', 6, 'banana_', 'ban')
        """
        if token not in self.vocab:
            raise KeyError(f"{token!r} is not in the vocabulary")
        token_id = self.vocab[token]
        rank = self.created_at.get(token_id)
        if rank is None:
            return TreeNode(token=token, id=token_id)
        left, right = self.merges[rank]
        return TreeNode(
            token=token,
            id=token_id,
            step=rank + 1,
            count=self.steps[rank].count,
            left=self.merge_tree(left),
            right=self.merge_tree(right),
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
        current = self._base_ids(piece)
        history: list[tuple[int | None, list[str]]] = [(None, [self.id_to_token[i] for i in current])]
        for rank in dict.fromkeys(self.merge_ranks(piece)):  # each rank once, in firing order
            left, right = self.merges[rank]
            current = _replace_pair(current, self.vocab[left], self.vocab[right], self.vocab[left + right])
            history.append((rank + 1, [self.id_to_token[i] for i in current]))
        return history

    # -- prefixes ------------------------------------------------------------------

    def prefix(self, merges: int) -> Tokenizer:
        """The same tokenizer cut to its first ``merges`` merges (no retraining)."""
        merges = max(0, min(merges, len(self.merges)))
        kept_ids = {i for i in self.id_to_token if i not in self.created_at or self.created_at[i] < merges}
        return Tokenizer(
            config=self.config,
            vocab={token: i for token, i in self.vocab.items() if i in kept_ids},
            merges=self.merges[:merges],
            steps=self.steps[:merges],
            stop_reason="prefix",
            stop_message=f"the first {merges} of {len(self.merges)} merges",
            name=self.name,
            warnings=self.warnings,
        )

    # -- saving --------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "name": self.name,
            "config": self.config.to_dict(),
            "vocab": self.vocab,
            "merges": [list(pair) for pair in self.merges],
            "stop": {"reason": self.stop_reason, "message": self.stop_message},
            "warnings": self.warnings,
            "steps": [
                {
                    "count": step.count,
                    "tied": step.tied,
                    "top": [[self.vocab[left], self.vocab[right], count] for left, right, count in step.top],
                }
                for step in self.steps
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict) -> Tokenizer:
        if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
            raise ValueError(f"not a {FORMAT_NAME} model file (no \"format\": \"{FORMAT_NAME}\" field)")
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"model file version {data.get('version')!r} is not supported (this is version {FORMAT_VERSION})")
        try:
            config = Config.from_dict(data["config"])
            vocab = {str(token): int(index) for token, index in data["vocab"].items()}
            merges = [(str(left), str(right)) for left, right in data["merges"]]
            stop = data.get("stop", {})
            warnings = [str(w) for w in data.get("warnings", [])]
            infos = data.get("steps") or []
            if infos and len(infos) != len(merges):
                raise ValueError("the file has a different number of steps and merges")
            counts = [(info["count"], int(info["tied"]), [tuple(entry) for entry in info["top"]]) for info in infos]
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ValueError(f"the model file is incomplete or malformed ({type(error).__name__}: {error})") from None
        tok = cls(config=config, vocab=vocab, merges=merges, steps=None,
                  stop_reason=stop.get("reason", ""), stop_message=stop.get("message", ""),
                  name=str(data.get("name", "")), warnings=warnings)
        if counts:
            try:
                tok.steps = [
                    Step(step=s.step, left=s.left, right=s.right, new_token=s.new_token, new_id=s.new_id,
                         count=count, tied=tied,
                         top=tuple((tok.id_to_token[a], tok.id_to_token[b], c) for a, b, c in top))
                    for s, (count, tied, top) in zip(tok.steps, counts)
                ]
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"the model file's trace names unknown ids ({type(error).__name__}: {error})") from None
        return tok

    @classmethod
    def from_json(cls, text: str) -> Tokenizer:
        from .formats import read_json  # formats builds on this module

        return cls.from_dict(read_json(text))

    def save(self, path) -> None:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.to_json())

    @classmethod
    def load(cls, path) -> Tokenizer:
        with open(path, encoding="utf-8") as handle:
            return cls.from_json(handle.read())


def _source_chars(piece: str, config: Config) -> list[str]:
    """The input character behind each base symbol (chars mode); an own-symbol marker has none."""
    chars = list(piece)
    if config.end_of_word and not config.glue_marker and chars:
        chars.append("")
    return chars


def _char_index(char_at_byte: dict[int, int], byte_offset: int) -> int:
    """The index of the character holding ``byte_offset`` (walks back to its first byte)."""
    while byte_offset not in char_at_byte:
        byte_offset -= 1
    return char_at_byte[byte_offset]


def _replace_pair(ids: list[int], left: int, right: int, merged: int) -> list[int]:
    """Replace every ``left right`` by ``merged``, left to right, without overlap."""
    out: list[int] = []
    index = 0
    while index < len(ids):
        if index + 1 < len(ids) and ids[index] == left and ids[index + 1] == right:
            out.append(merged)
            index += 2
        else:
            out.append(ids[index])
            index += 1
    return out
