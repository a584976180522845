"""HF's BPE model options: how a piece becomes base symbols before any merge.

A ``tokenizer.json`` model may ask for more than "each character is a symbol":

* ``continuing_subword_prefix`` (``##``) on every symbol but a piece's first, and
  ``end_of_word_suffix`` (``</w>``) on its last;
* ``byte_fallback``: a character outside the vocabulary becomes its UTF-8 bytes as
  ``<0xNN>`` tokens (when the vocabulary has all of them);
* ``unk_token``: otherwise the character becomes the unknown token, and with ``fuse_unk``
  a run of unknown characters becomes one;
* no unknown token either: the character is dropped, as HF drops it (its bytes are counted
  with the symbol before it, or the first one, so that spans still cover the whole piece).
* ``ignore_merges``: a piece that is already a token is that token, merges unasked.

>>> options = ModelOptions(unk_token="<unk>", fuse_unk=True, byte_fallback=True)
>>> vocab = {"<unk>": 0, "a": 1, "<0xC3>": 2, "<0xA9>": 3}
>>> base_symbols("aéa", vocab, options)  # é is two bytes that the vocabulary has
([1, 2, 3, 1], [1, 1, 1, 1])
>>> base_symbols("a水水a", {"<unk>": 0, "a": 1}, options)  # no bytes: one fused <unk>
([1, 0, 1], [1, 6, 1])
>>> base_symbols("水a水", {"a": 1}, ModelOptions())  # nothing for 水: dropped, its bytes ride along
([1], [7])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ..units import BYTE_TOKENS


@dataclass(frozen=True)
class ModelOptions:
    """The ``model`` options of a BPE ``tokenizer.json`` beyond its vocabulary and merges."""

    unk_token: str | None = None
    fuse_unk: bool = False
    byte_fallback: bool = False
    ignore_merges: bool = False
    continuing_subword_prefix: str = ""
    end_of_word_suffix: str = ""

    @property
    def plain(self) -> bool:
        """Whether a symbol is just its character (no prefix, no suffix)."""
        return not self.continuing_subword_prefix and not self.end_of_word_suffix

    def joined(self, left: str, right: str) -> str:
        """The token a merge of ``left`` and ``right`` makes: the right part loses its prefix.

        >>> ModelOptions(continuing_subword_prefix="##").joined("a", "##b")
        'ab'
        """
        return left + right[len(self.continuing_subword_prefix) :]


def base_symbols(piece: str, vocab: dict[str, int], options: ModelOptions) -> tuple[list[int], list[int]]:
    """A piece's base ids, and how many bytes of the piece (UTF-8) each one covers."""
    ids: list[int] = []
    lengths: list[int] = []
    unk_id = vocab.get(options.unk_token) if options.unk_token is not None else None
    pending_unk = 0  # bytes covered by an unknown token not yet added (it may fuse with the next)
    dropped = 0  # bytes of dropped characters before the first symbol
    last = len(piece) - 1
    for index, char in enumerate(piece):
        size = len(char.encode("utf-8"))
        symbol = char
        if index and options.continuing_subword_prefix:
            symbol = options.continuing_subword_prefix + symbol
        if index == last and options.end_of_word_suffix:
            symbol += options.end_of_word_suffix
        token_id = vocab.get(symbol)
        if token_id is not None:
            if pending_unk:  # counted only once the unknown token was found (below)
                ids.append(cast(int, unk_id))
                lengths.append(pending_unk)
                pending_unk = 0
            ids.append(token_id)
            lengths.append(size)
            continue
        if options.byte_fallback:
            data = symbol.encode("utf-8")
            byte_ids = [vocab.get(BYTE_TOKENS[byte]) for byte in data]
            if None not in byte_ids:
                # HF leaves a pending unknown token where it is: bytes come before it
                ids += cast(list[int], byte_ids)
                lengths += [1] * size + [0] * (len(data) - size)
                continue
        if options.unk_token is None:  # nothing stands for it: HF drops the character
            if lengths:
                lengths[-1] += size
            else:
                dropped += size
            continue
        if unk_id is None:  # HF too fails only when a character needs the missing token
            raise ValueError(f"the unknown token {options.unk_token!r} is not in the vocabulary")
        if pending_unk and not options.fuse_unk:
            ids.append(unk_id)
            lengths.append(pending_unk)
            pending_unk = 0
        pending_unk += size
    if pending_unk:
        ids.append(cast(int, unk_id))
        lengths.append(pending_unk)
    if lengths:
        lengths[0] += dropped
    return ids, lengths
