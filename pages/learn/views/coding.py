"""The Learn page's encoding and decoding exercises: a new word cut by the merges learned so far, and a word's ids
under the vocabulary so far to read back, both worked by the textbook trainer and encoder (``bpe_core.textbook``).

>>> encode_answer("low", 1)  # before any merge: lowest's symbols
('l', 'o', 'w', 'e', 's', 't', '_')
>>> encode_answer("low", 4)  # after l + o, lo + w, e + s
('low', 'es', 't', '_')
"""

from __future__ import annotations

from functools import lru_cache

from bpe_core import textbook
from bpe_core.config import SPACE_MARKER
from pages.learn.views.lesson import (
    example_config,
    example_corpus,
    example_merges,
    lesson_moment,
    space_typed_as_underscore,
    symbols_text,
)

# A word each example's corpus does not hold as it is, made of its letters: the word to encode
NEW_WORDS = {
    "low": "lowest",
    "banana_bandana": "bandana_",
    "banana": "banana ban",
    "hello": "other",
    "documents": "documents",
}
# A word of each corpus: its ids are the ones to decode
DECODE_WORDS = {
    "low": "newest",
    "banana_bandana": "banana_",
    "banana": "banana",
    "hello": "world",
    "documents": "document",
}


def encode_answer(example: str, step: int) -> tuple[str, ...]:
    """The new word's tokens under the merges learned before ``step``, applied in the order they were learned."""
    merges = list(example_merges(example)[: step - 1])
    return tuple(textbook.encode(NEW_WORDS[example], merges, example_config(example)))


def replay(example: str, step: int) -> list[str]:
    """The new word's symbols, then after each merge so far that changes it: the encoding hint.

    >>> replay("low", 4)
    ['l o w e s t _', 'after l + o: lo w e s t _', 'after lo + w: low e s t _', 'after e + s: low es t _']
    """
    config = example_config(example)
    lines: list[str] = []
    for taken in range(step):
        tokens = textbook.encode(NEW_WORDS[example], list(example_merges(example)[:taken]), config)
        if not lines or symbols_text(tokens) != lines[-1].split(": ")[-1]:
            pair = example_merges(example)[taken - 1] if taken else None
            lines.append(
                symbols_text(tokens) if pair is None else f"after {symbols_text(pair, ' + ')}: " + symbols_text(tokens)
            )
    return lines


def typed_tokens(example: str, typed: str) -> tuple[str, ...]:
    """The tokens a learner typed, separated by spaces; where the example writes a space as ``Ġ`` (which a keyboard
    lacks) and has no ``_`` of its own, ``_`` is read as ``Ġ``.

    >>> typed_tokens("banana", " banana _ban "), typed_tokens("low", "low _")
    (('banana', 'Ġban'), ('low', '_'))
    """
    tokens = tuple(typed.split())
    if space_typed_as_underscore(example):
        return tuple(token.replace("_", SPACE_MARKER) for token in tokens)
    return tokens


def check_encoding(example: str, step: int, typed: str) -> tuple[bool, str]:
    """Whether ``typed`` (tokens separated by spaces) is the new word's encoding now, in words.

    >>> check_encoding("low", 4, "low es t _")
    (True, 'Right: lowest is low es t _ (4 tokens) after 3 merges.')
    >>> check_encoding("low", 4, "low est_")[1]
    'Not quite: after 3 merges lowest is low es t _ (4 tokens), not low est_.'
    """
    right = encode_answer(example, step)
    word, merges = NEW_WORDS[example], step - 1
    said = f"{symbols_text(right)} ({len(right)} token{'s' if len(right) != 1 else ''})"
    if typed_tokens(example, typed) == right:
        return True, f"Right: {word} is {said} after {merges} merge{'s' if merges != 1 else ''}."
    return False, f"Not quite: after {merges} merge{'s' if merges != 1 else ''} {word} is {said}, not {typed.strip()}."


@lru_cache(maxsize=64)
def vocabulary(example: str, step: int) -> dict[str, int]:
    """Token -> id after the merges before ``step`` (the base symbols first, then each merge's token)."""
    return textbook.learn(example_corpus(example)[0], example_config(example), merges=step - 1)[1]


def decode_ids(example: str, step: int) -> list[int]:
    """The ids of the example's decoding word under the vocabulary before ``step``.

    >>> decode_ids("low", 1), decode_ids("low", 4)  # <unk> 0, _ 1, d e i l n o r s t w 2-11; lo 12, low 13, es 14
    ([6, 3, 11, 3, 9, 10, 1], [6, 3, 11, 14, 10, 1])
    """
    config = example_config(example)
    merges = list(example_merges(example)[: step - 1])
    ids = vocabulary(example, step)
    return [ids[token] for token in textbook.encode(DECODE_WORDS[example], merges, config)]


def decoded_text(example: str, step: int, ids: list[int]) -> str:
    """What ``ids`` spell: their tokens joined, an end-of-word marker read as the space it stands for, ``Ġ`` as a
    space, the ends trimmed.

    >>> decoded_text("low", 1, [6, 3, 11, 1])
    'new'
    """
    config = example_config(example)
    tokens = {index: token for token, index in vocabulary(example, step).items()}
    text = "".join(tokens[index] for index in ids)
    if config.end_of_word:
        text = text.replace(config.end_of_word, " ")
    return (text.replace("Ġ", " ") if config.space_marker else text).strip()


def check_decoding(example: str, step: int, typed: str) -> tuple[bool, str]:
    """Whether ``typed`` is what the decoding ids spell, in words.

    >>> check_decoding("low", 1, "newest")
    (True, 'Right: the ids spell newest.')
    >>> check_decoding("low", 1, "newset")
    (False, 'Not quite: the ids spell newest, not newset.')
    """
    right = decoded_text(example, step, decode_ids(example, step))
    if typed.strip() == right:
        return True, f"Right: the ids spell {right}."
    return False, f"Not quite: the ids spell {right}, not {typed.strip()}."


def answer_placeholder(example: str) -> str:
    """How an encoding is typed, shown in the empty answer box: the text's first word cut into its base symbols,
    its marks included (a word's end ``_`` or ``</w>``; a space mark ``Ġ`` as the ``_`` a keyboard has).

    >>> answer_placeholder("low"), answer_placeholder("hello"), answer_placeholder("documents")
    ('e.g. l o w _', 'e.g. h e l l o', 'e.g. T h i s </w>')
    >>> answer_placeholder("banana")  # its text is one piece: banana Ġ banana, the Ġ typed as _
    'e.g. b a n a n a _ b a n a n a'
    """
    first_word = lesson_moment(example, 1).words[0][0]
    typed = ("_" if symbol == SPACE_MARKER and space_typed_as_underscore(example) else symbol for symbol in first_word)
    return "e.g. " + " ".join(typed)
