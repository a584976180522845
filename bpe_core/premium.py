"""The token premium: what a tokenizer charges a language for the same content.  For a tokenizer and a language,
the tokens of that language's text divided by the tokens of the reference language's (English unless chosen),
with bytes and characters per token beside it.  Measured on texts that say the same thing in each language, such
as the bundled preambles (``bpe_core.languages``); Petrov et al. (NeurIPS 2023) measure it this way on FLORES-200.

A text is counted as text: a special token's spelling in it is ordinary text, and no model's own tokens (Llama's
``<s>``) are added, as tiktoken's ``encode_ordinary`` and HF's ``encode(..., add_special_tokens=False)`` count.

>>> from bpe_core import Config, train
>>> tok = train("aaaa aaaa aaaa aaaa b", Config(), merges=2)  # a+a, then aa+aa: aaaa is one token, bbbb four
>>> for row in premium_rows(tok, {"a": "aaaa", "b": "bbbb"}, reference="a"):
...     print(row.language, row.tokens, row.premium, row.bytes_per_token, row.characters_per_token)
a 1 1.0 4.0 4.0
b 4 4.0 1.0 1.0
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass

from .languages import ENGLISH
from .rank_tokenizer import AnyTokenizer

_COUNTS: weakref.WeakKeyDictionary[AnyTokenizer, dict[str, int]] = weakref.WeakKeyDictionary()
_COUNTS_LOCK = threading.Lock()  # pages count on several threads; the dicts' updates stay whole under it
_COUNTS_PER_TOKENIZER = 1_000  # distinct texts remembered for one tokenizer (the bundled ones are 58)


@dataclass(frozen=True)
class PremiumRow:
    """One language under one tokenizer."""

    language: str  # the code its text was given under
    tokens: int
    premium: float  # tokens / the reference language's tokens
    bytes_per_token: float  # UTF-8 bytes
    characters_per_token: float  # code points


def token_count(tokenizer: AnyTokenizer, text: str) -> int:
    """How many tokens ``text`` takes, counted once per tokenizer object and text: a published tokenizer is one
    object shared by every page (``load_pretrained``), so what one page counted another reuses.  The counts live as
    long as their tokenizer does.

    >>> from bpe_core import load_gpt2
    >>> token_count(load_gpt2(), "Hello, world!"), token_count(load_gpt2(), "<|endoftext|>")
    (4, 7)
    """
    with _COUNTS_LOCK:
        counts = _COUNTS.setdefault(tokenizer, {})
        known = counts.get(text)
    if known is not None:
        return known
    count = len(tokenizer.encode(text, special=False))  # outside the lock: another tokenizer need not wait
    with _COUNTS_LOCK:
        if len(counts) >= _COUNTS_PER_TOKENIZER:
            counts.clear()
        counts[text] = count
    return count


def token_counts(tokenizer: AnyTokenizer, texts: Mapping[str, str]) -> dict[str, int]:
    """``token_count`` of each text, by the same keys."""
    return {language: token_count(tokenizer, text) for language, text in texts.items()}


def premium_rows(tokenizer: AnyTokenizer, texts: Mapping[str, str], reference: str = ENGLISH) -> list[PremiumRow]:
    """Each language's row under ``tokenizer``, the cheapest first (see ``rows_from_counts``)."""
    check_texts(texts, reference)
    return rows_from_counts(token_counts(tokenizer, texts), texts, reference)


def check_texts(texts: Mapping[str, str], reference: str) -> None:
    """Refuse, in words, texts without the reference language, with an empty text or one that is not UTF-8 (a lone
    surrogate, which JSON can spell): a premium needs a text in each language, the reference's among them.

    >>> check_texts({"eng": "Whereas", "fra": " "}, "eng")
    Traceback (most recent call last):
    ...
    ValueError: the text of 'fra' is empty: a premium needs a text in every language
    >>> check_texts({"fra": "Considérant"}, "eng")
    Traceback (most recent call last):
    ...
    ValueError: there is no text in the reference language 'eng' (the texts are in fra)
    """
    if reference not in texts:
        raise ValueError(
            f"there is no text in the reference language {reference!r} (the texts are in {', '.join(texts) or 'none'})"
        )
    for language, text in texts.items():
        if not text.strip():
            raise ValueError(f"the text of {language!r} is empty: a premium needs a text in every language")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(
                f"the text of {language!r} holds a lone surrogate U+{ord(text[error.start]):04X} at position "
                f"{error.start}: it is not a character"
            ) from None


def rows_from_counts(counts: Mapping[str, int], texts: Mapping[str, str], reference: str = ENGLISH) -> list[PremiumRow]:
    """The rows for token counts already made (a prefix of a model's merges, say: Compare's curves count every
    vocabulary size at once), sorted by premium, then by code.  A text of no tokens has no premium: refused.

    >>> [row.premium for row in rows_from_counts({"eng": 4, "hin": 10}, {"eng": "abcd", "hin": "कखगघ"}, "eng")]
    [1.0, 2.5]
    """
    check_texts(texts, reference)
    for language, count in counts.items():
        if count == 0:
            raise ValueError(f"the text of {language!r} takes no tokens: a premium needs at least one")
    rows = [
        PremiumRow(
            language,
            count,
            count / counts[reference],
            len(texts[language].encode("utf-8")) / count,
            len(texts[language]) / count,
        )
        for language, count in counts.items()
    ]
    return sorted(rows, key=lambda row: (row.premium, row.language))
