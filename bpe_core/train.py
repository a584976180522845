"""Training: count adjacent pairs, merge the most frequent, repeat, and record every step.

>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> [f"{s.left} {s.right}" for s in tok.steps]
['a n', 'b an', 'an a', 'ana _', 'ban ana_', 'banana_ ban']
>>> tok.steps[0].count, tok.steps[1].tied
(4, 3)

The incremental algorithm that makes it fast is ``merge_learner.MergeLearner``'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import cast

from .config import Config
from .corpus import ambiguity_warnings, base_vocabulary, check_counts, count_corpus
from .gc_pause import collector_paused
from .merge_learner import MergeLearner, ProgressCallback
from .tokenizer import Tokenizer
from .trace import stop_message

MAX_SIZE = 1_000_000  # merges or vocabulary size: o200k_base, the largest real one, has 200k
MAX_TOP_K = 100  # pairs recorded per step: a race of more is not readable, and costs memory per step
# The merged tokens' text, all together, at most: the largest published vocabularies hold about 1.5 million
# characters (o200k_base 1,397,698, Gemma 3 1,476,620). A corpus whose pairs all occur once (one long byte sequence)
# glues ever longer neighbours, so its vocabulary's text, and the memory, grow with the square of the merges.
MAX_VOCAB_CHARS = 4_000_000


def train(
    corpus: str | Iterable[str],
    config: Config | None = None,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    top_k: int = 20,
    progress: ProgressCallback | None = None,
    max_vocab_chars: int = MAX_VOCAB_CHARS,
) -> Tokenizer:
    """Learn merges from ``corpus``; returns a :class:`~bpe_core.tokenizer.Tokenizer` with its trace.

    Give ``merges`` (how many merge steps) or ``vocab_size`` (base symbols +
    special tokens + merged tokens).  Training stops early when no pair is
    left, the best count is below ``config.min_frequency``, or the next merged
    token would take the merged tokens' text past ``max_vocab_chars`` characters;
    the tokenizer's ``stop_reason`` and ``stop_message`` say which.

    >>> [len(step.new_token) for step in train("banana_bandana_", Config(split="none"), merges=6).steps]
    [2, 3, 3, 4, 7, 10]
    >>> capped = train("banana_bandana_", Config(split="none"), merges=6, max_vocab_chars=12)
    >>> len(capped.merges), capped.stop_reason  # 2 + 3 + 3 + 4 = 12 characters; a 7th would pass the cap
    (4, 'vocab_text')
    """
    config = config or Config()
    _check_request(merges, vocab_size, top_k, max_vocab_chars)
    with collector_paused():
        piece_counts, specials_seen = count_corpus(corpus, config)
        return _learn(piece_counts, specials_seen, config, merges, vocab_size, top_k, progress, max_vocab_chars)


def train_from_counts(
    piece_counts: Mapping[str, int],
    config: Config | None = None,
    *,
    specials_seen: int = 0,
    merges: int | None = None,
    vocab_size: int | None = None,
    top_k: int = 20,
    progress: ProgressCallback | None = None,
    max_vocab_chars: int = MAX_VOCAB_CHARS,
) -> Tokenizer:
    """Learn merges from a table of pieces and their counts, as :func:`train` does after counting.

    Merges only need the counts, so a corpus can be counted elsewhere (in blocks, on a cluster).
    Ties are broken as from the text when the table keeps the pieces in order of first appearance;
    ``specials_seen`` (special tokens cut out while counting) only enters ``corpus_tokens``.

    >>> train_from_counts({"low": 2, "lower": 1}, merges=2).merges
    [('l', 'o'), ('lo', 'w')]
    """
    config = config or Config()
    _check_request(merges, vocab_size, top_k, max_vocab_chars)
    check_counts(piece_counts, specials_seen)
    with collector_paused():
        return _learn(
            Counter(piece_counts), specials_seen, config, merges, vocab_size, top_k, progress, max_vocab_chars
        )


def _check_request(merges, vocab_size, top_k, max_vocab_chars) -> None:
    """Exactly one size (a whole number up to MAX_SIZE), a valid top_k and a whole number of characters."""
    if (merges is None) == (vocab_size is None):
        raise ValueError("give either a number of merges or a vocabulary size")
    limit = merges if merges is not None else vocab_size
    if type(limit) is not int or not 0 <= limit <= MAX_SIZE:
        raise ValueError(f"the size must be a whole number from 0 to {MAX_SIZE:,}, not {limit!r}")
    check_top_k(top_k)
    if type(max_vocab_chars) is not int or max_vocab_chars < 0:
        raise ValueError(f"the vocabulary's text cap must be a whole number of characters, not {max_vocab_chars!r}")


def _learn(
    piece_counts: Counter[str],
    specials_seen: int,
    config: Config,
    merges: int | None,
    vocab_size: int | None,
    top_k: int,
    progress: ProgressCallback | None,
    max_vocab_chars: int,
) -> Tokenizer:
    """Merges, trace and tokenizer from counted pieces (the caller has paused the cycle collector)."""
    warnings = ambiguity_warnings(piece_counts, config)
    id_to_token = base_vocabulary(config, piece_counts)
    # train() has checked that exactly one of merges and vocab_size is given
    most_merges = merges if merges is not None else max(cast(int, vocab_size) - len(id_to_token), 0)
    learner = MergeLearner(piece_counts, config, id_to_token, len(id_to_token) + most_merges)
    steps, stop_reason = learner.run(
        merges=merges, vocab_size=vocab_size, top_k=top_k, progress=progress, max_vocab_chars=max_vocab_chars
    )
    message = stop_message(
        stop_reason,
        made=len(steps),
        merges=merges,
        vocab_size=vocab_size,
        base_size=learner.base_size,
        best_count=learner.last_best_count,
        min_frequency=config.min_frequency,
        max_vocab_chars=max_vocab_chars,
    )
    base_size = learner.base_size
    corpus_tokens = learner.live_symbols() + specials_seen
    del learner  # its pair index grows with the corpus: free it before the tokenizer is built
    return Tokenizer(
        config=config,
        vocab={token: index for index, token in enumerate(id_to_token)},
        merges=[(step.left, step.right) for step in steps],
        steps=steps,
        stop_reason=stop_reason,
        stop_message=message,
        warnings=warnings,
        base_size=base_size,
        corpus_tokens=corpus_tokens,
    )


def check_top_k(top_k) -> None:
    """How many pairs a step may record: a whole number from 0 to MAX_TOP_K."""
    if type(top_k) is not int or not 0 <= top_k <= MAX_TOP_K:
        raise ValueError(f"top_k must be a whole number from 0 to {MAX_TOP_K}, not {top_k!r}")
