"""Published tokenizers, loaded offline from the files shipped in ``bpe_core/data``: one record each in
``PUBLISHED`` (its name, title, family, files and first-load time), read by the command line, the pages and the
tests. GPT-2's own files, OpenAI's rank files (GPT-4's ``cl100k_base``, GPT-4o's ``o200k_base``) and open models'
HF ``tokenizer.json`` (xz-compressed, in ``data/open`` with a NOTICE).  Each is read on first use and then shared
read-only (a server loads it once for every session).

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
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .config import Config
from .formats import from_hf_json, read_merges_txt
from .formats.tiktoken_ranks import from_ranks
from .gc_pause import collector_paused
from .rank_tokenizer import AnyTokenizer
from .tokenizer import Tokenizer

DATA = Path(__file__).parent / "data"
END_OF_TEXT = "<|endoftext|>"
GPT2_FILES, TIKTOKEN, TOKENIZER_JSON = "gpt2", "tiktoken", "tokenizer.json"  # the families: how one is stored


@dataclass(frozen=True)
class PublishedTokenizer:
    """One published tokenizer: how it is named, shown and stored, and how long its first load takes."""

    name: str  # what the command line and the pages accept
    title: str  # the loaded tokenizer's own name, which the pages show
    family: str  # GPT2_FILES, TIKTOKEN or TOKENIZER_JSON
    files: tuple[str, ...]  # under DATA
    load_seconds: int = 1  # a first load on a small server (then it is shared): the spinner says it
    held_mb: int = 0  # its memory once read, as bpe_core.footprint counts it (python -m bench.published_memory)
    split: str = ""  # TIKTOKEN: the pre-tokenizer its ranks go with
    special_ids: tuple[tuple[str, int], ...] = ()  # TIKTOKEN: its special tokens and their ids


def _tiktoken(
    name: str, title: str, split: str, special_ids: dict[str, int], held_mb: int, ranks_of: str = ""
) -> PublishedTokenizer:
    """A rank file's tokenizer; ``ranks_of`` names another encoding whose ranks (and cuts) it reuses."""
    files = (f"{ranks_of or name}.tiktoken", f"{ranks_of or name}.cuts")
    special = tuple(special_ids.items())
    return PublishedTokenizer(name, title, TIKTOKEN, files, held_mb=held_mb, split=split, special_ids=special)


# gpt-oss's chat tokens (openai-harmony; tiktoken_ext/openai_public.py's o200k_harmony), on o200k_base's ranks; every
# other id from 200,000 to 201,087 is reserved.  tiktoken also reads o200k_base's <|endofprompt|> as 200,018 (a second
# name for <|reserved_200018|>): here, as in openai-harmony's list, that id has one name and <|endofprompt|> is text.
_HARMONY_CHAT = {
    "<|startoftext|>": 199998,
    END_OF_TEXT: 199999,
    "<|return|>": 200002,
    "<|constrain|>": 200003,
    "<|channel|>": 200005,
    "<|start|>": 200006,
    "<|end|>": 200007,
    "<|message|>": 200008,
    "<|call|>": 200012,
}
_HARMONY_SPECIALS = _HARMONY_CHAT | {
    f"<|reserved_{token_id}|>": token_id
    for token_id in range(200_000, 201_088)
    if token_id not in _HARMONY_CHAT.values()
}


def _open_model(name: str, title: str, load_seconds: int, held_mb: int) -> PublishedTokenizer:
    return PublishedTokenizer(name, title, TOKENIZER_JSON, (f"open/{name}.tokenizer.json.xz",), load_seconds, held_mb)


PUBLISHED = {
    published.name: published
    for published in (
        PublishedTokenizer("gpt2", "GPT-2", GPT2_FILES, ("encoder.json", "vocab.bpe"), held_mb=32),
        # The special tokens of each encoding with their ids: tiktoken_ext/openai_public.py.
        _tiktoken(
            "cl100k_base",
            "GPT-4 (cl100k_base)",
            "gpt4",
            {
                END_OF_TEXT: 100257,
                "<|fim_prefix|>": 100258,
                "<|fim_middle|>": 100259,
                "<|fim_suffix|>": 100260,
                "<|endofprompt|>": 100276,
            },
            held_mb=17,
        ),
        _tiktoken(
            "o200k_base", "GPT-4o and GPT-5 (o200k_base)", "gpt4o", {END_OF_TEXT: 199999, "<|endofprompt|>": 200018}, 34
        ),
        _tiktoken("o200k_harmony", "gpt-oss (o200k_harmony)", "gpt4o", _HARMONY_SPECIALS, 34, ranks_of="o200k_base"),
        _open_model("llama2", "Llama 2", load_seconds=1, held_mb=23),
        _open_model("llama3", "Llama 3", load_seconds=2, held_mb=97),
        _open_model("qwen3", "Qwen3", load_seconds=1, held_mb=73),
        _open_model("qwen3.6", "Qwen3.5 and Qwen3.6", load_seconds=3, held_mb=130),
        _open_model("deepseek-v3", "DeepSeek-V3", load_seconds=1, held_mb=67),
        _open_model("deepseek-v4", "DeepSeek-V4", load_seconds=1, held_mb=67),
        _open_model("gemma3", "Gemma 3", load_seconds=3, held_mb=188),
        _open_model("mistral-tekken-v3", "Mistral Tekken v3", load_seconds=1, held_mb=67),
        _open_model("claude-legacy", "Claude (legacy, before Claude 3)", load_seconds=1, held_mb=33),
    )
}
PRETRAINED = tuple(PUBLISHED)  # the names the command line and the pages accept
OPEN_MODELS = {name: published.title for name, published in PUBLISHED.items() if published.family == TOKENIZER_JSON}


