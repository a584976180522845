"""A training corpus mixed from texts in several languages, by weight, and which languages a pair of tokens comes
from: train on 90% English and 10% Hindi, then see the premium (``bpe_core.premium``) and which language each merge
served.

The corpus is whole copies of each language's text (each copy stripped and ended by a line break, so that no piece
crosses from one copy into the next under any pre-tokenizer but ``none``, which keeps the corpus one piece), as many
as give the language its weight's share of the corpus's characters, the copies dealt out in turn (one of each
language, then again), so that none comes first by the order of the texts.

>>> texts = {"eng": "the cat", "fra": "le chat"}
>>> mix_copies({"eng": 3, "fra": 1}, characters=32, texts=texts)  # 8 characters a copy with its line break
{'eng': 3, 'fra': 1}
>>> mixed_corpus({"eng": 3, "fra": 1}, characters=32, texts=texts)
'the cat\\nle chat\\nthe cat\\nthe cat\\n'
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain

from .corpus import count_pieces
from .languages import bundled_texts
from .tokenizer import Tokenizer

DEFAULT_CHARACTERS = 100_000  # about fifty preambles: a corpus Train learns a few thousand merges from in seconds
MAX_CHARACTERS = 10_000_000


def copy_of(text: str) -> str:
    """One copy of a text as the mixed corpus holds it.

    >>> copy_of("  le chat ")
    'le chat\\n'
    """
    return text.strip() + "\n"


def mix_copies(
    weights: Mapping[str, float] | None = None,
    characters: int = DEFAULT_CHARACTERS,
    texts: Mapping[str, str] | None = None,
) -> dict[str, int]:
    """How many copies of each language's text make a corpus of about ``characters`` characters in which each
    language has its weight's share (weights need not add up to 1; a weight of 0 leaves the language out; no
    weights: every language alike).  A language given a weight gets one copy at least.  ``texts``: the bundled
    preambles unless given."""
    texts = bundled_texts() if texts is None else texts
    shares = _shares(weights if weights is not None else dict.fromkeys(texts, 1.0), texts)
    if not 1 <= characters <= MAX_CHARACTERS:
        raise ValueError(f"a mixed corpus has from 1 to {MAX_CHARACTERS:,} characters, not {characters:,}")
    return {
        language: max(1, round(share * characters / len(copy_of(texts[language]))))
        for language, share in shares.items()
    }


def _shares(weights: Mapping[str, float], texts: Mapping[str, str]) -> dict[str, float]:
    """The weights as shares adding up to 1, the languages without weight left out; refused in words."""
    for language, weight in weights.items():
        if language not in texts:
            raise ValueError(f"there is no text in the language {language!r} to mix")
        if not texts[language].strip():
            raise ValueError(f"the text of {language!r} is empty: there is nothing of it to mix")
        if not (isinstance(weight, (int, float)) and math.isfinite(weight) and weight >= 0):
            raise ValueError(f"the weight of {language!r} is {weight!r}: a weight is a number, 0 or more")
    total = sum(weights.values())
    if total <= 0:
        raise ValueError("every weight is 0: give at least one language a weight")
    return {language: weight / total for language, weight in weights.items() if weight > 0}


def mixed_corpus(
    weights: Mapping[str, float] | None = None,
    characters: int = DEFAULT_CHARACTERS,
    texts: Mapping[str, str] | None = None,
) -> str:
    """The corpus ``mix_copies`` describes, its copies dealt out in turn: the same weights give the same text."""
    texts = bundled_texts() if texts is None else texts
    copies = mix_copies(weights, characters, texts)
    rounds = max(copies.values())
    return "".join(copy_of(texts[language]) for turn in range(rounds) for language in copies if copies[language] > turn)


def pair_languages(
    tokenizer: Tokenizer,
    merges_done: int,
    pairs: Iterable[tuple[str, str]],
    texts: Mapping[str, str],
    copies: Mapping[str, int] | None = None,
) -> dict[tuple[str, str], dict[str, int]]:
    """How often each pair of tokens stands side by side in each language's text once the first ``merges_done``
    merges are made: the counts training saw before its merge ``merges_done + 1`` (a ``Step``'s ``step``), split
    by language.  ``copies``: how many copies of each text the corpus holds (``mix_copies``; one each unless
    given), so that for a model trained on ``mixed_corpus`` the languages' counts add up to the step's count.
    Languages where a pair does not occur are left out.

    >>> from bpe_core import Config, train
    >>> texts = {"eng": "then when", "deu": "denn wenn"}
    >>> tok = train(mixed_corpus(None, 20, texts), Config(), merges=2)  # e+n (4 times), then h+en (twice)
    >>> pair_languages(tok, 0, [("e", "n"), ("n", "n")], texts)
    {('e', 'n'): {'eng': 2, 'deu': 2}, ('n', 'n'): {'deu': 2}}
    >>> pair_languages(tok, 1, [("h", "en")], texts, copies={"eng": 3, "deu": 1})
    {('h', 'en'): {'eng': 6}}
    """
    prefix = tokenizer.prefix(merges_done)
    wanted: dict[tuple[str, str], dict[str, int]] = {(left, right): {} for left, right in pairs}
    # A merged token is its halves' text joined, so a pair stands only where its spelling does (the longest first:
    # one search finds any of them)
    spellings = sorted({left + right for left, right in wanted}, key=len, reverse=True)
    spelled = re.compile("|".join(map(re.escape, spellings))) if spellings else None
    for language, text in texts.items():
        times = 1 if copies is None else copies.get(language, 0)
        adjacent = _adjacent_pairs(copy_of(text), prefix, spelled) if times and spelled else Counter()
        for pair, by_language in wanted.items():
            if adjacent[pair]:
                by_language[language] = adjacent[pair] * times
    return wanted


def _adjacent_pairs(text: str, prefix: Tokenizer, spelled: re.Pattern) -> Counter[tuple[str, str]]:
    """How often each pair of ``prefix``'s tokens stands side by side in the pieces of ``text``.  Only the pieces
    whose base symbols, joined, hold a match of ``spelled`` are encoded, unless a symbol is out of the vocabulary
    (an unknown token or bytes stand for it, spelled otherwise): then every piece is."""
    pieces = count_pieces(text, prefix.config)
    symbols_of = {piece: prefix.units.symbols(piece) for piece in pieces}
    covered = prefix.vocab.keys() >= set(chain.from_iterable(symbols_of.values()))
    adjacent: Counter[tuple[str, str]] = Counter()
    for piece, frequency in pieces.items():
        if covered and not spelled.search("".join(symbols_of[piece])):
            continue
        tokens = prefix.tokenize(piece)  # a piece cuts to itself again, so it encodes alone as in the text
        for pair in zip(tokens, tokens[1:]):
            adjacent[pair] += frequency
    return adjacent


def main_languages(counts: Mapping[str, int], top: int = 3) -> list[tuple[str, float]]:
    """The languages a pair occurs in most, with their share of its occurrences, the most first (then by code).

    >>> main_languages({"eng": 1, "deu": 2, "fra": 1}, top=2)
    [('deu', 0.5), ('eng', 0.25)]
    """
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [(language, count / total) for language, count in ranked[:top]]
