"""The text a pair question is about, as the model sees it just before the step: each word of the corpus (all of a
small corpus, else the most frequent) with its count, cut into the symbols the merges before the step made, the
offered pairs marked where they occur; each offered pair's count and the tie, from the model's trace. The teacher's
page works it out once when it asks (``questions.pair_question``) and the store keeps it with the question, so a
student's screen, asking every second, only draws it.

The textbook's corpus before step 1 (whitespace split, ``</w>``): low ×5, lower, newest ×5, widest.

>>> from bpe_core import Config, train
>>> model = train("low lower newest widest low low low low newest newest newest newest",
...               Config(end_of_word="</w>"), merges=3)
>>> shown = shown_pieces(model_pieces("low lower newest widest low low low low newest newest newest newest",
...                                   model.config))
>>> text = step_text(model, shown, 2, ("e + s", "lo + w", "s + t", "w + e"))
>>> [(" ".join(word.symbols), word.count, word.marks) for word in text.words[:2]]
[('lo w </w>', 5, (1, -1)), ('lo w e r </w>', 1, (1, 3, -1, -1))]
>>> text.counts, text.tied, text.made
((6, 6, 6, 6), 5, 'lo')
"""

from __future__ import annotations

import functools
from collections import Counter

from bpe_core import Config, Tokenizer
from bpe_core.corpus import count_pieces
from drawing.readable import token_pair, token_text
from live_class.records import ShownWord, StepText

ALL_WORDS_UP_TO = 30  # a corpus of at most this many different words is shown whole, in the order they occur
MOST_FREQUENT = 12  # else its most frequent words, then "… and N more"
LONG_PIECE = 80  # characters: a longer piece (a text not split into words) shows only its beginning


@functools.lru_cache(maxsize=8)  # a teacher's corpus is counted once, not at every step (the sample: 1 MB)
def model_pieces(corpus: str, config: Config) -> Counter[str]:
    """The corpus's pieces as the model's training counted them, in the order they first occur."""
    return count_pieces(corpus, config)


def shown_pieces(pieces: Counter[str]) -> tuple[tuple[tuple[str, int], ...], int]:
    """The pieces a question shows, with their counts, and how many it leaves out: all of them, in the order they
    occur, up to ``ALL_WORDS_UP_TO``; else the ``MOST_FREQUENT`` most frequent (on equal counts, the first to occur).

    >>> shown_pieces(Counter({"b": 1, "a": 2}))
    ((('b', 1), ('a', 2)), 0)
    >>> shown, more = shown_pieces(Counter({f"w{n}": n % 5 + 1 for n in range(40)}))
    >>> shown[:3], more
    ((('w4', 5), ('w9', 5), ('w14', 5)), 28)
    """
    if len(pieces) <= ALL_WORDS_UP_TO:
        return tuple(pieces.items()), 0
    frequent = sorted(pieces.items(), key=lambda item: -item[1])[:MOST_FREQUENT]  # stable: first to occur first
    return tuple(frequent), len(pieces) - MOST_FREQUENT


def cut_before(model: Tokenizer, piece: str, step: int) -> tuple[str, ...]:
    """``piece`` as the model's symbols just before step ``step`` (1-based): its merges replayed up to step - 1.

    >>> from bpe_core import Config, train
    >>> cut_before(train("banana_bandana_", Config(split="none"), merges=6), "banana_", 3)
    ('ban', 'an', 'a', '_')
    """
    symbols: list[str] = []
    for made_at, state in model.explain(piece):
        if made_at is not None and made_at >= step:
            break
        symbols = state
    return tuple(symbols)


def step_text(
    model: Tokenizer, shown: tuple[tuple[tuple[str, int], ...], int], step: int, choices: tuple[str, ...]
) -> StepText:
    """The text of step ``step``'s question (its ``choices``, named as ``token_pair`` names them) from the pieces
    ``shown_pieces`` chose; each choice's count is the trace's (``Step.top``), which counts the whole corpus."""
    byte_level, record = model.byte_level, model.steps[step - 1]
    index = {choice: number for number, choice in enumerate(choices)}
    words = []
    for piece, count in shown[0]:
        raw = cut_before(model, piece[:LONG_PIECE], step)
        marks = tuple(index.get(token_pair(left, right, byte_level), -1) for left, right in zip(raw, raw[1:]))
        written = tuple(token_text(symbol, byte_level) for symbol in raw)
        words.append(ShownWord(written, count, marks, clipped=len(piece) > LONG_PIECE))
    counts: dict[str, int] = {}
    for left, right, count in record.top:  # best first: a text written alike twice keeps its best count
        counts.setdefault(token_pair(left, right, byte_level), count)
    made = token_text(model.steps[step - 2].new_token, byte_level) if step > 1 else ""
    return StepText(
        tuple(words),
        more=shown[1],
        counts=tuple(counts.get(choice, 0) for choice in choices),
        tied=record.tied,
        tie_break=model.config.tie_break,
        made=made,
    )
