"""Pure data for the Compare page: compression curves, merge-list differences, vocabulary usage.

No Streamlit and no plotly here, so everything is unit-tested directly.

Merge lists are prefixes of each other: the model cut to its first ``k`` merges
(``tok.prefix(k)``) is the model a training of ``k`` merges would have given.
So one trained model answers "what does a bigger vocabulary buy?" for every size.

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> tokens_by_merge_count(tok, "banana_bandana_")
[15, 11, 9, 7, 5, 4, 3]
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass

from bpe_core import Tokenizer, count_pieces
from bpe_core.pretokenize import special_segments
from drawing.describe import plural

Merge = tuple[str, str]


# -- compression curves ----------------------------------------------------------


def tokens_by_merge_count(tok: Tokenizer, text: str) -> list[int]:
    """How many tokens ``text`` takes with the first ``k`` merges, for every ``k`` from 0 to all.

    ``result[k] == len(tok.prefix(k).encode(text))``, computed without encoding
    the text once per ``k``: each distinct piece is replayed once, noting the
    rank of every merge that fires on it.  Merges fire in rank order (a merge
    only uses tokens made before it), so the first ``k`` merges fire exactly the
    events of rank below ``k``, and each event removes one token.

    Raises ``ValueError`` for text that is not valid UTF-8 (a lone surrogate).

    >>> from bpe_core import Config, train
    >>> tok = train("low lower newest widest", Config(end_of_word="_"), merges=3)
    >>> tokens_by_merge_count(tok, "low lowest")  # merges: l o, lo w, e s
    [11, 9, 7, 6]
    """
    base = tok.prefix(0)
    removed_at_rank = [0] * len(tok.merges)
    total = _special_token_count(text, tok)
    for piece, frequency in count_pieces(text, tok.config).items():
        base_ids = base.encode(piece)  # one piece re-splits to itself
        total += frequency * len(base_ids)
        for rank in tok.merge_ranks(piece):
            removed_at_rank[rank] += frequency
    counts = [total]
    for removed in removed_at_rank:
        total -= removed
        counts.append(total)
    return counts


def chars_per_token(text: str, token_counts: list[int]) -> list[float]:
    """Characters of ``text`` per token, for each entry of ``token_counts`` (0.0 for no tokens).

    Whitespace counts as characters even when a whitespace split drops it.

    >>> chars_per_token("banana", [6, 3, 2])
    [1.0, 2.0, 3.0]
    """
    return [len(text) / count if count else 0.0 for count in token_counts]


def size_table(curves: dict[str, tuple[str, list[int]]], sizes: list[ComparedSize]) -> list[dict[str, object]]:
    """One row per compared size: its vocabulary and merges, then tokens and characters per token of each curve's text.

    ``curves`` maps a name to ``(text, token_counts)`` as ``tokens_by_merge_count`` gives them.

    >>> rows = size_table({"corpus": ("banana", [6, 4, 2])}, [ComparedSize(3, 0), ComparedSize(5, 2)])
    >>> rows[1]
    {'vocabulary': 5, 'merges': 2, 'corpus: tokens': 2, 'corpus: chars/token': 3.0}
    >>> [row["corpus: tokens"] for row in rows]
    [6, 2]
    """
    rows = []
    for size in sizes:
        row: dict[str, object] = {"vocabulary": size.vocabulary, "merges": size.merges}
        for name, (text, counts) in curves.items():
            row[f"{name}: tokens"] = counts[size.merges]
            row[f"{name}: chars/token"] = round(chars_per_token(text, [counts[size.merges]])[0], 2)
        rows.append(row)
    return rows


def _special_token_count(text: str, tok: Tokenizer) -> int:
    """Special tokens are cut out of the pieces but still cost one token each."""
    return sum(is_special for _, _, is_special in special_segments(text, tok.config.special_tokens))


def default_sizes(total_merges: int, how_many: int = 3) -> list[int]:
    """Sizes spread over ``0..total_merges`` for a first comparison: no merges, a few, all.

    >>> default_sizes(2000), default_sizes(2000, 4), default_sizes(0, 2)
    ([0, 200, 2000], [0, 100, 500, 2000], [0, 0])
    """
    fractions = {2: (0.0, 1.0), 3: (0.0, 0.1, 1.0), 4: (0.0, 0.05, 0.25, 1.0)}[how_many]
    return [round(total_merges * fraction) for fraction in fractions]


def rounded_step(span: int) -> int:
    """What one click on a size's + or - adds: about a twentieth of ``span``, rounded down to 1, 2 or 5 times a power
    of ten, so the default model's 2,000 merges step by 100 and GPT-2's 50,000 by 2,000.

    >>> rounded_step(2000), rounded_step(50_000), rounded_step(6), rounded_step(180)
    (100, 2000, 1, 5)
    """
    rough = max(1, span // 20)
    power = 10 ** (len(str(rough)) - 1)
    return max(multiple * power for multiple in (1, 2, 5) if multiple * power <= rough)


@dataclass(frozen=True)
class ComparedSize:
    """One size the page compares: a vocabulary, the unit people think in, and the fewest merges that reach it."""

    vocabulary: int
    merges: int

    @property
    def label(self) -> str:
        """``Vocabulary 2,062 (2,000 merges)``, ``Vocabulary 7 (1 merge)``."""
        return f"Vocabulary {self.vocabulary:,} ({plural(self.merges, 'merge')})"


class VocabularyScale:
    """Sizes in the unit people think in: the vocabulary of the model cut to its first k merges
    (base symbols and special tokens, plus each token a merge made for the first time).

    >>> from bpe_core import Config, train
    >>> scale = VocabularyScale(train("banana_bandana_", Config(split="none"), merges=6))
    >>> scale.smallest, scale.largest, scale.after(2), scale.merges_for(8), scale.merges_for(99)
    (6, 12, 8, 2, 6)
    >>> scale.reaching(8), scale.reaching(8).label
    (ComparedSize(vocabulary=8, merges=2), 'Vocabulary 8 (2 merges)')
    """

    def __init__(self, tok: Tokenizer):
        self._made_at = sorted(tok.created_at.values())  # the merge that first makes each token
        self._merges = len(tok.merges)
        self.largest = len(tok.vocab)
        self.smallest = self.largest - len(self._made_at)
        self.step = rounded_step(self.largest - self.smallest)

    def after(self, merges: int) -> int:
        """The vocabulary size of the first ``merges`` merges."""
        return self.smallest + bisect_left(self._made_at, merges)

    def merges_for(self, size: int) -> int:
        """The fewest merges whose vocabulary is ``size`` (all of them for a size beyond the model)."""
        new_tokens = size - self.smallest
        if new_tokens <= 0:
            return 0
        return self._made_at[new_tokens - 1] + 1 if new_tokens <= len(self._made_at) else self._merges

    def reaching(self, size: int) -> ComparedSize:
        """The vocabulary ``size`` as the page compares it: with the fewest merges that reach it."""
        merges = self.merges_for(size)
        return ComparedSize(self.after(merges), merges)


# -- two merge lists -------------------------------------------------------------


@dataclass(frozen=True)
class MergeListDiff:
    """How two merge lists differ.

    ``first_difference`` is the 1-based step where they first disagree (None if
    equal); ``first_a``/``first_b`` are the merges at that step (None past the end
    of a list).  ``only_a``/``only_b`` list ``(step, merge)`` for the merges whose
    merged token the other list never makes, in step order.
    """

    first_difference: int | None
    first_a: Merge | None
    first_b: Merge | None
    only_a: list[tuple[int, Merge]]
    only_b: list[tuple[int, Merge]]
    shared_tokens: int


def compare_merge_lists(merges_a: list[Merge], merges_b: list[Merge]) -> MergeListDiff:
    """Where two merge lists part ways, and the merged tokens unique to each.

    >>> diff = compare_merge_lists([("a", "n"), ("b", "an")], [("a", "n"), ("an", "a")])
    >>> diff.first_difference, diff.first_a, diff.first_b
    (2, ('b', 'an'), ('an', 'a'))
    >>> diff.only_a, diff.only_b, diff.shared_tokens
    ([(2, ('b', 'an'))], [(2, ('an', 'a'))], 1)
    """
    first = next(
        (index for index, (a, b) in enumerate(zip(merges_a, merges_b)) if a != b), min(len(merges_a), len(merges_b))
    )
    if first == len(merges_a) == len(merges_b):
        first_difference, first_a, first_b = None, None, None
    else:
        first_difference = first + 1
        first_a = merges_a[first] if first < len(merges_a) else None
        first_b = merges_b[first] if first < len(merges_b) else None
    tokens_a = {left + right for left, right in merges_a}
    tokens_b = {left + right for left, right in merges_b}
    return MergeListDiff(
        first_difference=first_difference,
        first_a=first_a,
        first_b=first_b,
        only_a=_merges_making(merges_a, tokens_a - tokens_b),
        only_b=_merges_making(merges_b, tokens_b - tokens_a),
        shared_tokens=len(tokens_a & tokens_b),
    )


def _merges_making(merges: list[Merge], tokens: set[str]) -> list[tuple[int, Merge]]:
    return [(rank + 1, (left, right)) for rank, (left, right) in enumerate(merges) if left + right in tokens]


# -- vocabulary usage --------------------------------------------------------------


@dataclass(frozen=True)
class UsageBin:
    """Tokens made in steps ``first_step..last_step`` (both 0 for the base symbols) and how a text uses them.

    ``tokens``: how many vocabulary entries the bin holds; ``used``: how many of
    them the text uses at least once; ``uses``: how many tokens of the encoded
    text fall in the bin; ``top``: the most used ``(token, uses)``, most first.
    """

    first_step: int
    last_step: int
    tokens: int
    used: int
    uses: int
    top: tuple[tuple[str, int], ...]

    @property
    def label(self) -> str:
        if self.last_step == 0:
            return "base"
        if self.first_step == self.last_step:
            return str(self.first_step)
        return f"{self.first_step}-{self.last_step}"


@dataclass(frozen=True)
class VocabularyUsage:
    """How much of a vocabulary one encoded text uses: per bin of merge steps, and in total."""

    bins: list[UsageBin]
    vocabulary: int  # base symbols + merged tokens (special tokens left out)
    used: int
    never_used: int
    text_tokens: int
    unused_merged: tuple[tuple[int, str], ...] = ()  # (step, token) of merged tokens never used, in step order


def vocabulary_usage(tok: Tokenizer, ids: list[int], bins: int = 40, top: int = 3) -> VocabularyUsage:
    """Which tokens of ``tok``'s vocabulary the token ids ``ids`` use, grouped by the step that made them.

    The first bin holds the base symbols; merged tokens are cut into at most
    ``bins`` runs of consecutive merge steps.  Special tokens are left out.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
    >>> usage = vocabulary_usage(tok, tok.encode("banana_bandana_"), bins=6)
    >>> [(b.label, b.tokens, b.used) for b in usage.bins]
    [('base', 5, 1), ('1', 1, 0), ('2', 1, 0), ('3', 1, 0), ('4', 1, 1), ('5', 1, 0), ('6', 1, 1)]
    >>> usage.never_used  # the text is banana_ban|d|ana_
    8
    >>> usage.unused_merged
    ((1, 'an'), (2, 'ban'), (3, 'ana'), (5, 'banana_'))
    """
    uses_by_id = Counter(token_id for token_id in ids if token_id not in tok.special_ids)
    base_ids = tok.base_ids()
    step_bins = [_usage_bin(tok, base_ids, uses_by_id, 0, 0, top)]
    total_merges = len(tok.merges)
    width = max(1, -(-total_merges // max(1, bins)))  # ceiling division
    ids_by_rank: dict[int, list[int]] = {}
    for token_id, rank in tok.created_at.items():
        ids_by_rank.setdefault(rank, []).append(token_id)
    for first_rank in range(0, total_merges, width):
        ranks = range(first_rank, min(first_rank + width, total_merges))
        members = [token_id for rank in ranks for token_id in ids_by_rank.get(rank, ())]
        step_bins.append(_usage_bin(tok, members, uses_by_id, ranks[0] + 1, ranks[-1] + 1, top))
    vocabulary = sum(b.tokens for b in step_bins)
    used = sum(b.used for b in step_bins)
    return VocabularyUsage(
        bins=step_bins,
        vocabulary=vocabulary,
        used=used,
        never_used=vocabulary - used,
        text_tokens=len(ids),
        unused_merged=tuple(
            (rank + 1, tok.id_to_token[token_id])
            for rank in range(total_merges)
            for token_id in ids_by_rank.get(rank, ())
            if not uses_by_id[token_id]
        ),
    )


def _usage_bin(tok, members: list[int], uses_by_id: Counter, first_step: int, last_step: int, top: int) -> UsageBin:
    used = [(uses_by_id[i], tok.id_to_token[i]) for i in members if uses_by_id[i]]
    used.sort(key=lambda pair: (-pair[0], pair[1]))
    return UsageBin(
        first_step=first_step,
        last_step=last_step,
        tokens=len(members),
        used=len(used),
        uses=sum(count for count, _ in used),
        top=tuple((token, count) for count, token in used[:top]),
    )
