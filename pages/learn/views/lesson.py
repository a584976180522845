"""A lesson for one learner: the five textbook corpora (``session/textbook_corpora.py``) trained step by step by
the textbook trainer (``bpe_core.textbook``), and what each step asks and expects.

Before merge 1 of "low lower newest widest" (end-of-word ``_``) six pairs occur 6 times each; the tie goes to the
one that occurs first in the text, l + o:

>>> moment = lesson_moment("low", 1)
>>> moment.merge, [count for _, count in moment.top_pairs()][:7]
(('l', 'o'), [6, 6, 6, 6, 6, 6, 5])
>>> symbols_text(moment.words[1][0]), moment.words[1][1]
('l o w e r _', 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bpe_core import Config, textbook
from bpe_core.textbook import Pair, Word
from drawing.describe import times
from session.textbook_corpora import CORPUS_PRESETS
from session.training_settings import TrainSettings

EXAMPLES = ("low", "banana_bandana", "banana", "hello", "documents")  # in the lesson's order: the smallest first
LESSON_STEPS = 10  # merges a lesson walks through at most, for each example
MAX_CHOICES = 4  # pairs offered for the next merge, more when more tie with the winner


def example_corpus(example: str) -> tuple[str, TrainSettings]:
    """The example's text and the settings it trains with: a lesson example is a textbook preset of the Train page,
    which has both (the shipped sample's preset has neither).

    >>> text, settings = example_corpus("banana")
    >>> text, settings.merges
    ('banana banana', 10)
    """
    preset = CORPUS_PRESETS[example]
    if preset.text is None or preset.settings is None:
        raise ValueError(f"{example}: not a textbook example (no text or settings of its own)")
    return preset.text, preset.settings


def example_config(example: str) -> Config:
    """The settings the textbook example trains with (those of its Train page preset)."""
    return example_corpus(example)[1].to_config()


def example_title(example: str) -> str:
    """The example's name without the Train form's "Textbook: ".

    >>> example_title("low")
    'low lower newest widest'
    """
    return CORPUS_PRESETS[example].label.removeprefix("Textbook: ")


@lru_cache(maxsize=len(EXAMPLES))
def example_merges(example: str) -> tuple[Pair, ...]:
    """The merges the lesson walks through: the textbook trainer's on the example, with its preset's stop (a
    vocabulary size, a least count), at most ``LESSON_STEPS``.

    >>> example_merges("banana_bandana")
    (('a', 'n'), ('b', 'an'), ('an', 'a'), ('ana', '_'), ('ban', 'ana_'), ('banana_', 'ban'))
    """
    text, settings = example_corpus(example)
    size = {"merges": settings.merges} if settings.stop_by == "merges" else {"vocab_size": settings.vocab_size}
    merges = textbook.train_merges(text, example_config(example), **size)
    return tuple(merges[:LESSON_STEPS])


@dataclass(frozen=True)
class LessonMoment:
    """The example's text just before merge ``step``: its distinct words (or the whole text, for a corpus not cut
    into words) cut into the symbols of the merges so far, with how often each occurs; every adjacent pair's count
    (in the order each first occurs); the merge BPE learns at this step."""

    example: str
    step: int
    words: tuple[tuple[Word, int], ...]
    pair_counts: tuple[tuple[Pair, int], ...]
    merge: Pair

    def top_pairs(self) -> list[tuple[Pair, int]]:
        """Every pair, most frequent first; pairs of one count in the order they first occur."""
        return sorted(self.pair_counts, key=lambda item: -item[1])

    def count_of(self, pair: Pair) -> int:
        return dict(self.pair_counts).get(pair, 0)

    def tied(self) -> list[Pair]:
        """The pairs as frequent as the one merged (the merged pair first: it occurs first)."""
        best = self.count_of(self.merge)
        return [pair for pair, count in self.pair_counts if count == best]


@lru_cache(maxsize=64)
def lesson_moment(example: str, step: int) -> LessonMoment:
    """The example just before merge ``step`` (from 1 to ``len(example_merges(example))``)."""
    merges = example_merges(example)
    words = textbook.words_of(example_corpus(example)[0], example_config(example))
    for pair in merges[: step - 1]:
        words = {textbook.merge(word, pair): count for word, count in words.items()}
    stats = textbook.get_stats(words)
    return LessonMoment(example, step, tuple(words.items()), tuple(stats.items()), merges[step - 1])


def symbols_text(symbols: Sequence[str], between: str = " ") -> str:
    """Symbols as the lesson writes them: ``between`` them, a space inside one as ``␣``.

    >>> symbols_text(("lo", "w", "_")), symbols_text(("a", " "), " + ")
    ('lo w _', 'a + ␣')
    """
    return between.join(symbol.replace(" ", "␣") for symbol in symbols)


def pair_text(pair: Pair) -> str:
    """A pair as the lesson writes it.

    >>> pair_text(("l", "o")), pair_text(("Ġ", "b"))
    ('l + o', 'Ġ + b')
    """
    return symbols_text(pair, " + ")


def next_merge_choices(moment: LessonMoment) -> list[Pair]:
    """The pairs offered for "which pair merges next?": the ``MAX_CHOICES`` most frequent, and every pair tied with
    the winner, sorted by how they are written (so that the answer's place gives nothing away).

    >>> [pair_text(pair) for pair in next_merge_choices(lesson_moment("banana_bandana", 1))]
    ['a + _', 'a + n', 'b + a', 'n + a']
    """
    offered = dict.fromkeys([pair for pair, _ in moment.top_pairs()[:MAX_CHOICES]] + moment.tied())
    return sorted(offered, key=pair_text)


def pair_to_count(moment: LessonMoment) -> Pair:
    """The pair the learner counts at this step: the most frequent one that is not merged now (the counting is then
    no repeat of the merge question), else the merged one.

    >>> pair_to_count(lesson_moment("low", 1))
    ('o', 'w')
    """
    others = [pair for pair, _ in moment.top_pairs() if pair != moment.merge]
    return others[0] if others else moment.merge


def words_holding(moment: LessonMoment, pair: Pair) -> list[tuple[Word, int, int]]:
    """The words that hold ``pair``: each word, its count, how many times it holds the pair (the counting hint).

    >>> [(symbols_text(w), c, held) for w, c, held in words_holding(lesson_moment("low", 1), ("w", "e"))]
    [('l o w e r _', 1, 1), ('n e w e s t _', 5, 1)]
    """
    held = []
    for word, count in moment.words:
        occurrences = sum(1 for adjacent in zip(word, word[1:]) if adjacent == pair)
        if occurrences:
            held.append((word, count, occurrences))
    return held


def space_typed_as_underscore(example: str) -> bool:
    """Whether an answer may type the example's space mark ``Ġ`` (which a keyboard lacks) as ``_``: the example
    writes spaces so and has no ``_`` of its own."""
    return example_config(example).space_marker and "_" not in example_corpus(example)[0]


def symbols_key(example: str, *, typing: bool = False) -> str:
    """What the text's marks mean ("" when it has none), and with ``typing`` (an answer typed as tokens) how to
    type them.

    >>> symbols_key("low"), symbols_key("hello"), symbols_key("banana")
    ('Key: _ ends a word.', '', 'Key: Ġ is a space.')
    >>> symbols_key("banana", typing=True)
    'Key: Ġ is a space (type it as _ in an answer).'
    """
    config = example_config(example)
    marks = [f"{config.end_of_word} ends a word"] if config.end_of_word else []
    if config.space_marker:
        typed = " (type it as _ in an answer)" if typing and space_typed_as_underscore(example) else ""
        marks.append(f"Ġ is a space{typed}")
    return f"Key: {'; '.join(marks)}." if marks else ""


TIE_RULE = "When pairs tie, the one that occurs first in the text wins."


def next_merge_question(moment: LessonMoment) -> str:
    """The question of "predict the next merge", with the tie rule when the most frequent count is shared (else the
    answer would rest on a rule the learner was never told).

    >>> next_merge_question(lesson_moment("low", 1))
    'Which pair does BPE merge next? When pairs tie, the one that occurs first in the text wins.'
    >>> next_merge_question(lesson_moment("banana_bandana", 1))
    'Which pair does BPE merge next?'
    """
    question = "Which pair does BPE merge next?"
    return f"{question} {TIE_RULE}" if len(moment.tied()) > 1 else question


def check_next_merge(moment: LessonMoment, chosen: Pair) -> tuple[bool, str]:
    """Whether ``chosen`` is the pair merged at this step, and why, in words.

    >>> check_next_merge(lesson_moment("low", 1), ("e", "s"))[1]
    'Not this one: e + s occurs 6 times, as often as 5 other pairs, and the tie goes to l + o, which occurs first.'
    """
    best, count = moment.merge, moment.count_of(moment.merge)
    tied = len(moment.tied())
    if chosen == best:
        why = f", the first of the {tied} pairs that occur that often" if tied > 1 else ", more than any other pair"
        return True, f"Right: {pair_text(best)} merges next. It occurs {times(count)}{why}."
    chosen_count = moment.count_of(chosen)
    if chosen_count == count:
        return False, (
            f"Not this one: {pair_text(chosen)} occurs {times(count)}, as often as {tied - 1} other "
            f"pair{'s' if tied > 2 else ''}, and the tie goes to {pair_text(best)}, which occurs first."
        )
    chosen_text, best_text = pair_text(chosen), pair_text(best)
    said = f"Not this one: {chosen_text} occurs {times(chosen_count)}"
    return False, f"{said}, but {best_text} occurs {times(count)}."


def check_count(moment: LessonMoment, pair: Pair, answer: int) -> tuple[bool, str]:
    """Whether ``answer`` is how often ``pair`` occurs in the text now, in words.

    >>> check_count(lesson_moment("low", 1), ("o", "w"), 5)
    (False, 'Not quite: o + w occurs 6 times, not 5.')
    """
    right = moment.count_of(pair)
    if answer == right:
        return True, f"Right: {pair_text(pair)} occurs {times(right)}."
    return False, f"Not quite: {pair_text(pair)} occurs {times(right)}, not {answer:,}."


def count_hint(moment: LessonMoment, pair: Pair) -> str:
    """Where ``pair`` is and how to count it, without the count that answers the question (a word's own count, or
    how many times it holds the pair, would give it away where one word holds it).

    >>> print(count_hint(lesson_moment("low", 1), ("o", "w")))
    o + w is in l o w _ and l o w e r _: count it in each of those words, times the word's ×, and add up.
    """
    held = words_holding(moment, pair)
    if not held:
        return f"{pair_text(pair)} is in no word now."
    parts = [symbols_text(word) for word, _count, _occurrences in held]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    each = "count it in each of those words, times the word's ×," if len(parts) > 1 else "count it there, times its ×,"
    return f"{pair_text(pair)} is in {listed}: {each} and add up."


def counts_hint(moment: LessonMoment, shown: int = 8) -> str:
    """The most frequent pairs and their counts at this step (the hint for the next merge).

    >>> counts_hint(lesson_moment("banana_bandana", 1), 3)
    'The pair counts now: a + n 4, n + a 3, b + a 2, and 4 more.'
    """
    top = moment.top_pairs()
    listed = ", ".join(f"{pair_text(pair)} {count:,}" for pair, count in top[:shown])
    more = f", and {len(top) - shown} more" if len(top) > shown else ""
    return f"The pair counts now: {listed}{more}."
