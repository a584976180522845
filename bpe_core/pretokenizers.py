r"""The pre-tokenizers, one record each: how it cuts text into the pieces merges never cross, how
HF's tokenizer.json writes it, and what the rest of the engine may assume of its pieces.

>>> pretokenizer("gpt2").pieces("Hi there")
['Hi', ' there']
>>> pretokenizer("whitespace").spans("Hi  there")
[(0, 2), (4, 9)]
>>> [record.name for record in PRETOKENIZERS if not record.may_cut_at_spaces]
['none']
>>> pretokenizer("words")
Traceback (most recent call last):
...
ValueError: unknown pre-tokenization 'words': choose one of none, whitespace, gpt2, gpt4, gpt4o
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .gpt_patterns import GPT2_FAST_ORDER, GPT2_PATTERN, GPT4_PATTERN, GPT4O_PATTERN, pattern_pieces, pattern_spans


@dataclass(frozen=True, eq=False)  # each record is one of a kind: compared and hashed as itself
class PreTokenizer:
    """One way to cut text into pieces.

    name:                what configs, model files, links and the command line call it.
    label:               how a description of a model names it.
    help:                one line saying what it does, for a settings form.
    pieces:              the cutter: a text's pieces in order, none of them empty.
    spans:               the ``(start, end)`` offsets of the same pieces.
    may_cut_at_spaces:   cutting a text before a space or after a single newline, each between two
                         non-spaces, and cutting the halves apart gives the same pieces (so streaming and
                         counting in blocks may cut there).
    pieces_are_words:    the pieces are the words between runs of whitespace, so an end-of-word marker
                         can stand for the space after each.
    keeps_whitespace:    every character of the text is in some piece (else whitespace is lost).
    hf_step:             the step of HF's ``pre_tokenizer`` that cuts the same way; None: no step.
    hf_byte_level_regex: HF's ByteLevel step with ``use_regex`` cuts the same way (GPT-2's regex), so a
                         byte-level export needs that step alone.
    """

    name: str
    label: str
    help: str
    pieces: Callable[[str], list[str]] = field(repr=False)
    spans: Callable[[str], list[tuple[int, int]]] = field(repr=False)
    may_cut_at_spaces: bool = True
    pieces_are_words: bool = False
    keeps_whitespace: bool = True
    hf_step: dict | None = field(default=None, repr=False)
    hf_byte_level_regex: bool = False


# Unicode's White_Space property (PropList.txt); stable since Unicode 6.
_WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WORDS = re.compile(f"[^{_WHITE_SPACE}]+")
# str.split() also cuts at these information separators, which are not White_Space.
_SEPARATORS = ("\x1c", "\x1d", "\x1e", "\x1f")


def _split_words(text: str) -> list[str]:
    r"""Runs of non-White_Space characters; ``str.split`` is faster and agrees unless a separator is there.

    >>> _split_words("a\x1fb c"), "a\x1fb c".split()
    (['a\x1fb', 'c'], ['a', 'b', 'c'])
    """
    if any(separator in text for separator in _SEPARATORS):
        return _WORDS.findall(text)
    return text.split()


def _hf_regex_step(pattern: str) -> dict:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def _regex_pretokenizer(name: str, source: str, hf_pattern: str, help_text: str, **flags: bool) -> PreTokenizer:
    return PreTokenizer(
        name,
        f"{name} split",
        help_text,
        pattern_pieces(source),
        pattern_spans(source),
        hf_step=_hf_regex_step(hf_pattern),
        **flags,
    )


PRETOKENIZERS = (
    PreTokenizer(
        "none",
        "no split",
        "The whole text is one piece: merges may cross spaces and words.",
        lambda text: [text] if text else [],
        lambda text: [(0, len(text))] if text else [],
        may_cut_at_spaces=False,  # its one piece holds the space
    ),
    PreTokenizer(
        "whitespace",
        "whitespace split",
        "Words: the runs between whitespace, which is dropped.",
        _split_words,
        lambda text: [match.span() for match in _WORDS.finditer(text)],
        pieces_are_words=True,
        keeps_whitespace=False,
        hf_step={"type": "WhitespaceSplit"},
    ),
    _regex_pretokenizer(
        "gpt2",
        GPT2_FAST_ORDER,
        GPT2_PATTERN,
        "GPT-2's regex: letters, digits and other symbols apart, each with the space before it; "
        "contractions ('s, 'll) on their own.",
        hf_byte_level_regex=True,
    ),
    # HF's regex engine (Oniguruma, Ruby syntax) reads "{1,3}+" as "repeat {1,3} one or more times", not
    # as possessive; at the end of its branch the possessive form matches the same as the greedy one.
    _regex_pretokenizer(
        "gpt4",
        GPT4_PATTERN,
        GPT4_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}"),
        "GPT-4's regex (cl100k_base): like GPT-2's, with numbers in groups of up to three digits "
        "and a word taking the symbol before it.",
    ),
    _regex_pretokenizer(
        "gpt4o",
        GPT4O_PATTERN,
        GPT4O_PATTERN,
        "GPT-4o's regex (o200k_base): like GPT-4's, and a word keeps its capitals and contraction "
        "(HelloWorld's: Hello, World's).",
    ),
)
SPLITS = tuple(record.name for record in PRETOKENIZERS)
_BY_NAME = {record.name: record for record in PRETOKENIZERS}


def pretokenizer(name: str) -> PreTokenizer:
    """The record of the pre-tokenizer called ``name``; a ValueError naming the known ones if none is."""
    if name not in _BY_NAME:
        raise ValueError(f"unknown pre-tokenization {name!r}: choose one of {', '.join(SPLITS)}")
    return _BY_NAME[name]


__all__ = ["PRETOKENIZERS", "SPLITS", "PreTokenizer", "pretokenizer"]
