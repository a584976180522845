"""Textbook BPE: count every adjacent pair, merge the most frequent everywhere, repeat.

Read this first.  It recounts the whole corpus before every merge, so it is slow
and obviously right; the tests hold the fast trainer (``train``) to it.  It
shares nothing with the fast engine except the pre-tokenizer (the splits and
GPT-2's byte-to-character table, which HF tokenizers also counts as part of its
ByteLevel pre-tokenizer): the symbols, the counting, the tie-breaks, the
vocabulary ids and the encoder are written again here from the definition.

Sennrich et al. (2016): a corpus as words with an end-of-word marker and their counts.

>>> words = {("l", "o", "w", "</w>"): 5, ("l", "o", "w", "e", "r", "</w>"): 2,
...          ("n", "e", "w", "e", "s", "t", "</w>"): 6, ("w", "i", "d", "e", "s", "t", "</w>"): 3}
>>> stats = get_stats(words)
>>> stats[("e", "s")], stats[("s", "t")], stats[("l", "o")]
(9, 9, 7)
>>> merge(("n", "e", "w", "e", "s", "t", "</w>"), ("e", "s"))
('n', 'e', 'w', 'es', 't', '</w>')

The whole text as one sequence:

>>> from bpe_core import Config
>>> train_merges("banana_bandana_", Config(split="none"), merges=6)
[('a', 'n'), ('b', 'an'), ('an', 'a'), ('ana', '_'), ('ban', 'ana_'), ('banana_', 'ban')]
>>> encode("bandana_", train_merges("banana_bandana_", Config(split="none"), merges=4), Config(split="none"))
['ban', 'd', 'ana_']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .bytelevel import BYTE_TO_CHAR
from .config import Config
from .pretokenize import special_segments, split_text

Word = tuple[str, ...]
Pair = tuple[str, str]


def get_stats(words: dict[Word, int]) -> Counter[Pair]:
    """How often each adjacent pair occurs, each word counted as often as it occurs.

    Pairs are listed in the order they first occur (the ``first`` tie-break relies on it).
    """
    stats: Counter[Pair] = Counter()
    for word, frequency in words.items():
        for pair in zip(word, word[1:]):
            stats[pair] += frequency
    return stats


def merge(word: Word, pair: Pair) -> Word:
    """Every occurrence of ``pair`` in ``word`` joined into one symbol, left to right."""
    out: list[str] = []
    index = 0
    while index < len(word):
        if word[index : index + 2] == pair:
            out.append(pair[0] + pair[1])
            index += 2
        else:
            out.append(word[index])
            index += 1
    return tuple(out)


def symbols(piece: str, config: Config) -> Word:
    """A piece as base symbols: its UTF-8 bytes as GPT-2's stand-ins, or its characters
    (a space shown as ``Ġ`` if asked) with the end-of-word marker last or glued on.

    >>> symbols("low", Config(end_of_word="</w>", glue_marker=True)), symbols(" a", Config(units="bytes"))
    (('l', 'o', 'w</w>'), ('Ġ', 'a'))
    """
    if config.byte_level:
        return tuple(BYTE_TO_CHAR[byte] for byte in piece.encode("utf-8"))
    chars = [("Ġ" if char == " " and config.space_marker else char) for char in piece]
    if config.end_of_word and chars:
        if config.glue_marker:
            chars[-1] += config.end_of_word
        else:
            chars.append(config.end_of_word)
    return tuple(chars)


def words_of(corpus: str | Iterable[str], config: Config) -> dict[Word, int]:
    """Every distinct piece of the corpus as base symbols, with how often it occurs (first seen first).

    A string is one text; any other iterable holds one text per item.  Special tokens are cut out.
    """
    texts = [corpus] if isinstance(corpus, str) else list(corpus)
    words: dict[Word, int] = {}
    for text in texts:
        for start, end, is_special in special_segments(text, config.special_tokens):
            if is_special:
                continue
            for piece in split_text(text[start:end], config.split):
                word = symbols(piece, config)
                words[word] = words.get(word, 0) + 1
    return words


def base_vocabulary(words: dict[Word, int], config: Config) -> list[str]:
    """Ids in HF's order: special tokens (``<unk>`` last if used), then base symbols by code point,
    then the byte-fallback tokens the corpus does not hold."""
    if config.byte_level:
        alphabet = sorted(BYTE_TO_CHAR)
    else:
        seen = {symbol for word in words for symbol in word}
        alphabet = sorted(seen)
        if config.end_of_word and config.glue_marker:  # HF: every character, then those carrying the marker
            ends = {word[-1] for word in words if word}
            characters = {symbol for word in words for symbol in word[:-1]}
            characters |= {symbol[: -len(config.end_of_word)] for symbol in ends}
            alphabet = sorted(characters) + sorted(ends - characters)
        if config.unknown == "byte_fallback":
            alphabet += [f"<0x{byte:02X}>" for byte in range(256) if f"<0x{byte:02X}>" not in seen]
    specials = list(config.special_tokens)
    if not config.byte_level and config.unknown == "unk" and "<unk>" not in specials:
        specials.append("<unk>")
    return specials + [symbol for symbol in alphabet if symbol not in specials]


def train_merges(
    corpus: str | Iterable[str], config: Config, *, merges: int | None = None, vocab_size: int | None = None
) -> list[Pair]:
    """The merges BPE learns, recounting everything before each one (see :func:`learn`)."""
    return learn(corpus, config, merges=merges, vocab_size=vocab_size)[0]


def learn(
    corpus: str | Iterable[str], config: Config, *, merges: int | None = None, vocab_size: int | None = None
) -> tuple[list[Pair], dict[str, int]]:
    """The merges BPE learns and the vocabulary (token -> id) they make.

    Ties: ``first`` takes the pair that occurs first in the corpus; ``hf`` the pair of smallest
    ids (left, then right), as HF tokenizers does; ``lex`` the greatest pair.  A merge that
    spells a token the vocabulary already has keeps that token's id.

    >>> learn("aab", Config(split="none"), merges=1)
    ([('a', 'a')], {'<unk>': 0, 'a': 1, 'b': 2, 'aa': 3})
    """
    words = words_of(corpus, config)
    vocab = {token: index for index, token in enumerate(base_vocabulary(words, config))}
    learned: list[Pair] = []
    while (merges is None or len(learned) < merges) and (vocab_size is None or len(vocab) < vocab_size):
        stats = get_stats(words)
        if not stats:
            break
        best_count = max(stats.values())
        if best_count < config.min_frequency:
            break
        tied = [pair for pair, count in stats.items() if count == best_count]  # in order of first occurrence
        best = _break_tie(tied, vocab, config)
        learned.append(best)
        vocab.setdefault(best[0] + best[1], len(vocab))
        words = _merge_everywhere(words, best)
    return learned, vocab


def _break_tie(tied: list[Pair], vocab: dict[str, int], config: Config) -> Pair:
    """``first``: the first to occur; ``hf``: the smallest ids; ``lex``: the greatest (left, right),
    compared as the bytes they stand for in byte-level mode and as strings otherwise."""
    if config.tie_break == "hf":
        return min(tied, key=lambda pair: (vocab[pair[0]], vocab[pair[1]]))
    if config.tie_break == "lex":
        spelled = _as_bytes if config.byte_level else str
        return max(tied, key=lambda pair: (spelled(pair[0]), spelled(pair[1])))
    return tied[0]


_BYTE_OF = {char: byte for byte, char in enumerate(BYTE_TO_CHAR)}


def _as_bytes(token: str) -> bytes:
    return bytes(_BYTE_OF[char] for char in token)


def _merge_everywhere(words: dict[Word, int], pair: Pair) -> dict[Word, int]:
    merged: dict[Word, int] = {}
    for word, frequency in words.items():
        new = merge(word, pair)
        merged[new] = merged.get(new, 0) + frequency
    return merged


def encode(text: str, merges: list[Pair], config: Config) -> list[str]:
    """The tokens of ``text``: each piece's base symbols, then every merge in the order it was
    learned, applied everywhere.  Special tokens stay whole; no symbol is checked against a vocabulary."""
    tokens: list[str] = []
    for start, end, is_special in special_segments(text, config.special_tokens):
        if is_special:
            tokens.append(text[start:end])
            continue
        for piece in split_text(text[start:end], config.split):
            word = symbols(piece, config)
            for pair in merges:
                word = merge(word, pair)
            tokens += word
    return tokens
