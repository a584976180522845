"""How the pages name a model: its configuration in words, its fingerprint, and counted nouns.

>>> describe_config(Config(), short=True)
'whitespace split · characters · ties: first occurrence'
"""

from __future__ import annotations

import hashlib
import json

from bpe_core import Config, Tokenizer
from bpe_core.pretokenizers import pretokenizer

TIE_BREAK_WORDS = {"first": "first occurrence", "hf": "smallest ids (HF)", "lex": "greatest pair (lex)"}


def describe_config(config: Config, short: bool = False) -> str:
    r"""One line describing how text becomes symbols; ``short`` keeps split, units, marker and ties.

    >>> print(describe_config(Config(end_of_word="</w>", glue_marker=True, min_frequency=2)).replace(" · ", "\n"))
    whitespace split
    characters
    end-of-word </w> glued to the last character
    min frequency 2
    ties: first occurrence
    >>> describe_config(Config(split="gpt2", units="bytes", tie_break="lex"), short=True)
    'gpt2 split · bytes · ties: greatest pair (lex)'
    """
    parts = [pretokenizer(config.split).label, "bytes" if config.byte_level else "characters"]
    if config.end_of_word:
        how = "glued to the last character" if config.glue_marker else "as its own symbol"
        parts.append(f"end-of-word {config.end_of_word}" if short else f"end-of-word {config.end_of_word} {how}")
    if not short:
        parts.extend(_details(config))
    parts.append(f"ties: {TIE_BREAK_WORDS[config.tie_break]}")
    return " · ".join(parts)


def _details(config: Config) -> list[str]:
    """The settings the short description leaves out, each as words (only those that differ from plain)."""
    details = []
    if config.space_marker:
        details.append("spaces shown as Ġ")
    if config.special_tokens:
        details.append("special tokens " + " ".join(config.special_tokens))
    if not config.byte_level and config.unknown == "byte_fallback":
        details.append("byte fallback")
    if config.min_frequency > 1:
        details.append(f"min frequency {config.min_frequency}")
    return details


def model_fingerprint(model: Tokenizer) -> str:
    """A stable hash of what a model does (name, config, vocabulary, merges), to key caches of work on it.

    >>> from bpe_core import train
    >>> banana = train("banana", Config(split="none"), merges=2)
    >>> model_fingerprint(banana) == model_fingerprint(train("banana", Config(split="none"), merges=2))
    True
    >>> model_fingerprint(banana) == model_fingerprint(banana.prefix(1))
    False
    """
    payload = json.dumps([model.name, model.config.to_dict(), sorted(model.vocab.items()), model.merges])
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


def text_digest(text: str) -> str:
    """A stable hash of a text (lone surrogates included), to key caches of work on it.

    >>> text_digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def plural(count: int, noun: str) -> str:
    """``1 word``, ``2,000 words``.

    >>> plural(1, "word"), plural(2000, "piece")
    ('1 word', '2,000 pieces')
    """
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def times(count: int) -> str:
    """How often something occurs, in words.

    >>> times(1), times(6), times(2000)
    ('once', '6 times', '2,000 times')
    """
    return "once" if count == 1 else f"{count:,} times"


def model_size(tok: Tokenizer) -> str:
    """A model's size in words: its merges and its vocabulary.

    >>> from bpe_core import Config, train
    >>> model_size(train("aaab", Config(split="none"), merges=1))  # a, b, aa and <unk>
    '1 merge, vocabulary of 4 tokens'
    """
    return f"{plural(len(tok.merges), 'merge')}, vocabulary of {plural(len(tok.vocab), 'token')}"
