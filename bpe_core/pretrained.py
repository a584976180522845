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
from dataclasses import dataclass
from pathlib import Path

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
    split: str = ""  # TIKTOKEN: the pre-tokenizer its ranks go with
    special_ids: tuple[tuple[str, int], ...] = ()  # TIKTOKEN: its special tokens and their ids


def _tiktoken(name: str, title: str, split: str, special_ids: dict[str, int], ranks_of: str = "") -> PublishedTokenizer:
    """A rank file's tokenizer; ``ranks_of`` names another encoding whose ranks (and cuts) it reuses."""
    files = (f"{ranks_of or name}.tiktoken", f"{ranks_of or name}.cuts")
    return PublishedTokenizer(name, title, TIKTOKEN, files, split=split, special_ids=tuple(special_ids.items()))


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


def _open_model(name: str, title: str, load_seconds: int) -> PublishedTokenizer:
    return PublishedTokenizer(name, title, TOKENIZER_JSON, (f"open/{name}.tokenizer.json.xz",), load_seconds)


PUBLISHED = {
    published.name: published
    for published in (
        PublishedTokenizer("gpt2", "GPT-2", GPT2_FILES, ("encoder.json", "vocab.bpe")),
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
        ),
        _tiktoken(
            "o200k_base", "GPT-4o and GPT-5 (o200k_base)", "gpt4o", {END_OF_TEXT: 199999, "<|endofprompt|>": 200018}
        ),
        _tiktoken("o200k_harmony", "gpt-oss (o200k_harmony)", "gpt4o", _HARMONY_SPECIALS, ranks_of="o200k_base"),
        _open_model("llama2", "Llama 2", load_seconds=1),
        _open_model("llama3", "Llama 3", load_seconds=2),
        _open_model("qwen3", "Qwen3", load_seconds=1),
        _open_model("qwen3.6", "Qwen3.5 and Qwen3.6", load_seconds=3),
        _open_model("deepseek-v3", "DeepSeek-V3", load_seconds=1),
        _open_model("deepseek-v4", "DeepSeek-V4", load_seconds=1),
        _open_model("gemma3", "Gemma 3", load_seconds=3),
        _open_model("mistral-tekken-v3", "Mistral Tekken v3", load_seconds=1),
        _open_model("claude-legacy", "Claude (legacy, before Claude 3)", load_seconds=1),
    )
}
PRETRAINED = tuple(PUBLISHED)  # the names the command line and the pages accept
OPEN_MODELS = {name: published.title for name, published in PUBLISHED.items() if published.family == TOKENIZER_JSON}


@functools.cache
def load_gpt2() -> Tokenizer:
    """GPT-2's tokenizer: byte-level, GPT-2 regex, ``<|endoftext|>`` as id 50256 (shared, read once)."""
    with collector_paused():
        return _gpt2_tokenizer()


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


@functools.cache
def load_pretrained(name: str) -> AnyTokenizer:
    """A published tokenizer by name (one of ``PRETRAINED``)."""
    if name not in PUBLISHED:
        raise ValueError(f"no published tokenizer is called {name!r}: choose one of {', '.join(PRETRAINED)}")
    published = PUBLISHED[name]
    if published.family == GPT2_FILES:
        return load_gpt2()
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
