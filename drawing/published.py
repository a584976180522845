"""The tokenizers a page can show, by name: the session's model, a prefix of it, and the published tokenizers
(``bpe_core.pretrained.PUBLISHED``), titled without loading them, with a line on who uses each and the words a
page shows while one loads.

>>> source_labels("Trained model", named=False)["cl100k_base"]
'GPT-4 (cl100k_base)'
"""

from __future__ import annotations

from collections.abc import Sequence

from bpe_core.pretrained import PUBLISHED
from drawing.describe import plural


def prefix_title(model_title: str, named: bool) -> str:
    """What a prefix of a model is called: of the trained model, or of a named one (a file, GPT-2).

    ``model_title`` is the model's title as the page shows it (already escaped for Markdown).

    >>> prefix_title("big.json", named=True)
    'Prefix of big.json'
    >>> prefix_title("Trained model", named=False)
    'Prefix of the trained model'
    """
    return f"Prefix of {model_title}" if named else "Prefix of the trained model"


# The published tokenizers by name, titled as their ``tok.name`` without loading them, and which models use them
# (tiktoken's model table, tiktoken/model.py); a test checks that every published tokenizer has its note.
PRETRAINED_TITLES = {name: published.title for name, published in PUBLISHED.items()}
PRETRAINED_NOTES = {
    "gpt2": "OpenAI's GPT-2 tokenizer (2019), also used as r50k_base by the first GPT-3 models.",
    "cl100k_base": "The tokenizer of GPT-4, GPT-3.5 Turbo (the first ChatGPT) and OpenAI's text-embedding-3 models.",
    "o200k_base": "The tokenizer of GPT-4o, GPT-4o mini, GPT-4.1, the o1 and o3 reasoning models and GPT-5.",
    "o200k_harmony": "The tokenizer of gpt-oss (2025), OpenAI's open-weight models: GPT-4o's ranks and split, with the "
    "chat format's special tokens (<|start|>, <|channel|>, <|message|>, <|end|>, <|call|>, <|return|>) and "
    "reserved ones up to id 201,087.",
    # What each open model's tokenizer.json asks for (bpe_core/data/open, read from the files).
    "llama2": "Meta's Llama 2 (2023): SentencePiece-style BPE over the whole text, spaces as ▁, unknown characters "
    "as their bytes (<0xE2>), 32,000 tokens.",
    "llama3": "Meta's Llama 3 (2024): GPT-4's split and bytes, 128,000 tokens; a piece that is already a token is "
    "taken whole without merging (ignore_merges).",
    "qwen3": "Alibaba's Qwen3 (2025): Unicode NFC first, a GPT-4-like split with single digits, bytes, 151,643 tokens.",
    "qwen3.6": "Alibaba's Qwen3.5 and Qwen3.6 (2026): Unicode NFC first, Qwen3's split with marks kept in words, "
    "bytes, 248,044 tokens; 33 special tokens (<|im_start|>, <think>, ...) read in text.",
    "deepseek-v3": "DeepSeek-V3 (2024): digits in groups of up to three and runs of Chinese or Japanese split apart "
    "before a GPT-style split, bytes, 128,000 tokens.",
    "deepseek-v4": "DeepSeek-V4 (2026: Pro and Flash): DeepSeek-V3's 128,000 tokens, merges and split, with 465 more "
    "added tokens (<think>, </think>, tool-call markup, placeholders).",
    "gemma3": "Google's Gemma 3 (2025): SentencePiece-style BPE over the whole text, spaces as ▁, byte fallback, "
    "262,144 tokens.",
    "mistral-tekken-v3": "Mistral's Tekken v3 (tekken_240911, 2024: Mistral NeMo, Large 2, Small 3, Pixtral): "
    "a GPT-4o-like split with single digits, bytes, 130,072 tokens after 1,000 control tokens ([INST], <s>, ...); "
    "Mistral's own library never reads those in typed text, as Encode does with Match special tokens off.",
    "claude-legacy": "The tokenizer Anthropic published for Claude models before Claude 3: Unicode NFKC first "
    "(ﬁ becomes fi), GPT-2's split and bytes, 65,000 tokens. It is not the tokenizer of Claude 3 or later: none "
    "of those is published, and only Anthropic's token-counting API counts them exactly.",
}


def source_labels(model_title: str, named: bool) -> dict[str, str]:
    """The Tokenizer choice's labels: the session's model, a prefix of it, and the published tokenizers.

    A named model (a file, GPT-2) is called the session's model, so it never shares a label with a published one.

    >>> source_labels("Trained model", named=False)["prefix"]
    'Prefix of the trained model'
    >>> source_labels("GPT-2", named=True)["model"]
    'Session model: GPT-2'
    """
    model = f"Session model: {model_title}" if named else model_title
    return {"model": model, "prefix": prefix_title(model_title, named), **PRETRAINED_TITLES}


def loading_message(name: str) -> str:
    """The spinner's words while the published tokenizer ``name`` is read for the first time.

    >>> loading_message("gemma3")
    'Loading Gemma 3 (the first time on this server, about 3 seconds)...'
    """
    published = PUBLISHED[name]
    load_time = plural(published.load_seconds, "second")
    return f"Loading {published.title} (the first time on this server, about {load_time})..."


def listed(titles: Sequence[str]) -> str:
    """Titles as a list in a sentence, "A, B and C"; a title that holds an "and" of its own joins its names with a
    slash there, so that the list's "and" is the only one and each title reads whole.

    >>> listed(["Llama 3", "Qwen3.5 and Qwen3.6", "DeepSeek-V4"])
    'Llama 3, Qwen3.5/Qwen3.6 and DeepSeek-V4'
    >>> listed(["GPT-4o and GPT-5 (o200k_base)"]), listed([])
    ('GPT-4o/GPT-5 (o200k_base)', '')
    """
    names = [in_a_list(title) for title in titles]
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else "".join(names)


def in_a_list(title: str) -> str:
    """A title as a list names it: its own "and" a slash (``listed``)."""
    return title.replace(" and ", "/")
