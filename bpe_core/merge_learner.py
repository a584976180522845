r"""The merge loop of ``train``, incremental: each merge updates only the pairs around the places it changes.

>>> from collections import Counter
>>> from bpe_core.config import Config
>>> learner = MergeLearner(Counter({"banana_bandana_": 1}), Config(split="none"), list("_abdn"), 11)
>>> steps, stop = learner.run(merges=2, vocab_size=None, top_k=3, progress=None, max_vocab_chars=100)
>>> [(step.left, step.right, step.count) for step in steps], stop
([('a', 'n', 4), ('b', 'an', 2)], 'merges')

How it stays fast.  Each distinct piece is stored once, with its frequency as a
weight, and all pieces sit end to end in one doubly linked list of symbols
(``sym``/``nxt``/``prv``, one slot per base symbol).  For every pair we keep its
weighted count and the list of positions where it starts.  A merge visits only
those positions and updates the counts of the pairs around each one, so the
work per step is proportional to the occurrences it changes, not to the corpus.
The best pairs sit ranked in a small pool that the merges keep current; every
other pair waits in a heap whose entries may be out of date (an entry is checked
when it is popped to refill the pool, and pushed again if its pair changed).
Sorting the small pool gives each step's race, the top-K pairs, without a search.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial
from itertools import compress, islice, repeat
from operator import le, lshift, or_

from .config import Config
from .trace import STOP_MERGES, STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB_SIZE, STOP_VOCAB_TEXT, Ranking, Step
from .units import units_for

_WORST = (float("inf"),)  # a ranking entry below every real one
_BEST = (float("-inf"),)  # and one that ranks above them all

ProgressCallback = Callable[[int, int], None]


class _Descending:
    """A value that sorts in reverse order, so that the greatest comes first in a min-heap."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.value == other.value

    def __lt__(self, other: _Descending) -> bool:
        return self.value > other.value

    def __le__(self, other: _Descending) -> bool:
        return self.value >= other.value


