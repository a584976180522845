"""The corpus as training sees it: its pieces with their counts, and the base vocabulary they need.

>>> count_pieces("low low lower", Config())
Counter({'low': 2, 'lower': 1})
>>> base_vocabulary(Config(special_tokens=("<s>",)), ["low", "lower"])
['<s>', '<unk>', 'e', 'l', 'o', 'r', 'w']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from .config import Config
from .pretokenize import check_encodable, special_segments
from .pretokenizers import pretokenizer
from .units import units_for


def count_pieces(corpus: str | Iterable[str], config: Config) -> Counter[str]:
    """How often each pre-tokenized piece occurs, in order of first appearance.

    A string is one document; any other iterable gives one document per item
    (a list of documents, or the lines of a file).  Special tokens are cut out.
    """
    return count_corpus(corpus, config)[0]


def count_corpus(corpus: str | Iterable[str], config: Config) -> tuple[Counter[str], int]:
    """The pieces with their counts, and how many special tokens were cut out."""
    documents = [corpus] if isinstance(corpus, str) else corpus
    counts: Counter[str] = Counter()
    specials_seen = 0
    split, specials = pretokenizer(config.split).pieces, config.special_tokens
    for document in documents:
        check_encodable(document)
        if not specials:
            counts.update(split(document))
            continue
        for start, end, is_special in special_segments(document, specials):
            if is_special:
                specials_seen += 1
            else:
                counts.update(split(document[start:end]))
    return counts, specials_seen


def check_counts(piece_counts: Mapping[str, int], specials_seen: int) -> None:
    """A counts table as training takes it: text pieces, counts of 1 or more.

    >>> check_counts({"low": 0}, 0)
    Traceback (most recent call last):
    ...
    ValueError: a counts table holds non-empty pieces with counts of 1 or more, not 'low': 0
    """
    for piece, count in piece_counts.items():
        if not isinstance(piece, str) or not piece or type(count) is not int or count < 1:
            raise ValueError(
                f"a counts table holds non-empty pieces with counts of 1 or more, not {piece!r}: {count!r}"
            )
        check_encodable(piece)
    if type(specials_seen) is not int or specials_seen < 0:
        raise ValueError(f"specials_seen must be a whole number of 0 or more, not {specials_seen!r}")


def base_vocabulary(config: Config, piece_counts: Iterable[str]) -> list[str]:
    """Special tokens, then base symbols in code-point order, then byte-fallback tokens."""
    symbols = units_for(config).alphabet(piece_counts)
    specials = list(config.all_special_tokens)
    clashes = set(specials) & set(symbols)
    return specials + [symbol for symbol in symbols if symbol not in clashes]


def ambiguity_warnings(piece_counts: Counter[str], config: Config) -> list[str]:
    """Settings whose marker also occurs in the text, so that decoding cannot tell them apart.

    >>> ambiguity_warnings(Counter({"snake_case": 1}), Config(end_of_word="_"))  # doctest: +NORMALIZE_WHITESPACE
    ["the end-of-word marker '_' also occurs inside 1 distinct word(s) of the corpus (e.g. 'snake_case'): after
    decoding it reads as a space"]
    """
    markers = []
    if config.end_of_word:
        markers.append(("end-of-word marker", config.end_of_word))
    if config.space_marker and not config.byte_level:
        markers.append(("space marker", "Ġ"))
    warnings = []
    for what, marker in markers:
        holders = [piece for piece in piece_counts if marker in piece]
        if holders:
            warnings.append(
                f"the {what} {marker!r} also occurs inside {len(holders)} distinct word(s) of the corpus "
                f"(e.g. {holders[0][:30]!r}): after decoding it reads as a space"
            )
    return warnings
