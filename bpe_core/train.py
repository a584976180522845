"""Training: count adjacent pairs, merge the most frequent, repeat, and record every step.

>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> [f"{s.left} {s.right}" for s in tok.steps]
['a n', 'b an', 'an a', 'ana _', 'ban ana_', 'banana_ ban']
>>> tok.steps[0].count, tok.steps[1].tied
(4, 3)

How it stays fast.  Each distinct piece is stored once, with its frequency as a
weight, and all pieces sit end to end in one doubly linked list of symbols
(``sym``/``nxt``/``prv``, one slot per base symbol).  For every pair we keep its
weighted count and the list of positions where it starts.  A merge visits only
those positions and updates the counts of the pairs around each one, so the
work per step is proportional to the occurrences it changes, not to the corpus.
The best pair comes from a heap whose entries may be stale: an entry is checked
when it reaches the top and pushed again with its current key if it changed.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .bytelevel import ALPHABET as BYTE_ALPHABET
from .config import Config, piece_symbols
from .pretokenize import check_encodable, special_segments, split_text

# A pair of ids packed into one int: the left id in the high bits.  Packed keys
# sort like (left, right) tuples, which is exactly HF's tie-break order.
_SHIFT = 32
_LOW = (1 << _SHIFT) - 1

_WORST = (float("inf"),)  # a heap key that ranks below every real one
_BEST = (float("-inf"),)  # and one that ranks above them all

STOP_MERGES = "merges"
STOP_VOCAB_SIZE = "vocab_size"
STOP_NO_PAIRS = "no_pairs"
STOP_MIN_FREQUENCY = "min_frequency"


@dataclass(frozen=True)
class Step:
    """One merge: what was merged, how often it occurred, and the race just before it.

    ``count`` is None for a model without training counts (GPT-2's published merges).
    ``tied`` is how many pairs had the winning count (1: no tie, 0: unknown).
    ``top`` holds the best ``(left, right, count)`` pairs before the step, winner first.
    """

    step: int
    left: str
    right: str
    new_token: str
    new_id: int
    count: int | None
    tied: int
    top: tuple[tuple[str, str, int], ...] = ()


ProgressCallback = Callable[[int, int], None]


def count_pieces(corpus: str | Iterable[str], config: Config) -> Counter[str]:
    """How often each pre-tokenized piece occurs, in order of first appearance.

    A string is one document; any other iterable gives one document per item
    (a list of documents, or the lines of a file).  Special tokens are cut out.

    >>> count_pieces("low low lower", Config())
    Counter({'low': 2, 'lower': 1})
    """
    documents = [corpus] if isinstance(corpus, str) else corpus
    counts: Counter[str] = Counter()
    for document in documents:
        check_encodable(document)
        for start, end, is_special in special_segments(document, config.special_tokens):
            if not is_special:
                counts.update(split_text(document[start:end], config.split))
    return counts


def base_vocabulary(config: Config, piece_counts: Iterable[str]) -> list[str]:
    """Special tokens, then base symbols in code-point order, then byte-fallback tokens."""
    if config.units == "bytes":
        symbols = list(BYTE_ALPHABET)
    else:
        seen = {symbol for piece in piece_counts for symbol in piece_symbols(piece, config)}
        symbols = sorted(seen)
        if config.unknown == "byte_fallback":
            symbols += [f"<0x{byte:02X}>" for byte in range(256) if f"<0x{byte:02X}>" not in seen]
    specials = list(config.all_special_tokens)
    clashes = set(specials) & set(symbols)
    return specials + [symbol for symbol in symbols if symbol not in clashes]


def train(
    corpus: str | Iterable[str],
    config: Config | None = None,
    *,
    merges: int | None = None,
    vocab_size: int | None = None,
    top_k: int = 20,
    progress: ProgressCallback | None = None,
):
    """Learn merges from ``corpus``; returns a :class:`~bpe_core.tokenizer.Tokenizer` with its trace.

    Give ``merges`` (how many merge steps) or ``vocab_size`` (base symbols +
    special tokens + merged tokens).  Training stops early when no pair is
    left or the best count is below ``config.min_frequency``; the tokenizer's
    ``stop_reason`` and ``stop_message`` say which.
    """
    from .tokenizer import Tokenizer  # the model module imports this one for Step

    config = config or Config()
    if (merges is None) == (vocab_size is None):
        raise ValueError("give either a number of merges or a vocabulary size")
    limit = merges if merges is not None else vocab_size
    if not isinstance(limit, int) or limit < 0:
        raise ValueError(f"the size must be a whole number of at least 0, not {limit!r}")
    if not isinstance(top_k, int) or top_k < 0:
        raise ValueError(f"top_k must be a whole number of at least 0, not {top_k!r}")

    piece_counts = count_pieces(corpus, config)
    id_to_token = base_vocabulary(config, piece_counts)
    learner = _MergeLearner(piece_counts, config, id_to_token)
    steps, stop_reason = learner.run(merges=merges, vocab_size=vocab_size, top_k=top_k, progress=progress)
    return Tokenizer(
        config=config,
        vocab={token: index for index, token in enumerate(learner.id_to_token)},
        merges=[(step.left, step.right) for step in steps],
        steps=steps,
        stop_reason=stop_reason,
        stop_message=_stop_message(stop_reason, len(steps), merges, vocab_size, learner, config),
        warnings=ambiguity_warnings(piece_counts, config),
    )


def ambiguity_warnings(piece_counts: Counter[str], config: Config) -> list[str]:
    """Settings whose marker also occurs in the text, so that decoding cannot tell them apart.

    >>> ambiguity_warnings(Counter({"snake_case": 1}), Config(end_of_word="_"))
    ["the end-of-word marker '_' also occurs inside 1 distinct word(s) of the corpus (e.g. 'snake_case'): after decoding it reads as a space"]
    """
    markers = []
    if config.end_of_word:
        markers.append(("end-of-word marker", config.end_of_word))
    if config.space_marker and config.units == "chars":
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


def _stop_message(reason, made, merges, vocab_size, learner, config) -> str:
    base = learner.base_size
    if reason == STOP_MERGES:
        return f"made the {made} merges asked for"
    if reason == STOP_VOCAB_SIZE:
        if made == 0 and vocab_size < base:
            return (
                f"vocabulary size {vocab_size} is smaller than the base vocabulary "
                f"({base} symbols and special tokens), so no merge was made"
            )
        return f"reached the vocabulary size {vocab_size} after {made} merges"
    asked = f"{merges} merges" if merges is not None else f"vocabulary size {vocab_size}"
    if reason == STOP_NO_PAIRS:
        return f"stopped after {made} merges: no pair is left to merge (asked for {asked})"
    return (
        f"stopped after {made} merges: the best pair occurs {learner.last_best_count} "
        f"time(s), below the minimum frequency {config.min_frequency} (asked for {asked})"
    )


class _MergeLearner:
    """The incremental pair index and the merge loop (see the module docstring)."""

    def __init__(self, piece_counts: Counter[str], config: Config, id_to_token: list[str]):
        self.config = config
        self.id_to_token = id_to_token
        self.token_to_id = {token: index for index, token in enumerate(id_to_token)}
        self.base_size = len(id_to_token)
        self.last_best_count = 0
        sym: list[int] = []
        nxt: list[int] = []
        prv: list[int] = []
        weight: list[int] = []
        for piece, frequency in piece_counts.items():
            ids = [self.token_to_id[symbol] for symbol in piece_symbols(piece, config)]
            start, size = len(sym), len(ids)
            sym += ids
            weight += [frequency] * size
            nxt += range(start + 1, start + size)
            nxt.append(-1)
            prv.append(-1)
            prv += range(start, start + size - 1)
        self.sym, self.nxt, self.prv, self.weight = sym, nxt, prv, weight
        counts: dict[int, int] = {}
        where: dict[int, list[int]] = {}
        for position, right in enumerate(nxt):
            if right >= 0:
                key = sym[position] << _SHIFT | sym[right]
                counts[key] = counts.get(key, 0) + weight[position]
                where.setdefault(key, []).append(position)
        self.counts, self.where = counts, where
        self.unsorted: set[int] = set()  # keys whose position list lost its order
        # How many pairs have each count: tells how many pairs tie with the winner.
        self.pairs_with_count = Counter(counts.values())
        self.first = config.tie_break == "first"
        self.contenders: dict[int, tuple[int, int, int]] = {}  # see _runners_up
        self.threshold: tuple = _BEST  # nothing ranks above it: walk the heap at the first step
        self._rebuild_heap()

    def _rebuild_heap(self) -> None:
        """One current entry per pair: drops the stale and dead entries the lazy heap collects."""
        first = self.first
        self.heap = [(-count, self._first_position(key) if first else 0, key) for key, count in self.counts.items()]
        heapq.heapify(self.heap)

    # -- the position lists ------------------------------------------------------

    def _occurs_at(self, position: int, key: int) -> bool:
        right = self.nxt[position]
        return right >= 0 and self.sym[position] == key >> _SHIFT and self.sym[right] == key & _LOW

    def _positions(self, key: int) -> list[int]:
        positions = self.where[key]
        if key in self.unsorted:
            positions.sort()
            self.unsorted.discard(key)
        return positions

    def _first_position(self, key: int) -> int:
        """The first place the pair still occurs (drops the stale places before it)."""
        positions = self._positions(key)
        stale = 0
        while not self._occurs_at(positions[stale], key):
            stale += 1
        del positions[:stale]
        return positions[0]

    # -- choosing the best pair --------------------------------------------------

    def _pop_best(self) -> tuple[int, int, int] | None:
        """Pop the best pair whose heap entry is current: ``(count, tie_key, key)``."""
        heap, counts, first = self.heap, self.counts, self.first
        while heap:
            negative_count, tie_key, key = heapq.heappop(heap)
            count = counts.get(key, 0)
            if count <= 0:
                continue
            if -negative_count == count and (not first or self._occurs_at(tie_key, key)):
                return count, tie_key, key
            heapq.heappush(heap, (-count, self._first_position(key) if first else 0, key))
        return None

    def _explore(self, wanted: int, winner_key: int) -> list[tuple[int, int, int]]:
        """The next ``wanted`` distinct pairs after the winner, read from the heap without popping.

        Best-first walk down the heap tree: a node's stored key bounds its whole
        subtree, and a stale node is queued again under its current key, so
        pairs come out in their true order.
        """
        heap, counts, first = self.heap, self.counts, self.first
        size = len(heap)
        found: list[tuple[int, int, int]] = []
        seen = {winner_key}
        frontier = [(heap[0], 0)] if heap else []  # (entry, heap index, or -1 once re-keyed)
        visited = 0
        while frontier and len(found) < wanted:
            entry, index = heapq.heappop(frontier)
            negative_count, tie_key, key = entry
            if index >= 0:
                visited += 1
                child = 2 * index + 1
                if child < size:
                    heapq.heappush(frontier, (heap[child], child))
                    if child + 1 < size:
                        heapq.heappush(frontier, (heap[child + 1], child + 1))
                count = counts.get(key, 0)
                if count <= 0 or key in seen:
                    continue
                if -negative_count != count or (first and not self._occurs_at(tie_key, key)):
                    # stale: queue it under its current key
                    heapq.heappush(frontier, ((-count, self._first_position(key) if first else 0, key), -1))
                    continue
            if key not in seen:
                seen.add(key)
                found.append(entry)
        # Dead and stale entries can pile up ahead of the live ones (with ties at count 1 and
        # tie-break "first", a growing token leaves one behind per step): clear them out.
        if visited > 4 * wanted + 100:
            self._rebuild_heap()
        return found

    def _runners_up(self, wanted: int, winner_key: int) -> list[tuple[int, int, int]]:
        """The ``wanted`` best pairs after the winner, usually without touching the heap.

        ``self.contenders`` maps every pair that ranks above ``self.threshold``
        to its current heap key: the best pairs of the last heap walk, kept
        current by ``_merge`` (a pair improves only by gaining occurrences, so
        no pair outside can overtake the threshold unseen).  While there are
        enough contenders they are the exact runners-up; otherwise walk the heap
        again for twice as many.
        """
        while True:
            contenders = self.contenders
            if len(contenders) - (winner_key in contenders) >= wanted or self.threshold == _WORST:
                best = sorted(contenders.values())[: wanted + 1]
                return [entry for entry in best if entry[2] != winner_key][:wanted]
            walked = self._explore(2 * wanted, winner_key)
            self.contenders = {entry[2]: entry for entry in walked}
            # Every pair outside the walk ranks below its last pair (or there is none).
            self.threshold = walked[-1] if len(walked) == 2 * wanted else _WORST

    def _rank_contender(self, pair: int, entry: tuple[int, int, int] | None) -> None:
        """Keep ``self.contenders`` current for a pair whose count or first place changed."""
        if entry is not None and entry <= self.threshold:
            self.contenders[pair] = entry
        else:
            self.contenders.pop(pair, None)

    def _race(self, top_k: int) -> list[tuple[int, int, int]]:
        """The winner and the runners-up, best first, as heap keys ``(-count, tie_key, key)``."""
        winner = self._pop_best()
        if winner is None:
            return []
        count, tie_key, key = winner
        return [(-count, tie_key, key)] + (self._runners_up(top_k - 1, key) if top_k > 1 else [])

    # -- merging -----------------------------------------------------------------

    def _merge(self, key: int, new_id: int) -> None:
        """Replace every occurrence of the pair, left to right, and update the pairs around it."""
        sym, nxt, prv, weight, where = self.sym, self.nxt, self.prv, self.weight, self.where
        left, right = key >> _SHIFT, key & _LOW
        delta: dict[int, int] = {}
        gained: set[int] = set()

        def add_position(pair: int, position: int) -> None:
            positions = where.get(pair)
            if positions is None:
                where[pair] = [position]
            else:
                if positions[-1] > position:
                    self.unsorted.add(pair)
                positions.append(position)
            gained.add(pair)

        for position in self._positions(key):
            after = nxt[position]
            # Skip places an earlier merge in this step consumed ("aaa": only one "aa").
            if after < 0 or sym[position] != left or sym[after] != right:
                continue
            w = weight[position]
            before, beyond = prv[position], nxt[after]
            if before >= 0:
                old = sym[before] << _SHIFT | left
                new = sym[before] << _SHIFT | new_id
                delta[old] = delta.get(old, 0) - w
                delta[new] = delta.get(new, 0) + w
                add_position(new, before)
            if beyond >= 0:
                old = right << _SHIFT | sym[beyond]
                new = new_id << _SHIFT | sym[beyond]
                delta[old] = delta.get(old, 0) - w
                delta[new] = delta.get(new, 0) + w
                add_position(new, position)
                prv[beyond] = position
            sym[position] = new_id
            sym[after] = -1
            nxt[position] = beyond
            nxt[after] = -1

        counts, histogram, contenders = self.counts, self.pairs_with_count, self.contenders
        histogram[counts.pop(key)] -= 1
        del where[key]
        contenders.pop(key, None)
        delta.pop(key, None)
        weakened = []  # contenders that lost occurrences
        for pair, change in delta.items():
            if change == 0:
                continue
            if pair in contenders and pair not in gained:
                weakened.append(pair)
            old_count = counts.get(pair, 0)
            new_count = old_count + change
            if old_count:
                histogram[old_count] -= 1
            if new_count:
                histogram[new_count] += 1
                counts[pair] = new_count
            else:
                del counts[pair]
                where.pop(pair, None)
                self.unsorted.discard(pair)
                gained.discard(pair)
        first = self.first
        for pair in gained:
            count = counts.get(pair, 0)
            if count > 0:
                entry = (-count, self._first_position(pair) if first else 0, pair)
                heapq.heappush(self.heap, entry)
                self._rank_contender(pair, entry)
        for pair in weakened:
            count = counts.get(pair, 0)
            self._rank_contender(pair, (-count, self._first_position(pair) if first else 0, pair) if count else None)

    # -- the loop ----------------------------------------------------------------

    def run(self, *, merges, vocab_size, top_k, progress) -> tuple[list[Step], str]:
        id_to_token, token_to_id = self.id_to_token, self.token_to_id
        total = merges if merges is not None else max(vocab_size - len(id_to_token), 0)
        steps: list[Step] = []
        report_every = max(total // 100, 1)
        while True:
            if merges is not None and len(steps) >= merges:
                return steps, STOP_MERGES
            if vocab_size is not None and len(id_to_token) >= vocab_size:
                return steps, STOP_VOCAB_SIZE
            race = self._race(top_k)
            if not race:
                return steps, STOP_NO_PAIRS
            negative_count, _, key = race[0]
            count = self.last_best_count = -negative_count
            if count < self.config.min_frequency:
                heapq.heappush(self.heap, race[0])
                return steps, STOP_MIN_FREQUENCY
            left, right = id_to_token[key >> _SHIFT], id_to_token[key & _LOW]
            new_token = left + right
            # A string made before by another pair keeps its id (as HF tokenizers does).
            new_id = token_to_id.get(new_token)
            if new_id is None:
                new_id = len(id_to_token)
                id_to_token.append(new_token)
                token_to_id[new_token] = new_id
            steps.append(
                Step(
                    step=len(steps) + 1,
                    left=left,
                    right=right,
                    new_token=new_token,
                    new_id=new_id,
                    count=count,
                    tied=self.pairs_with_count[count],
                    top=tuple(
                        (id_to_token[k >> _SHIFT], id_to_token[k & _LOW], -n) for n, _, k in race[:top_k]
                    ),
                )
            )
            self._merge(key, new_id)
            if progress is not None and len(steps) % report_every == 0:
                progress(len(steps), total)
