"""The prompt's last token: whether the text could have gone on merging into a longer token (token healing).

A prompt that ends with a space, half a word or ``http:`` ends on a token the tokenizer would have merged with what
comes next: ``"Hello "`` ends on ``" "``, whereas ``"Hello world"`` holds ``" world"``, so a model fed the prompt is
asked to go on from a split it rarely saw.  Token healing backs up over that last token and lets the model write
only tokens that start with its text.  Those tokens are found here in the vocabulary: every longer token whose bytes
start with the last token's, kept when the tokenizer itself makes it (the token before the last and the candidate's
text, encoded, end with that candidate), the lowest ids first (in GPT-2's and tiktoken's vocabularies, the earliest
merges).

>>> from bpe_core import load_gpt2
>>> end = prompt_end(load_gpt2(), "Hello ", limit=3)
>>> end.last.token, end.may_merge, end.candidates
('Ġ', True, ((256, ' t'), (257, ' a'), (262, ' the')))
"""

from __future__ import annotations

import heapq
import weakref
from bisect import bisect_left
from dataclasses import dataclass
from operator import itemgetter

from .gc_pause import collector_paused
from .rank_tokenizer import RankTokenizer
from .spans import Token
from .tokenizer import Tokenizer

MAX_SHOWN = 20  # candidates returned at most by default
MAX_CHECKED = 2_000  # candidates encoded at most to see whether the tokenizer makes them (the rest only counted)
_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per tokenizer: its tokens' bytes, sorted


@dataclass(frozen=True)
class PromptEnd:
    """What the prompt's last token could have been: ``candidates`` are ``(id, text)`` of the tokens the tokenizer
    makes when the text goes on (``text`` is the last token's text and what follows), ``longer_tokens`` how many
    tokens of the vocabulary start with its bytes and are longer (all of them, checked or not)."""

    last: Token | None  # None: an empty prompt
    candidates: tuple[tuple[int, str], ...]
    longer_tokens: int

    @property
    def may_merge(self) -> bool:
        """Whether the prompt ends where the tokenizer would have merged with what comes next."""
        return bool(self.candidates)


def prompt_end(tok: Tokenizer, text: str, *, limit: int = MAX_SHOWN, special: bool = True) -> PromptEnd:
    """The last token of ``text`` as ``tok`` encodes it and the tokens it could have grown into (at most
    ``limit``).  A special token, a byte-fallback token or part of a character grows into none."""
    tokens = tok.encode_with_spans(text, special=special)
    if not tokens:
        return PromptEnd(None, (), 0)
    last = tokens[-1]
    if last.kind != "normal" or last.partial:
        return PromptEnd(last, (), 0)
    piece = tok.token_bytes(last.id)
    longer = _longer_ids(tok, piece)
    before = text[tokens[-2].start : last.start] if len(tokens) > 1 and tokens[-2].kind == "normal" else ""
    candidates = []
    for token_id in heapq.nsmallest(MAX_CHECKED, longer):
        grown = _grown_text(tok, text[last.start : last.end], tok.token_bytes(token_id)[len(piece) :])
        if grown is not None and _makes(tok, before, grown, token_id):
            candidates.append((token_id, grown))
            if len(candidates) == limit:
                break
    return PromptEnd(last, tuple(candidates), len(longer))


def _index(tok: Tokenizer) -> tuple[list[bytes], list[int]]:
    """Every token's bytes, sorted, and their ids (special tokens left out): the tokens sharing a beginning stand
    together.  Built once per tokenizer (a second or two for 200,000 tokens)."""
    if tok not in _INDEXES:
        with collector_paused():  # 200,000 new pairs would set the collector walking the whole model many times
            pairs = sorted(_vocabulary_bytes(tok), key=itemgetter(0))  # by the bytes alone: quicker than pairs
            _INDEXES[tok] = ([pair[0] for pair in pairs], [pair[1] for pair in pairs])
    return _INDEXES[tok]


def _vocabulary_bytes(tok: Tokenizer) -> list[tuple[bytes, int]]:
    """Every token but the special ones as (its bytes as stored, its id); a rank tokenizer's from its ranks."""
    if isinstance(tok, RankTokenizer):
        return tok.vocabulary_bytes()
    return [(tok.token_bytes(token_id), token_id) for token_id in tok.id_to_token if token_id not in tok.special_ids]


def _longer_ids(tok: Tokenizer, piece: bytes) -> list[int]:
    """The ids of the tokens longer than ``piece`` that start with it: a run of the sorted index, from ``piece``
    itself up to the first bytes past every continuation of it."""
    keys, ids = _index(tok)
    start = bisect_left(keys, piece)
    while start < len(keys) and keys[start] == piece:
        start += 1
    stripped = piece.rstrip(b"\xff")
    end = bisect_left(keys, stripped[:-1] + bytes([stripped[-1] + 1])) if stripped else len(keys)
    return ids[start:end]


def _grown_text(tok: Tokenizer, last_text: str, rest: bytes) -> str | None:
    """The last token's text and what a longer token adds (None: not whole characters)."""
    try:
        added = rest.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return last_text + (added if tok.byte_level else added.replace("\u2581", " "))


def _makes(tok: Tokenizer, before: str, grown: str, token_id: int) -> bool:
    """Whether ``tok`` encodes ``before + grown`` ending with the one token ``token_id`` over ``grown``."""
    tokens = tok.encode_with_spans(before + grown, special=False)
    return bool(tokens) and tokens[-1].id == token_id and tokens[-1].start == len(before)