class MergeLearner:
    """The incremental pair index and the merge loop (see the module docstring)."""

    def __init__(self, piece_counts: Counter[str], config: Config, id_to_token: list[str], id_limit: int):
        self.config = config
        # A pair of ids is packed into one int, the left id in the high bits: packed keys sort
        # like (left, right) tuples, which is HF's tie-break order.  Keys kept below 2**30
        # (ids below 2**15) are single-digit ints for CPython, which makes the loop faster.
        self.shift = shift = max(id_limit - 1, 1).bit_length()
        self.low = (1 << shift) - 1
        self.id_to_token = id_to_token
        self.token_to_id = {token: index for index, token in enumerate(id_to_token)}
        self.base_size = len(id_to_token)
        self.last_best_count = 0
        sym: list[int] = []
        weight: list[int] = []
        ends: list[int] = []  # the last place of each piece
        symbols_of, to_id = units_for(config).symbols, self.token_to_id.__getitem__
        for piece, frequency in piece_counts.items():
            ids = list(map(to_id, symbols_of(piece)))
            sym += ids
            weight += [frequency] * len(ids)
            ends.append(len(sym) - 1)
        # Every place links to its neighbours, except across the ends of pieces.
        nxt, prv = list(range(1, len(sym) + 1)), list(range(-1, len(sym)))  # prv: one slot too many
        # A pair starts at every place but the last of a piece (those keys cross into the next piece).
        keys = list(map(or_, map(lshift, sym, repeat(shift)), islice(sym, 1, None)))
        keys.append(-1)
        for end in ends:
            nxt[end] = prv[end + 1] = keys[end] = -1
        prv.pop()  # the slot after the last piece
        self.sym, self.nxt, self.prv, self.weight = sym, nxt, prv, weight
        where: defaultdict[int, list[int]] = defaultdict(list)
        for position, key in enumerate(keys):
            where[key].append(position)
        del where[-1]
        counts = {key: sum(map(weight.__getitem__, places)) for key, places in where.items()}
        self.counts, self.where = counts, where
        self.unsorted: set[int] = set()  # keys whose position list lost its order
        # How many pairs have each count: tells how many pairs tie with the winner.
        self.pairs_with_count = Counter(counts.values())
        self.first = config.tie_break == "first"
        self.lex = config.tie_break == "lex"
        self.token_bytes = units_for(config).token_bytes  # lex compares byte-level tokens as bytes
        # The best pairs sit in ``pool`` (key -> current ranking entry), the rest in a lazy heap
        # (see _refill); ``threshold`` is the worst entry the pool is sure to hold.
        self.pool: dict[int, tuple[int, int, int]] = {}
        self.threshold: tuple = _BEST
        self.heap = [self._entry(key, count) for key, count in counts.items()]
        heapq.heapify(self.heap)

    def _entry(self, key: int, count: int) -> tuple:
        """The ranking entry of a pair: sorts best first, like HF's or the textbook's ``max``.

        Among equal counts: ``first`` ranks by the first place the pair occurs, ``lex`` puts the
        greatest (left, right) first, and ``hf`` leaves it to the key (the smallest ids)."""
        if self.first:
            return (-count, self._first_position(key), key)
        if self.lex:
            names = self.id_to_token
            return (
                -count,
                _Descending((self.token_bytes(names[key >> self.shift]), self.token_bytes(names[key & self.low]))),
                key,
            )
        return (-count, 0, key)

    # -- the position lists ------------------------------------------------------

    def _occurs_at(self, position: int, key: int) -> bool:
        right = self.nxt[position]
        return right >= 0 and self.sym[position] == key >> self.shift and self.sym[right] == key & self.low

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

    # -- choosing the best pairs -------------------------------------------------

    def _refill(self, size: int) -> None:
        """Move pairs from the heap into the pool, best first, until the pool holds ``size``.

        The pool holds every pair that ranks at or above ``threshold``, each under its
        current entry (``_merge`` keeps it so).  A pair outside it has a heap entry that
        ranks at least as high as the pair does now: its count and first place only get
        worse without a new entry being pushed.  So popping the heap in order, and
        pushing back the entries found out of date, yields the next pairs in true order.
        """
        heap, pool, counts, first = self.heap, self.pool, self.counts, self.first
        threshold = self.threshold
        while heap and len(pool) < size:
            entry = heapq.heappop(heap)
            negative_count, tie_key, key = entry
            count = counts.get(key, 0)
            if not count or key in pool:
                continue  # a merged pair, or a second entry of a pair already in the pool
            if -negative_count != count or (first and not self._occurs_at(tie_key, key)):
                heapq.heappush(heap, self._entry(key, count))  # out of date: rank it again
                continue
            pool[key] = threshold = entry
        self.threshold = threshold if heap else _WORST  # an empty heap: every pair is in the pool

    def _ranking(self, top_k: int) -> list[tuple[int, int, int]]:
        """The winner and the runners-up, best first, as entries ``(-count, tie_key, key)``."""
        wanted = max(top_k, 1)
        if len(self.pool) < wanted and self.threshold is not _WORST:
            self._refill(2 * wanted + 8)
        if wanted == 1:
            return [min(self.pool.values())] if self.pool else []
        return sorted(self.pool.values())[:wanted]

    # -- merging -----------------------------------------------------------------

    def _merge(self, key: int, new_id: int, reused: bool) -> None:
        """Replace every occurrence of the pair, left to right, and update the pairs around it.

        ``reused``: ``new_id`` names a token made before, so pairs holding it may already
        exist, with positions out of order and with entries to refresh.
        """
        before_new, after_new = self._replace_occurrences(key, new_id)
        delta = self._count_changes(key, new_id, before_new, after_new)
        self.pairs_with_count[self.counts.pop(key)] -= 1
        del self.where[key]
        self.pool.pop(key, None)
        delta.pop(key, None)
        if reused:
            self.unsorted.update(delta)
        self._apply_changes(delta, reused)

    def _replace_occurrences(self, key: int, new_id: int) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """Write ``new_id`` over each occurrence of the pair and link past its right half.

        Returns the places of the new pairs, grouped by the symbol on their other side: (x, new) starts where x is,
        (new, y) where the merged pair is.  Grouping turns two count updates per occurrence into one per neighbour;
        the places arrive in order, as positions are visited.
        """
        sym, nxt, prv = self.sym, self.nxt, self.prv
        left, right = key >> self.shift, key & self.low
        before_new: defaultdict[int, list[int]] = defaultdict(list)
        after_new: defaultdict[int, list[int]] = defaultdict(list)
        for position in self._positions(key):
            after = nxt[position]
            # Skip places an earlier merge in this step consumed ("aaa": only one "aa").
            if after < 0 or sym[position] != left or sym[after] != right:
                continue
            before, beyond = prv[position], nxt[after]
            if before >= 0:
                before_new[sym[before]].append(before)
            if beyond >= 0:
                after_new[sym[beyond]].append(position)
                prv[beyond] = position
            sym[position] = new_id
            sym[after] = -1  # marks the place consumed (its stale nxt is never followed)
            nxt[position] = beyond
        return before_new, after_new

    def _count_changes(
        self, key: int, new_id: int, before_new: dict[int, list[int]], after_new: dict[int, list[int]]
    ) -> dict[int, int]:
        """How the count of each pair around the merged places changes (pair -> change), their places listed."""
        shift = self.shift
        left, right = key >> shift, key & self.low
        delta: dict[int, int] = {}
        for x, places in before_new.items():
            self._move(delta, x << shift | left, x << shift | new_id, places)
        for y, places in after_new.items():
            self._move(delta, right << shift | y, new_id << shift | y, places)
        return delta

    def _apply_changes(self, delta: dict[int, int], reused: bool) -> None:
        """Each changed pair's new count, in the counts, the histogram and the ranking (pool or heap)."""
        counts, histogram, pool, unsorted, where = (
            self.counts,
            self.pairs_with_count,
            self.pool,
            self.unsorted,
            self.where,
        )
        threshold = self.threshold
        for pair, change in delta.items():
            if not change and not reused:
                continue  # made and undone within this step ("abab": the "ab a" in between); its
                # stale place stays listed in `where`, harmless like every stale place
            old_count = counts.get(pair, 0)
            count = old_count + change
            if old_count:
                histogram[old_count] -= 1
            if not count:
                counts.pop(pair, None)
                where.pop(pair, None)
                unsorted.discard(pair)
                pool.pop(pair, None)
                continue
            histogram[count] += 1
            counts[pair] = count
            # A pair that only lost occurrences keeps its heap entry, which now ranks too
            # high (see _refill); one that gained, or that sits in the pool, is ranked again.
            if change > 0 or reused or pair in pool:
                entry = self._entry(pair, count)
                if entry <= threshold:
                    pool[pair] = entry
                else:
                    pool.pop(pair, None)
                    heapq.heappush(self.heap, entry)

    def _move(self, delta: dict[int, int], lost: int, gained: int, places: list[int]) -> None:
        """The pair ``lost`` becomes ``gained`` at ``places``: move their weight and list the places."""
        weight = self.weight
        w = weight[places[0]] if len(places) == 1 else sum(map(weight.__getitem__, places))  # mostly one
        delta[lost] = delta.get(lost, 0) - w  # with x the new token ("abab"), (new, left) was gained
        delta[gained] = delta.get(gained, 0) + w  # on the right of the occurrence before
        where = self.where
        if gained in where:
            where[gained] += places  # a reused token's pair: sorted again before use (`unsorted`)
        else:
            where[gained] = places

    # -- the loop ----------------------------------------------------------------

    def live_symbols(self) -> int:
        """How many tokens the corpus is now cut into: every symbol left, as often as its piece occurs."""
        return sum(compress(self.weight, map(partial(le, 0), self.sym)))  # symbol >= 0: not consumed

    def run(self, *, merges, vocab_size, top_k, progress, max_vocab_chars) -> tuple[list[Step], str]:
        """Merge until a stop; ``max_vocab_chars`` caps the characters of all merged tokens together (a corpus whose
        pairs all occur once would otherwise make tokens that grow with every merge, and memory with their square)."""
        id_to_token, token_to_id = self.id_to_token, self.token_to_id
        total = merges if merges is not None else max(vocab_size - len(id_to_token), 0)
        steps: list[Step] = []
        vocab_chars = 0  # the merged tokens' text so far
        report_every = max(total // 100, 1)
        while True:
            if merges is not None and len(steps) >= merges:
                return steps, STOP_MERGES
            if vocab_size is not None and len(id_to_token) >= vocab_size:
                return steps, STOP_VOCAB_SIZE
            ranking = self._ranking(top_k)
            if not ranking:
                return steps, STOP_NO_PAIRS
            negative_count, _, key = ranking[0]
            count = self.last_best_count = -negative_count
            if count < self.config.min_frequency:
                return steps, STOP_MIN_FREQUENCY
            left, right = id_to_token[key >> self.shift], id_to_token[key & self.low]
            new_token = left + right
            # A string made before by another pair keeps its id (as HF tokenizers does).
            new_id = token_to_id.get(new_token)
            reused = new_id is not None
            if new_id is None:
                vocab_chars += len(new_token)
                if vocab_chars > max_vocab_chars:
                    return steps, STOP_VOCAB_TEXT
                new_id = len(id_to_token)
                id_to_token.append(new_token)
                token_to_id[new_token] = new_id
            steps.append(
                Step(
                    len(steps) + 1,
                    left,
                    right,
                    new_token,
                    new_id,
                    count,
                    self.pairs_with_count[count],
                    Ranking(ranking if top_k else [], id_to_token, self.shift),
                )
            )
            self._merge(key, new_id, reused)
            if progress is not None and len(steps) % report_every == 0:
                progress(len(steps), total)
