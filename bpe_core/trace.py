"""The trace: what training did, one :class:`Step` per merge, as plain data the pages animate.

>>> step = Step(1, "a", "n", "an", 5, count=4, tied=3, top=(("a", "n", 4), ("n", "a", 4)))
>>> step.new_token, step.count, step.top[1]
('an', 4, ('n', 'a', 4))
>>> stop_message(STOP_NO_PAIRS, made=6, merges=10, vocab_size=None)
'stopped after 6 merges: every piece of the text is one token, no pair is left to merge (asked for 10 merges)'
>>> stop_message(STOP_VOCAB_TEXT, made=4, merges=6, vocab_size=None, best_count=2, max_vocab_chars=12)
"stopped after 4 merges: the next token would take the merged tokens' text past 12 characters (asked for 6 merges)"
"""

from __future__ import annotations

# Why training stopped (``Tokenizer.stop_reason``); "prefix" marks a model cut by ``Tokenizer.prefix``.
STOP_MERGES = "merges"
STOP_VOCAB_SIZE = "vocab_size"
STOP_NO_PAIRS = "no_pairs"
STOP_MIN_FREQUENCY = "min_frequency"
STOP_VOCAB_TEXT = "vocab_text"  # the merged tokens' text reached its cap (``train``'s ``max_vocab_chars``)
STOP_PREFIX = "prefix"


class Step:
    """One merge: what was merged, how often it occurred, and the race just before it.

    ``count`` is None for a model without training counts (GPT-2's published merges).
    ``tied`` is how many pairs had the winning count (1: no tie, 0: unknown).
    ``top`` holds the best ``(left, right, count)`` pairs before the step, winner first.
    Training hands it over as a :class:`Ranking` of ids, spelled out on first read:
    a long training records thousands of races and a page shows a few of them.
    """

    __slots__ = ("step", "left", "right", "new_token", "new_id", "count", "tied", "_top")

    def __init__(
        self,
        step: int,
        left: str,
        right: str,
        new_token: str,
        new_id: int,
        count: int | None,
        tied: int,
        top: tuple[tuple[str, str, int], ...] | Ranking = (),
    ):
        self.step, self.left, self.right, self.new_token = step, left, right, new_token
        self.new_id, self.count, self.tied, self._top = new_id, count, tied, top

    @property
    def top(self) -> tuple[tuple[str, str, int], ...]:
        if isinstance(self._top, Ranking):
            self._top = self._top.spelled()
        return self._top

    _FIELDS = ("step", "left", "right", "new_token", "new_id", "count", "tied", "top")

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Step(" + ", ".join(f"{name}={value!r}" for name, value in zip(self._FIELDS, self._fields())) + ")"

    def __reduce__(self):  # pickles with any protocol; a race never read travels as its ranking, half the bytes
        return Step, (self.step, self.left, self.right, self.new_token, self.new_id, self.count, self.tied, self._top)


class Ranking:
    """A race as the trainer ranks it: ``(-count, tie_key, left << shift | right)`` entries.

    >>> Ranking([(-4, 0, 0 << 2 | 1)], ["a", "n"], shift=2).spelled()
    (('a', 'n', 4),)
    """

    __slots__ = ("entries", "id_to_token", "shift")

    def __init__(self, entries: list[tuple[int, int, int]], id_to_token: list[str], shift: int):
        # id_to_token is the trainer's own list: later merges append to it, which leaves these ids valid
        self.entries, self.id_to_token, self.shift = entries, id_to_token, shift

    def __reduce__(self):  # the trainer's id_to_token, shared by every step's ranking, is written once
        return Ranking, (self.entries, self.id_to_token, self.shift)

    def spelled(self) -> tuple[tuple[str, str, int], ...]:
        names, shift = self.id_to_token, self.shift
        low = (1 << shift) - 1
        return tuple((names[key >> shift], names[key & low], -negative) for negative, _, key in self.entries)


def steps_without_counts(merges: list[tuple[str, str]], vocab: dict[str, int]) -> list[Step]:
    """The trace of a model known only by its merge list (a published or loaded tokenizer).

    >>> steps_without_counts([("a", "b")], {"a": 0, "b": 1, "ab": 2})[0]
    Step(step=1, left='a', right='b', new_token='ab', new_id=2, count=None, tied=0, top=())
    """
    return [
        Step(rank + 1, left, right, left + right, vocab[left + right], count=None, tied=0)
        for rank, (left, right) in enumerate(merges)
    ]


def counted(number: int, noun: str) -> str:
    """``number`` with thousands separators and ``noun`` in the singular or plural (nouns that take an "s").

    >>> counted(1, "merge"), counted(100000, "merge")
    ('1 merge', '100,000 merges')
    """
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def stop_message(
    reason: str,
    *,
    made: int,
    merges: int | None,
    vocab_size: int | None,
    base_size: int = 0,
    best_count: int = 0,
    min_frequency: int = 1,
    max_vocab_chars: int = 0,
) -> str:
    """The sentence that tells the user why training stopped.

    >>> stop_message(STOP_VOCAB_SIZE, made=0, merges=None, vocab_size=3, base_size=5)
    'vocabulary size 3 is smaller than the base vocabulary (5 symbols and special tokens), so no merge was made'
    >>> stop_message(STOP_MIN_FREQUENCY, made=1200, merges=5000, vocab_size=None, best_count=1, min_frequency=2)
    'stopped after 1,200 merges: the best pair occurs once, below the minimum frequency 2 (asked for 5,000 merges)'
    """
    if reason == STOP_MERGES:
        return f"made the {counted(made, 'merge')} asked for"
    if reason == STOP_VOCAB_SIZE:
        if made == 0 and vocab_size is not None and vocab_size < base_size:
            return (
                f"vocabulary size {vocab_size:,} is smaller than the base vocabulary "
                f"({base_size:,} symbols and special tokens), so no merge was made"
            )
        return f"reached the vocabulary size {vocab_size:,} after {counted(made, 'merge')}"
    asked = counted(merges, "merge") if merges is not None else f"vocabulary size {vocab_size:,}"
    stopped = f"stopped after {counted(made, 'merge')}"
    if reason == STOP_NO_PAIRS:
        # said whole, so that a min_frequency in the settings is not taken for what stopped it
        return f"{stopped}: every piece of the text is one token, no pair is left to merge (asked for {asked})"
    if reason == STOP_VOCAB_TEXT:
        why = f"the next token would take the merged tokens' text past {max_vocab_chars:,} characters"
        if best_count == 1:  # every pair is unique: each merge joins two neighbours and tokens grow without end
            why += "; each merge now only glues neighbours: raise the minimum frequency or split into words"
        return f"{stopped}: {why} (asked for {asked})"
    occurs = "once" if best_count == 1 else counted(best_count, "time")
    below = f"below the minimum frequency {min_frequency:,}"
    return f"{stopped}: the best pair occurs {occurs}, {below} (asked for {asked})"
