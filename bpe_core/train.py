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

from .config import Config
from .corpus import ambiguity_warnings, base_vocabulary, check_counts, count_corpus
from .gc_pause import collector_paused
from .merge_learner import MergeLearner, ProgressCallback
from .tokenizer import Tokenizer
from .trace import stop_message

MAX_SIZE = 1_000_000  # merges or vocabulary size: o200k_base, the largest real one, has 200k
MAX_TOP_K = 100  # pairs recorded per step: a race of more is not readable, and costs memory per step


def train(
    corpus: str | Iterable[str],
    config: Config | None = None,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    top_k: int = 20,
    progress: ProgressCallback | None = None,
) -> Tokenizer:
    """Learn merges from ``corpus``; returns a :class:`~bpe_core.tokenizer.Tokenizer` with its trace.

    Give ``merges`` (how many merge steps) or ``vocab_size`` (base symbols +
    special tokens + merged tokens).  Training stops early when no pair is
    left or the best count is below ``config.min_frequency``; the tokenizer's
    ``stop_reason`` and ``stop_message`` say which.
    """
    config = config or Config()
    _check_request(merges, vocab_size, top_k)
    with collector_paused():
        piece_counts, specials_seen = count_corpus(corpus, config)
        return _learn(piece_counts, specials_seen, config, merges, vocab_size, top_k, progress)


def train_from_counts(
    piece_counts: Mapping[str, int],
    config: Config | None = None,
    *,
    specials_seen: int = 0,
    merges: int | None = None,
    vocab_size: int | None = None,
    top_k: int = 20,
    progress: ProgressCallback | None = None,
) -> Tokenizer:
    """Learn merges from a table of pieces and their counts, as :func:`train` does after counting.

    Merges only need the counts, so a corpus can be counted elsewhere (in blocks, on a cluster).
    Ties are broken as from the text when the table keeps the pieces in order of first appearance;
    ``specials_seen`` (special tokens cut out while counting) only enters ``corpus_tokens``.

    >>> train_from_counts({"low": 2, "lower": 1}, merges=2).merges
    [('l', 'o'), ('lo', 'w')]
    """
    config = config or Config()
    _check_request(merges, vocab_size, top_k)
    check_counts(piece_counts, specials_seen)
    with collector_paused():
        return _learn(Counter(piece_counts), specials_seen, config, merges, vocab_size, top_k, progress)


def _check_request(merges, vocab_size, top_k) -> None:
    """Exactly one size (a whole number up to MAX_SIZE) and a valid top_k."""
    if (merges is None) == (vocab_size is None):
        raise ValueError("give either a number of merges or a vocabulary size")
    limit = merges if merges is not None else vocab_size
    if type(limit) is not int or not 0 <= limit <= MAX_SIZE:
        raise ValueError(f"the size must be a whole number from 0 to {MAX_SIZE:,}, not {limit!r}")
    check_top_k(top_k)


def _learn(
    piece_counts: Counter[str],
    specials_seen: int,
    config: Config,
    merges: int | None,
    vocab_size: int | None,
    top_k: int,
    progress: ProgressCallback | None,
) -> Tokenizer:
    """Merges, trace and tokenizer from counted pieces (the caller has paused the cycle collector)."""
    warnings = ambiguity_warnings(piece_counts, config)
    id_to_token = base_vocabulary(config, piece_counts)
    most_merges = merges if merges is not None else max(vocab_size - len(id_to_token), 0)
    learner = MergeLearner(piece_counts, config, id_to_token, len(id_to_token) + most_merges)
    steps, stop_reason = learner.run(merges=merges, vocab_size=vocab_size, top_k=top_k, progress=progress)
    message = stop_message(
        stop_reason,
        made=len(steps),
        merges=merges,
        vocab_size=vocab_size,
        base_size=learner.base_size,
        best_count=learner.last_best_count,
        min_frequency=config.min_frequency,
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
