"""Published tokenizers, loaded offline from the files shipped in ``bpe_core/data``:
GPT-2's, GPT-4's (``cl100k_base``) and GPT-4o's (``o200k_base``), and six open models'
(``llama2``, ``llama3``, ``qwen3``, ``deepseek-v3``, ``gemma3``, ``claude-legacy``: their HF
``tokenizer.json``, xz-compressed, in ``data/open`` with a NOTICE).  Each is read on first
use and then shared read-only (a server loads it once for every session).

>>> tok = load_gpt2()
>>> tok.encode("Hello, ByteLevel BPE!")
[15496, 11, 30589, 4971, 347, 11401, 0]
>>> tok.tokenize("Hello, ByteLevel BPE!")
['Hello', ',', 'ĠByte', 'Level', 'ĠB', 'PE', '!']
>>> load_pretrained("cl100k_base").encode("Hello, world!")  # tiktoken's ids
[9906, 11, 1917, 0]
"""

from __future__ import annotations

import functools
import json
import lzma
from pathlib import Path

from .config import Config
from .formats import from_hf_json, read_merges_txt
from .formats.tiktoken_ranks import from_ranks
from .gc_pause import collector_paused
from .tokenizer import Tokenizer

DATA = Path(__file__).parent / "data"
END_OF_TEXT = "<|endoftext|>"


@functools.cache
def load_gpt2() -> Tokenizer:
    """GPT-2's tokenizer: byte-level, GPT-2 regex, ``<|endoftext|>`` as id 50256 (shared, read once)."""
    with collector_paused():
        return _gpt2_tokenizer()


def _gpt2_tokenizer() -> Tokenizer:
    vocab = json.loads((DATA / "encoder.json").read_text(encoding="utf-8"))
    merges = read_merges_txt((DATA / "vocab.bpe").read_text(encoding="utf-8"))
    return Tokenizer(
        config=Config(split="gpt2", units="bytes", special_tokens=(END_OF_TEXT,)),
        vocab=vocab,
        merges=merges,
        stop_message="GPT-2's published merges (no training counts)",
        name="GPT-2",
    )


# tiktoken_ext/openai_public.py: the special tokens of each encoding, with their ids.
_TIKTOKEN = {
    "cl100k_base": (
        "gpt4",
        "GPT-4 (cl100k_base)",
        {
            END_OF_TEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
    "o200k_base": ("gpt4o", "GPT-4o (o200k_base)", {END_OF_TEXT: 199999, "<|endofprompt|>": 200018}),
}
# The open models: name -> title.  Their files are data/open/NAME.tokenizer.json.xz.
OPEN_MODELS = {
    "llama2": "Llama 2",
    "llama3": "Llama 3",
    "qwen3": "Qwen3",
    "deepseek-v3": "DeepSeek-V3",
    "gemma3": "Gemma 3",
    "claude-legacy": "Claude (legacy)",
}
PRETRAINED = ("gpt2", *_TIKTOKEN, *OPEN_MODELS)  # the names the command line and the pages accept


@functools.cache
def load_pretrained(name: str) -> Tokenizer:
    """A published tokenizer by name (one of ``PRETRAINED``)."""
    if name == "gpt2":
        return load_gpt2()
    if name in OPEN_MODELS:
        with lzma.open(DATA / "open" / f"{name}.tokenizer.json.xz") as packed, collector_paused():
            return from_hf_json(packed.read().decode("utf-8"), name=OPEN_MODELS[name])
    if name not in _TIKTOKEN:
        raise ValueError(f"no published tokenizer is called {name!r}: choose one of {', '.join(PRETRAINED)}")
    split, title, specials = _TIKTOKEN[name]
    with collector_paused():
        return from_ranks(
            (DATA / f"{name}.tiktoken").read_text(encoding="ascii"),
            split=split,
            special_tokens=specials,
            name=title,
            cuts=(DATA / f"{name}.cuts").read_bytes(),
        )
