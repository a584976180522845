"""The Compare page's choices and sentences: which configurations to train side by side, and how to say
what came out (the first differing merge, how many more tokens GPT-2 needs).

>>> [config.tie_break for config in tie_break_pair(Config(), "first", "lex")]
['first', 'lex']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bpe_core import Config, Token
from bpe_core.pretokenizers import SPLITS
from bpe_core.settings_table import Setting, setting
from drawing.describe import plural
from drawing.readable import token_pair, token_text
from pages.compare.views.data import MergeListDiff, VocabularyUsage

DEFAULT_TEXT = (
    "Tokenizers don't read words, they read pieces. Unbelievably, a bigger vocabulary "
    "means fewer and longer pieces for the same sentence!"
)
# The five tabs are wider than a phone: Streamlit scrolls them sideways and hid Real tokenizers and Vocabulary usage
# past the screen's edge; wrapped, every tab shows (a row more on a phone, one row where they fit).
TABS_CSS = "<style>.st-key-{key} [role=tablist]{{flex-wrap:wrap;overflow-x:visible}}</style>"
STRIP_MAX_CHARS = 5_000  # a token strip draws at most the first this-many characters
# Token boxes a tab's strips draw together, each 250-400 bytes with its popover: some 2 MB a run however long the text
# and however many tokenizers. Measured: 100,000 characters of emoji under GPT-2, GPT-4, GPT-4o, Llama 3 and the
# default model drew 45,000 boxes in their first 5,000 characters, 15 MB.
STRIP_BOXES_IN_ALL = 6_000
SIZE_BOX_WIDTH = 136  # pixels of a size's number box: room for its + and - (shown over 120); two to a row on a phone
LIST_LIMIT = 500  # rows shown of a long token table (merges only one side makes, tokens never used)
PRETOKENIZER_CORPUS_CHARS = 200_000  # both trainings use at most this much of the corpus, for speed
TEXT_HELP = "Shared with the Encode page, and used by every tab below (the curves show it as held-out text)."
SIZES_HELP = (
    "Each size is a vocabulary: the model cut to the fewest of its merges that reach it (base symbols and "
    "special tokens, plus one new token a merge)."
)
CURVES_ABOUT = (
    "How many tokens the text needs at every vocabulary size. The model cut to its first k merges is exactly "
    "what a training of k merges would have learned, so one training gives all sizes; the vocabulary is the base "
    "symbols plus one token a merge. More characters per token is better compression."
)
STEPPING_STONES = (
    "Many merged tokens are only stepping stones: `an` exists to build `ban`, and once `ban` exists "
    "the text may never show `an` on its own."
)
TIE_BREAK_PRESET = "Tie-break rules"
CUSTOM_PRESET = "Custom"
# The Pre-tokenizers tab's choices: a fixed pair of configurations, or one the page asks for.
PRETOKENIZER_PRESETS: dict[str, tuple[Config, Config] | None] = {
    "Words + </w>  vs  GPT-2 byte-level": (
        Config(split="whitespace", end_of_word="</w>"),
        Config(split="gpt2", units="bytes"),
    ),
    TIE_BREAK_PRESET: None,  # the session model's configuration under two tie-break rules
    CUSTOM_PRESET: None,  # two configurations chosen setting by setting
}
# The custom configurations' selects: a row of the training settings' table each (its label, and its words for a
# value), with the values offered, the first being the default; the marker, free text on Train, offers its classic two.
CUSTOM_FIELDS: tuple[tuple[Setting, tuple[str, ...]], ...] = (
    (setting("split"), ("whitespace", *(split for split in SPLITS if split != "whitespace"))),
    (setting("units"), setting("units").choices),
    (setting("end_of_word"), ("", "</w>", "_")),
    (setting("tie_break"), setting("tie_break").choices),
)


def custom_config(choices: dict[str, str]) -> Config:
    """The configuration the custom selects describe; raises ``ValueError`` when it doesn't work.

    >>> custom_config({"split": "whitespace", "units": "chars", "end_of_word": "</w>", "tie_break": "lex"}).end_of_word
    '</w>'
    >>> bytes_config = custom_config({"split": "gpt2", "units": "bytes", "end_of_word": "", "tie_break": "hf"})
    >>> bytes_config.end_of_word is None
    True
    """
    settings: dict[str, Any] = {**choices, "end_of_word": choices["end_of_word"] or None}
    return Config(**settings)


def training_text_caption(chars: int, from_corpus: bool) -> str:
    """What the Pre-tokenizers tab trains on.

    >>> training_text_caption(1500, True)
    "Both are trained on the first 1,500 characters of the session's training corpus (capped at 200,000 for speed)."
    """
    where = "the session's training corpus" if from_corpus else "the KJV sample (this model has no known corpus)"
    return (
        f"Both are trained on the first {chars:,} characters of {where} "
        f"(capped at {PRETOKENIZER_CORPUS_CHARS:,} for speed)."
    )


def strip_chars(tokens: Sequence[Token], strips: int) -> int:
    """How many characters of the text one of ``strips`` token strips draws: the first ``STRIP_MAX_CHARS``, fewer
    where they hold more than the strip's share of ``STRIP_BOXES_IN_ALL`` tokens: up to the first token past its
    share (at least one character, whose tokens are at most its bytes).

    >>> emoji = [Token(0, "x", start, start + 1, b"x") for start in range(5_000) for _ in range(3)]  # 3 a character
    >>> strip_chars(emoji, 1), strip_chars(emoji, 4), strip_chars(emoji[:900], 4)
    (2000, 500, 5000)
    """
    share = STRIP_BOXES_IN_ALL // max(strips, 1)
    if len(tokens) <= share:
        return STRIP_MAX_CHARS
    return max(1, min(STRIP_MAX_CHARS, tokens[share].start))


def tie_break_pair(config: Config, rule_a: str, rule_b: str) -> tuple[Config, Config]:
    """``config`` under two tie-break rules, to see what the rule alone changes.

    >>> a, b = tie_break_pair(Config(end_of_word="</w>"), "hf", "lex")
    >>> (a.tie_break, a.end_of_word), (b.tie_break, b.end_of_word)
    (('hf', '</w>'), ('lex', '</w>'))
    """
    return replace(config, tie_break=rule_a), replace(config, tie_break=rule_b)


def merge_text(merge: tuple[str, str] | None, byte_level: bool = False) -> str:
    """One merge for inline code: ``b + an`` (backticks become ', so the code span can't end early); a byte-level
    model's tokens as the text they spell (``drawing.readable.token_text``).

    >>> merge_text(("a`", " b")), merge_text(("Ġ", "t"), byte_level=True), merge_text(None)
    ("a' + ␣b", '␣ + t', '(nothing: the list ended)')
    """
    if merge is None:
        return "(nothing: the list ended)"
    return token_pair(*merge, byte_level).replace("`", "'")


def merge_lists_sentence(diff: MergeListDiff, merges_a: int, byte_level: tuple[bool, bool] = (False, False)) -> str:
    """Markdown saying where two merge lists part ways (``merges_a``: how many merges list A has; ``byte_level``:
    whether A's and B's tokens are bytes).

    >>> from pages.compare.views.data import compare_merge_lists
    >>> diff = compare_merge_lists([("a", "n"), ("b", "an")], [("a", "n"), ("an", "a")])
    >>> print(merge_lists_sentence(diff, 2).replace(". ", ".\\n"))
    The merge lists agree for 1 step and first differ at **step 2**: A merges `b + an`, B merges `an + a`.
    They share 1 merged token.
    """
    if diff.first_difference is None:
        return f"The two merge lists are identical ({plural(merges_a, 'merge')})."
    agreed = diff.first_difference - 1
    before = f"agree for {agreed:,} step{'s' if agreed > 1 else ''} and " if agreed else ""
    return (
        f"The merge lists {before}first differ at **step {diff.first_difference:,}**: "
        f"A merges `{merge_text(diff.first_a, byte_level[0])}`, B merges `{merge_text(diff.first_b, byte_level[1])}`. "
        f"They share {plural(diff.shared_tokens, 'merged token')}."
    )


def only_heading(side: str, count: int) -> str:
    """The heading over the merged tokens only one side makes (Markdown).

    >>> only_heading("A", 501)
    '**501 merged tokens only A makes** (first 500 shown)'
    """
    more = f" (first {LIST_LIMIT:,} shown)" if count > LIST_LIMIT else ""
    return f"**{count:,} merged tokens only {side} makes**{more}"


def merge_rows(merges: list[tuple[int, tuple[str, str]]], limit: int, byte_level: bool = False) -> list[dict]:
    """Table rows for ``(step, (left, right))`` merges, the first ``limit`` of them, tokens made readable
    (``drawing.readable.token_text``).

    >>> merge_rows([(3, ("a", " b")), (5, ("x", "y"))], limit=1)
    [{'step': 3, 'left': 'a', 'right': '␣b', 'new token': 'a␣b'}]
    >>> merge_rows([(1, ("Ġ", "t"))], limit=1, byte_level=True)
    [{'step': 1, 'left': '␣', 'right': 't', 'new token': '␣t'}]
    """
    return [
        {
            "step": step,
            "left": token_text(left, byte_level),
            "right": token_text(right, byte_level),
            "new token": token_text(left + right, byte_level),
        }
        for step, (left, right) in merges[:limit]
    ]


def unused_rows(unused: tuple[tuple[int, str], ...], limit: int, byte_level: bool = False) -> list[dict]:
    """Table rows for ``(step, token)`` pairs of merged tokens a text never uses, the first ``limit``.

    >>> unused_rows(((2, "a n"), (4, "x")), limit=1), unused_rows(((7, "Ġa"),), limit=1, byte_level=True)
    ([{'step': 2, 'token': 'a␣n'}], [{'step': 7, 'token': '␣a'}])
    """
    return [{"step": step, "token": token_text(token, byte_level)} for step, token in unused[:limit]]


def usage_metrics(usage: VocabularyUsage) -> list[tuple[str, str, str | None, str | None]]:
    """The vocabulary usage tab's three metrics: (label, value, note under it, help).

    >>> usage = VocabularyUsage(bins=[], vocabulary=8, used=6, never_used=2, text_tokens=9)
    >>> [(value, note) for _, value, note, _ in usage_metrics(usage)]
    [('8', None), ('6', None), ('2', '25% of the vocabulary')]
    """
    share = usage.never_used / usage.vocabulary if usage.vocabulary else 0.0
    return [
        (
            "Vocabulary entries",
            f"{usage.vocabulary:,}",
            None,
            "Base symbols and merged tokens; special tokens left out.",
        ),
        ("Used at least once", f"{usage.used:,}", None, None),
        ("Never used", f"{usage.never_used:,}", f"{share:.0%} of the vocabulary", None),
    ]


def size_note(largest: int, extendable: bool) -> str:
    """The line under the size boxes: how far the model goes, and whether a larger size trains it further.

    >>> size_note(2062, True)
    'Your model has a vocabulary of 2,062; a larger size trains it further on the same corpus and settings.'
    >>> size_note(50257, False)
    'This model has a vocabulary of 50,257 and cannot be trained further here (retrain it on Train).'
    """
    if extendable:
        return (
            f"Your model has a vocabulary of {largest:,}; a larger size trains it further on the same corpus and "
            "settings."
        )
    return f"This model has a vocabulary of {largest:,} and cannot be trained further here (retrain it on Train)."


def tokens_at_sizes(counts: Sequence[tuple[int, int]]) -> str:
    """The line under the size boxes: the text's tokens at each size chosen (vocabulary, tokens), the result of
    choosing them, in view beside the boxes (the tabs' charts and tables are drawn below, off a phone's screen).
    A no-break space before each dot: a wrapped line never starts with one.

    >>> tokens_at_sizes([(256, 137), (1000, 60), (2256, 49)]).replace("\\xa0", " ")
    '**Your text:** 137 tokens at vocabulary 256 · 60 at 1,000 · 49 at 2,256.'
    >>> tokens_at_sizes([(7, 1), (9, 1)])
    '**Your text:** 1 token at vocabulary 7\\xa0· 1 at 9.'
    """
    (vocabulary, tokens), *others = counts
    first = f"{plural(tokens, 'token')} at vocabulary {vocabulary:,}"
    rest = (f"{tokens:,} at {vocabulary:,}" for vocabulary, tokens in others)
    return "**Your text:** " + "\u00a0· ".join([first, *rest]) + "."


def ran_out(reached: int, merges: int) -> str:
    """
    >>> ran_out(7391, 7300)
    'The corpus ran out of pairs to merge at a vocabulary of 7,391 (7,300 merges): a larger size needs more text.'
    """
    return (
        f"The corpus ran out of pairs to merge at a vocabulary of {reached:,} ({merges:,} merges): "
        "a larger size needs more text."
    )
