"""Every training setting, declared once: one ``Setting`` row each in ``SETTINGS``, in the Train form's order.

A row says what the setting is (its name: ``Config``'s field or ``train``'s argument; its kind; its choices or
range; its default), how a person meets it (the form's label, a sentence of help, where the form shows it), how it
travels (the address parameter, the command-line flag) and how a model's description says it. ``Config``'s checks,
the command line's ``train`` arguments, the Train form, the model's address and ``drawing.describe`` are built from
these rows, so a new setting is one row here, its field in ``Config`` and the engine code that uses it.

>>> setting("tie_break").choices, setting("tie_break").param, setting("tie_break").flag
(('first', 'hf', 'lex'), 'tie', '--tie-break')
>>> [row.name for row in SETTINGS if not row.in_config]
['stop_by', 'merges', 'vocab_size', 'top_k']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .pretokenizers import PRETOKENIZERS, SPLITS, pretokenizer

# The kinds of value a setting takes, and how each is typed in a model file (what a message calls it).
CHOICE = "choice"  # one of ``choices``
COUNT = "count"  # a whole number within ``bounds``
SWITCH = "switch"  # on or off
TEXT = "text"  # a text, empty for none
TEXTS = "texts"  # texts, typed as one line separated by commas or spaces
KIND_WORDS = {
    CHOICE: "a text",
    COUNT: "a whole number",
    SWITCH: "true or false",
    TEXT: "a text or null",
    TEXTS: "a list of texts",
}

MAIN, MORE = "main", "more"  # where the Train form shows a setting: always, or in its folded "More settings"
STOP_BY = ("merges", "vocab_size")  # the two sizes training may stop at: the form and a link name one, the CLI one
MAX_SIZE = 100_000  # the largest merge count or vocabulary size the pages accept (the engine's own is larger)
MAX_TOP_K = 100  # pairs a step records (the engine's ceiling, bpe_core.train.MAX_TOP_K)


@dataclass(frozen=True)
class Setting:
    """One training setting.

    ``name``: ``Config``'s field, or ``train``'s argument when ``in_config`` is False; the form's record
    (``session.training_settings.TrainSettings``) and the command line's parsed arguments use the same name.
    ``kind``: ``CHOICE``, ``COUNT``, ``SWITCH``, ``TEXT`` or ``TEXTS``; ``choices``: a choice's values, in order,
    each with its ``words`` (how the form and a description name it, when not the value itself); ``bounds``: a
    count's range on the pages (the engine itself checks only the lower end: the command line trains larger);
    ``switch_words``: how the address writes a switch's off and on; ``max_chars``: a text's longest in an address.
    ``default``: the engine's (``Config()``'s, the command line's); the Train page starts from its own
    ``DEFAULT_SETTINGS``. ``label`` and ``help``: the form's label and its sentence in "What the settings mean" (and
    the command line's ``--help``). ``place``: ``MAIN`` or ``MORE`` on the form; ``placeholder``: a text box's
    hint. ``applies``: when the setting means something, from the other settings (the form greys it out
    otherwise, and the model takes the default). ``param``: the address parameter ("" none); ``flag``: the command
    line's ("" none). ``said``: the words a model's description uses, from its ``Config`` (None: nothing to say);
    ``in_short``: also in the short description. ``called``: what a message calls it, when not its label; ``short``: its
    name in a sentence that lists several (the recipe toast), when shorter than its label;
    ``flag_help``: the command line's help, when the form's sentence does not fit a flag.
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str
    choices: tuple[str, ...] = ()
    words: tuple[tuple[Any, str], ...] = ()
    bounds: tuple[int, int] | None = None
    switch_words: tuple[str, str] = ("0", "1")
    max_chars: int = 0
    place: str = MAIN
    placeholder: str = ""
    applies: Callable[[Any], bool] | None = None
    param: str = ""
    flag: str = ""
    said: Callable[[Any], str | None] | None = None
    in_short: bool = False
    in_config: bool = True
    called: str = ""
    short: str = ""
    flag_help: str = ""

    @property
    def what(self) -> str:
        """What a sentence calls the setting: its label, lower case where it starts (``Ġ`` stays a capital)."""
        return self.called or self.label[:1].lower() + self.label[1:]

    @property
    def named(self) -> str:
        """The setting in a list of several: its short name, else its label in lower case."""
        return self.short or self.what

    def word(self, value: Any) -> str:
        """A value as the form and the descriptions name it: a choice's words, a switch's on or off, a text's
        "none" when empty.

        >>> setting("tie_break").word("hf"), setting("space_marker").word(True), setting("end_of_word").word("")
        ('lowest ids', 'on', 'none')
        """
        if self.kind == SWITCH:
            return dict(self.words).get(value, "on" if value else "off")
        if value in ("", None, ()):
            return "none"
        return dict(self.words).get(value, str(value))