# Each published tokenizer read, with its name: the name keys work on it (hashing 200,000 merges takes a second)
_PUBLISHED_NAMES: weakref.WeakKeyDictionary[AnyTokenizer, str] = weakref.WeakKeyDictionary()


def published_name(model: AnyTokenizer) -> str | None:
    """The name of the published tokenizer ``model`` is (as ``load_pretrained`` gave it), else None: a model
    trained or loaded from a file, or cut from a published one, is not.

    >>> published_name(load_pretrained("gpt2")), published_name(load_gpt2().prefix(3))
    ('gpt2', None)
    """
    return _PUBLISHED_NAMES.get(model)


Model = TypeVar("Model", bound=AnyTokenizer)


def _as_published(name: str, model: Model) -> Model:
    _PUBLISHED_NAMES[model] = name
    return model


@functools.cache
def load_gpt2() -> Tokenizer:
    """GPT-2's tokenizer: byte-level, GPT-2 regex, ``<|endoftext|>`` as id 50256 (shared, read once)."""
    with collector_paused():
        return _as_published("gpt2", _gpt2_tokenizer())


def _gpt2_tokenizer() -> Tokenizer:
    published = PUBLISHED["gpt2"]
    vocab_file, merges_file = (DATA / file for file in published.files)
    vocab = json.loads(vocab_file.read_text(encoding="utf-8"))
    merges = read_merges_txt(merges_file.read_text(encoding="utf-8"))
    return Tokenizer(
        config=Config(split="gpt2", units="bytes", special_tokens=(END_OF_TEXT,)),
        vocab=vocab,
        merges=merges,
        stop_message="GPT-2's published merges (no training counts)",
        name=published.title,
    )


class _KeepAll:
    """The published tokenizers read so far, each kept for the life of the process: the command line's and the
    tests' cache. A server holds them within a budget instead (``keep_published_in``)."""

    def __init__(self) -> None:
        self._models: dict[str, AnyTokenizer] = {}
        self._lock = threading.Lock()

    def get_or_make(self, name: str, make: Callable[[], AnyTokenizer]) -> AnyTokenizer:
        with self._lock:  # one read of each, however many threads ask at once
            if name not in self._models:
                self._models[name] = make()
            return self._models[name]


_kept: Any = _KeepAll()


def keep_published_in(cache: Any) -> None:
    """Hold the published tokenizers read from now on in ``cache``: any object with ``get_or_make(name, make)``
    (a server's store within a memory budget, which may release one and read it again later)."""
    global _kept
    _kept = cache


def load_pretrained(name: str) -> AnyTokenizer:
    """A published tokenizer by name (one of ``PRETRAINED``), read once and shared (``keep_published_in``).

    >>> load_pretrained("cl100k_base") is load_pretrained("cl100k_base")
    True
    """
    if name not in PUBLISHED:
        raise ValueError(f"no published tokenizer is called {name!r}: choose one of {', '.join(PRETRAINED)}")
    if PUBLISHED[name].family == GPT2_FILES:
        return load_gpt2()  # kept whole: the app's sessions load it as their model (Train's "Load GPT-2")
    return _kept.get_or_make(name, lambda: _as_published(name, _read_published(PUBLISHED[name])))


def held_bytes(name: str) -> int:
    """What the published tokenizer ``name`` holds once read, in bytes, as measured (its record's ``held_mb``).

    >>> held_bytes("cl100k_base") // 2**20
    17
    """
    return PUBLISHED[name].held_mb * 2**20


def _read_published(published: PublishedTokenizer) -> AnyTokenizer:
    paths = [DATA / file for file in published.files]
    if published.family == TOKENIZER_JSON:
        with lzma.open(paths[0]) as packed, collector_paused():
            return from_hf_json(packed.read().decode("utf-8"), name=published.title)
    ranks, cuts = paths
    with collector_paused():
        return from_ranks(
            ranks.read_text(encoding="ascii"),
            split=published.split,
            special_tokens=dict(published.special_ids),
            name=published.title,
            cuts=cuts.read_bytes(),
        )
