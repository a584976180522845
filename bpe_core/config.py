"""The settings of a BPE tokenizer: one frozen value, checked when it is made.

>>> Config(end_of_word="</w>", glue_marker=True).is_lossless
False
>>> Config(split="gpt2", units="bytes").is_lossless
True
>>> Config(split="gpt2", end_of_word="</w>")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
ValueError: an end-of-word marker needs whitespace pre-tokenization: with other splits a piece is not a word (use the
space marker or bytes instead)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .pretokenizers import pretokenizer
from .settings_table import CHOICE, CONFIG_SETTINGS, COUNT, KIND_WORDS, SWITCH, TEXT, TEXTS, setting

UNITS = setting("units").choices
TIE_BREAKS = setting("tie_break").choices
UNKNOWN_MODES = setting("unknown").choices
UNK_TOKEN = "<unk>"
SPACE_MARKER = "Ġ"
# What each kind of setting must be in a model file, which can hold any JSON value in any field.
_KIND_TYPES: dict[str, type | tuple[type, ...]] = {
    CHOICE: str,
    COUNT: int,
    SWITCH: bool,
    TEXT: (str, type(None)),
    TEXTS: (list, tuple),
}


@dataclass(frozen=True)
class Config:
    """How text becomes base symbols, and how training picks among equal counts.

    split:         pre-tokenization: ``none``, ``whitespace``, ``gpt2``, ``gpt4`` or ``gpt4o`` (``SPLITS``).
    units:         ``chars`` (characters seen) or ``bytes`` (all 256 byte values).
    end_of_word:   a marker appended to every word (whitespace split only), e.g. ``</w>`` or ``_``.
    glue_marker:   glue the marker to the last character (``w</w>``) instead of a symbol of its own.
    space_marker:  chars mode: show a space as ``Ġ`` (it stays a symbol of its own).
    special_tokens: never split, never merged, given the first ids.
    unknown:       chars mode, characters never seen in training: ``unk`` or ``byte_fallback``.
    tie_break:     ``first`` (first occurrence wins), ``hf`` (smallest id pair, as HF tokenizers) or
                   ``lex`` (the lexicographically greatest pair: bytes in byte-level mode, else strings).
    min_frequency: stop when the best pair occurs fewer times than this.
    """

    split: str = "whitespace"
    units: str = "chars"
    end_of_word: str | None = None
    glue_marker: bool = False
    space_marker: bool = False
    special_tokens: tuple[str, ...] = field(default_factory=tuple)
    unknown: str = "unk"
    tie_break: str = "first"
    min_frequency: int = 1

    def __post_init__(self) -> None:
        for row in CONFIG_SETTINGS:  # each field as its row in bpe_core.settings_table declares it
            _check_setting(row, getattr(self, row.name))
        object.__setattr__(self, "special_tokens", tuple(self.special_tokens))
        object.__setattr__(self, "end_of_word", self.end_of_word or None)
        split = pretokenizer(self.split)
        if self.end_of_word is not None and not split.pieces_are_words:
            raise ValueError(
                "an end-of-word marker needs whitespace pre-tokenization: with other splits "
                "a piece is not a word (use the space marker or bytes instead)"
            )
        if self.end_of_word is not None and self.byte_level:
            raise ValueError("an end-of-word marker works on characters: byte-level BPE marks spaces with Ġ instead")
        if self.glue_marker and self.end_of_word is None:
            raise ValueError("glue_marker needs an end-of-word marker to glue")
        seen: set[str] = set()
        for token in self.special_tokens:
            if not isinstance(token, str) or not token:
                raise ValueError("a special token cannot be empty")
            if token in seen:
                raise ValueError(f"special token {token!r} is listed twice")
            seen.add(token)

    @property
    def byte_level(self) -> bool:
        """Whether the base symbols are the 256 bytes (as GPT-2's stand-ins) rather than characters."""
        return self.units == "bytes"

    @property
    def uses_unk(self) -> bool:
        return not self.byte_level and self.unknown == "unk"

    @property
    def all_special_tokens(self) -> tuple[str, ...]:
        """The special tokens, with ``<unk>`` added when unknown characters map to it."""
        if self.uses_unk and UNK_TOKEN not in self.special_tokens:
            return (*self.special_tokens, UNK_TOKEN)
        return self.special_tokens

    @property
    def is_lossless(self) -> bool:
        """Whether ``decode(encode(text)) == text`` for every text.

        A split that drops whitespace (``whitespace``: runs become one space with a marker,
        nothing without one) loses it; ``<unk>`` loses unseen characters.
        """
        return pretokenizer(self.split).keeps_whitespace and (self.byte_level or self.unknown == "byte_fallback")

    def to_dict(self) -> dict:
        data = asdict(self)
        data["special_tokens"] = list(self.special_tokens)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Config:
        known = {name for name in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def _check_setting(row, value) -> None:
    """``value`` is of the setting's kind, one of its choices, and a count no lower than its range's start."""
    kind = _KIND_TYPES[row.kind]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{row.name} must be {KIND_WORDS[row.kind]}, not {value!r}")
    if row.choices and value not in row.choices:
        raise ValueError(f"unknown {row.what} {value!r}: choose one of {', '.join(row.choices)}")
    if row.bounds and value < row.bounds[0]:
        raise ValueError(f"{row.name} must be a whole number of at least {row.bounds[0]}, not {value!r}")
