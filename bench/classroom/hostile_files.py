"""The files a hostile visitor uploads, made here, the same bytes every time (never downloaded): a tokenizer.json
whose pre-tokenizer backtracks without end, and a big tokenizer.json.xz of millions of tokens.

The big ones are cached under the system's temporary folder (outside the repository), keyed by size and variant,
and written whole or not at all.

>>> json.loads(backtracking_tokenizer())["pre_tokenizer"]["pattern"]
{'Regex': '(x|x)+y'}
>>> data = json.loads(big_tokenizer_json(4 + 16 + 4))  # 4 letters, 16 pairs, then the first 4 of 64 triples
>>> vocab, merges = data["model"]["vocab"], data["model"]["merges"]
>>> len(vocab), len(merges), merges[:2], merges[-1]
(24, 20, ['a a', 'a b'], 'aa d')
"""

from __future__ import annotations

import itertools
import json
import lzma
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bpe_core import Config, train
from bpe_core.formats import to_hf_json

BACKTRACKING_PATTERN = "(x|x)+y"  # on n x's and no y, a backtracking engine tries 2**n ways before it gives up
BIG_TOKENS = 2_480_000  # a tokenizer.json of 60 MB, under the 64 MB the app unpacks from one file
CACHE = Path(tempfile.gettempdir()) / "bpe-explorer-hostile"
_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"


def backtracking_tokenizer() -> bytes:
    """A small valid BPE tokenizer.json (the textbook's banana, exported) whose pre-tokenizer is a Split on
    ``(x|x)+y``: loading it is quick, encoding a run of x's is not."""
    data = to_hf_json(train("banana_bandana_", Config(split="none"), merges=6))
    data["pre_tokenizer"] = {
        "type": "Split",
        "pattern": {"Regex": BACKTRACKING_PATTERN},
        "behavior": "Isolated",
        "invert": False,
    }
    return json.dumps(data).encode()


def _tokens(alphabet: str) -> Iterator[tuple[str, str]]:
    """Every token past the letters as (left, right) of the merge that makes it: pairs of letters, then a pair
    and a letter, then two pairs; each token is a new string, so every merge is valid."""
    pairs = [a + b for a, b in itertools.product(alphabet, repeat=2)]
    yield from itertools.product(alphabet, repeat=2)
    yield from itertools.product(pairs, alphabet)
    yield from itertools.product(pairs, pairs)


def big_tokenizer_json(tokens: int, alphabet: str = _ALPHABET[:4]) -> bytes:
    """A BPE tokenizer.json of ``tokens`` tokens (at most 64 + 64**2 + 64**3 + 64**4 with the whole alphabet): its
    letters, then one merge a token (merges spelled "left right", as older files do)."""
    vocab = {letter: index for index, letter in enumerate(alphabet)}
    merges = []
    for left, right in itertools.islice(_tokens(alphabet), tokens - len(alphabet)):
        vocab[left + right] = len(vocab)
        merges.append(f"{left} {right}")
    return json.dumps({"version": "1.0", "model": {"type": "BPE", "vocab": vocab, "merges": merges}}).encode()


def big_tokenizer_xz(tokens: int = BIG_TOKENS, variant: int = 0) -> bytes:
    """``big_tokenizer_json(tokens)`` compressed with xz (a few MB, under the upload limit), made once and then
    read from the cache. Each ``variant`` orders the alphabet differently: as big, but other files (a server that
    loads one file once for every session is not spared the next)."""
    cached = CACHE / f"tokenizer-{tokens}-{variant}.json.xz"
    if cached.exists():
        return cached.read_bytes()
    alphabet = _ALPHABET[variant:] + _ALPHABET[:variant]
    packed = lzma.compress(big_tokenizer_json(tokens, alphabet), preset=1)
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(packed)
    os.replace(partial, cached)  # whole or not at all, also with two runs at once
    return packed
