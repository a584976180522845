"""GPT-2's pair of files: ``vocab.json`` (token -> id) and ``merges.txt`` (one merge a line).

The pair carries no settings: every reader assumes GPT-2's byte-level scheme with its regex.

>>> vocab, merges = to_gpt2_files(from_gpt2_files('{"a": 0, "b": 1, "ab": 2}', "#version: 0.2\\na b\\n"))
>>> vocab, merges
('{"a": 0, "b": 1, "ab": 2}', '#version: 0.2\\na b\\n')
"""

from __future__ import annotations

import json

from ..bytelevel import ALPHABET
from ..config import Config
from ..pretokenizers import pretokenizer
from ..rank_tokenizer import AnyTokenizer
from ..tokenizer import Tokenizer
from .fields import checked_vocab, shown
from .files import ExportError, read_json


def read_merges_txt(text: str) -> list[tuple[str, str]]:
    """Merges from a GPT-2 style ``merges.txt``/``vocab.bpe``: one ``left right`` per line.

    >>> read_merges_txt("#version: 0.2\\nĠ t\\nh e\\n")
    [('Ġ', 't'), ('h', 'e')]
    """
    merges = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number == 1 and line.startswith("#version"):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):  # an empty line too, as HF refuses it
            raise ValueError(f"merges.txt line {number}: {shown(line)} is not two tokens separated by one space")
        merges.append((parts[0], parts[1]))
    return merges


def _check_merges_in_vocab(merges: list[tuple[str, str]], vocab: dict[str, int], text: str) -> None:
    """Each merge's parts and the token it makes are in vocab.json, as HF's ``BPE.from_file`` requires;
    the first line that names another token is named."""
    if vocab.keys() >= {part for left, right in merges for part in (left, right, left + right)}:
        return
    first = 2 if text.startswith("#version") else 1
    for number, (left, right) in enumerate(merges, start=first):
        for part in (left, right, left + right):
            if part not in vocab:
                raise ValueError(f"merges.txt line {number}: {shown(part)} is not in vocab.json")


def check_gpt2_exportable(tok: AnyTokenizer) -> None:
    """Raise :class:`ExportError` unless ``tok`` uses GPT-2's scheme (the only one the pair can carry)."""
    if not tok.byte_level or not pretokenizer(tok.config.split).hf_byte_level_regex:
        raise ExportError(
            "vocab.json + merges.txt carry no settings, and every reader assumes GPT-2's byte-level "
            "scheme with its regex; train with units 'bytes' and split 'gpt2' (or export tokenizer.json)"
        )


def to_gpt2_files(tok: AnyTokenizer) -> tuple[str, str]:
    """``(vocab.json, merges.txt)`` texts, GPT-2 style: byte-level with the GPT-2 regex only."""
    check_gpt2_exportable(tok)
    vocab = json.dumps(dict(sorted(tok.vocab.items(), key=lambda item: item[1])), ensure_ascii=False)
    merges = "#version: 0.2\n" + "".join(f"{left} {right}\n" for left, right in tok.merges)
    return vocab, merges


def from_gpt2_files(vocab_text: str, merges_text: str, *, name: str = "") -> Tokenizer:
    """A byte-level tokenizer from GPT-2 style ``vocab.json`` and ``merges.txt`` texts.

    Tokens that are neither one of the 256 byte symbols nor made by a merge are
    taken as special tokens (``<|endoftext|>`` in GPT-2).
    """
    try:
        vocab = read_json(vocab_text)
    except ValueError as error:
        raise ValueError(f"vocab.json is {error}") from None
    vocab = checked_vocab(vocab, "vocab.json")
    merges = read_merges_txt(merges_text)
    _check_merges_in_vocab(merges, vocab, merges_text)
    made = {left + right for left, right in merges} | set(ALPHABET)
    specials = tuple(token for token in sorted(vocab, key=vocab.__getitem__) if token not in made)
    config = Config(split="gpt2", units="bytes", special_tokens=specials)
    return Tokenizer(
        config=config,
        vocab=vocab,
        merges=merges,
        name=name,
        stop_message="loaded from vocab.json + merges.txt (no training counts)",
    )
