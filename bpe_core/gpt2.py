"""GPT-2's real tokenizer, from its published files (shipped in ``bpe_core/data``).

>>> tok = load_gpt2()
>>> tok.encode("Hello, ByteLevel BPE!")
[15496, 11, 30589, 4971, 347, 11401, 0]
>>> tok.tokenize("Hello, ByteLevel BPE!")
['Hello', ',', 'ĠByte', 'Level', 'ĠB', 'PE', '!']
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from .config import Config
from .tokenizer import Tokenizer

DATA = Path(__file__).parent / "data"
END_OF_TEXT = "<|endoftext|>"


def read_merges_txt(text: str) -> list[tuple[str, str]]:
    """Merges from a GPT-2 style ``merges.txt``/``vocab.bpe``: one ``left right`` per line.

    >>> read_merges_txt("#version: 0.2\\nĠ t\\nh e\\n")
    [('Ġ', 't'), ('h', 'e')]
    """
    merges = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or (number == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"line {number} of the merges file is not two tokens separated by one space: {line!r}")
        merges.append((parts[0], parts[1]))
    return merges


@functools.cache
def load_gpt2() -> Tokenizer:
    """GPT-2's tokenizer: byte-level, GPT-2 regex, ``<|endoftext|>`` as id 50256 (shared, read once)."""
    vocab = json.loads((DATA / "encoder.json").read_text(encoding="utf-8"))
    merges = read_merges_txt((DATA / "vocab.bpe").read_text(encoding="utf-8"))
    return Tokenizer(
        config=Config(split="gpt2", units="bytes", special_tokens=(END_OF_TEXT,)),
        vocab=vocab,
        merges=merges,
        stop_message="GPT-2's published merges (no training counts)",
        name="GPT-2",
    )