def setting(name: str) -> Setting:
    """The row of the setting called ``name``."""
    return _BY_NAME[name]


def _marker_words(config) -> str | None:
    if not config.end_of_word:
        return None
    return f"a marker {config.end_of_word} ends each word"


# Each tie-break rule in words: which of the pairs sharing the top count is merged.
TIE_RULES = {"first": "the pair seen first", "hf": "the pair with the lowest ids", "lex": "the greatest pair"}


def _tie_words(config) -> str:
    return f"equal counts: {TIE_RULES[config.tie_break]} wins"


def _stop_size(name: str, default: int, label: str, help_text: str, smallest: int) -> Setting:
    """One of the two sizes training may stop at (``STOP_BY``): a count up to ``MAX_SIZE``, an argument of ``train``
    (not a ``Config`` field), called by its name in the address and on the command line."""
    flag = "--" + name.replace("_", "-")
    bounds = (smallest, MAX_SIZE)
    return Setting(name, COUNT, default, label, help_text, bounds=bounds, param=name, flag=flag, in_config=False)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "stop_by",
        CHOICE,
        "merges",
        "Stop at",
        "Stop after a number of merges, or once the vocabulary (base symbols + special tokens + merged tokens) "
        "reaches a size.",
        choices=STOP_BY,
        words=(("vocab_size", "vocab size"),),
        in_config=False,
    ),
    _stop_size(
        "merges",
        2000,
        "Merges",
        "How many merge steps to make: each step joins the most frequent adjacent pair into a new token.",
        smallest=0,
    ),
    _stop_size(
        "vocab_size",
        1000,
        "Vocabulary size",
        "Train until the vocabulary holds this many tokens; it starts with every base symbol and special token.",
        smallest=1,
    ),
    Setting(
        "split",
        CHOICE,
        "whitespace",
        "Pre-tokenization",
        "How text is cut into pieces before BPE; merges never cross a piece boundary. "
        + " ".join(f"{record.name}: {record.help}" for record in PRETOKENIZERS),
        choices=SPLITS,
        short="split",
        param="split",
        flag="--split",
        said=lambda config: pretokenizer(config.split).label,
        in_short=True,
    ),
    Setting(
        "units",
        CHOICE,
        "chars",
        "Units",
        "Base symbols: the characters seen in the corpus, or all 256 byte values (then no text is ever unknown).",
        choices=("chars", "bytes"),
        words=(("chars", "characters"),),
        param="units",
        flag="--units",
        said=lambda config: "built from bytes" if config.units == "bytes" else "built from characters",
        in_short=True,
    ),
    Setting(
        "end_of_word",
        TEXT,
        "",
        "End-of-word marker",
        "A marker added after every word (whitespace split only), so 'est' ending a word differs from 'est' "
        "inside one. Empty = no marker.",
        max_chars=20,
        placeholder="none",
        short="marker",
        param="eow",
        flag="--end-of-word",
        said=_marker_words,
        in_short=True,
    ),
    Setting(
        "glue_marker",
        SWITCH,
        False,
        "Marker placement",
        "Own symbol: l o w </w>, the marker is merged like a letter. Glued: l o w</w>, the last letter carries it.",
        words=((False, "own symbol"), (True, "glued")),
        switch_words=("own", "glued"),
        applies=lambda settings: bool((settings.end_of_word or "").strip()),
        param="marker",
        flag="--glue-marker",
        flag_help="glue the marker to the last character (l o w</w>) instead of a symbol of its own",
        said=lambda config: (
            None
            if not config.end_of_word
            else "glued to the last letter"
            if config.glue_marker
            else "the marker is a symbol of its own"
        ),
    ),
    Setting(
        "tie_break",
        CHOICE,
        "first",
        "Tie-break",
        "When several pairs share the top count: first = the pair occurring first in the corpus; hf = the pair "
        "with the smallest ids, as Hugging Face tokenizers does; lex = the lexicographically greatest pair "
        "(compared as bytes in byte-level mode, as strings in character mode).",
        choices=("first", "hf", "lex"),
        words=(("first", "first seen"), ("hf", "lowest ids"), ("lex", "greatest")),
        place=MORE,
        param="tie",
        flag="--tie-break",
        said=_tie_words,
        in_short=True,
    ),
    Setting(
        "space_marker",
        SWITCH,
        False,
        "Show spaces as Ġ",
        "Characters mode: show a space as Ġ so it is visible inside tokens (it stays a symbol of its own).",
        place=MORE,
        applies=lambda settings: settings.units == "chars",
        param="space",
        flag="--space-marker",
        said=lambda config: "spaces shown as Ġ" if config.space_marker else None,
    ),
    Setting(
        "min_frequency",
        COUNT,
        1,
        "Min frequency",
        "Stop early once the most frequent pair occurs fewer times than this: rare pairs are not worth a token.",
        bounds=(1, MAX_SIZE),
        place=MORE,
        param="min_freq",
        flag="--min-frequency",
        said=lambda config: (
            f"stops when the best pair occurs fewer than {config.min_frequency:,} times"
            if config.min_frequency > 1
            else None
        ),
    ),
    Setting(
        "special_tokens",
        TEXTS,
        (),
        "Special tokens",
        "Tokens that are never split or merged and get the first ids, e.g. <|endoftext|>. Where one occurs in the "
        "corpus it is recognised as that special token, not learned from. Separate them with commas or spaces.",
        max_chars=500,
        place=MORE,
        placeholder="e.g. <|endoftext|>",
        param="specials",
        flag="--special",
        flag_help="a special token, never split or merged, given the first ids (repeatable)",
        said=lambda config: "special tokens " + " ".join(config.special_tokens) if config.special_tokens else None,
    ),
    Setting(
        "unknown",
        CHOICE,
        "unk",
        "Unknown characters",
        "Characters mode: what encoding does with a character never seen in training: one <unk> token, or its "
        "UTF-8 bytes as <0x..> tokens.",
        choices=("unk", "byte_fallback"),
        words=(("unk", "<unk>"), ("byte_fallback", "byte fallback")),
        place=MORE,
        applies=lambda settings: settings.units == "chars",
        called="unknown-character handling",
        param="unknown",
        flag="--unknown",
        said=lambda config: (
            "unseen characters become their bytes"
            if config.unknown == "byte_fallback" and not config.byte_level
            else None
        ),
    ),
    Setting(
        "top_k",
        COUNT,
        20,
        "Top-K pairs in the trace",
        "How many of the best pairs each step remembers, for the race shown on the Merges page.",
        bounds=(0, MAX_TOP_K),
        place=MORE,
        param="top_k",
        flag="--top-k",
        flag_help="pairs recorded per step in the trace (written with --trace)",
        in_config=False,
    ),
)
_BY_NAME = {row.name: row for row in SETTINGS}
CONFIG_SETTINGS = tuple(row for row in SETTINGS if row.in_config)  # Config's fields, in the form's order
