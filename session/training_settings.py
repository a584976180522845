r"""How a model is trained, as one record: what the Train form asks for, what the model store keys a training
run by, and what a shared link describes. The form's labels, corpora and recipes are ``pages.train.views.form``'s.

>>> TrainSettings(merges=6).train_kwargs()
{'merges': 6, 'top_k': 20}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from bpe_core import Config

STOP_BY = ("merges", "vocab_size")
MARKER_PLACEMENTS = ("own", "glued")
MAX_SIZE = 100_000  # the largest merge count or vocabulary size the page accepts
MAX_TOP_K = 100


@dataclass(frozen=True)
class TrainSettings:
    """Everything the Train page asks for: the engine's Config fields plus how far to train.

    Both sizes are kept so switching ``stop_by`` back and forth loses nothing;
    only the chosen one is used.

    >>> words = TrainSettings(split="whitespace", units="chars", end_of_word="_", marker_placement="glued")
    >>> words.to_config().glue_marker
    True
    >>> TrainSettings().to_config().units  # the default: byte-level, GPT-2's split
    'bytes'
    """

    stop_by: str = "merges"
    merges: int = 2000
    vocab_size: int = 1000
    min_frequency: int = 1
    split: str = "gpt2"
    end_of_word: str = ""
    marker_placement: str = "own"
    units: str = "bytes"
    space_marker: bool = False
    special_tokens: str = ""  # as typed: comma- or space-separated
    unknown: str = "unk"
    tie_break: str = "hf"
    top_k: int = 20

    def to_config(self) -> Config:
        """The engine configuration; raises ``ValueError`` for combinations that don't work."""
        marker = self.end_of_word.strip() or None
        return Config(
            split=self.split,
            units=self.units,
            end_of_word=marker,
            glue_marker=marker is not None and self.marker_placement == "glued",
            space_marker=self.space_marker and self.units == "chars",
            special_tokens=parse_special_tokens(self.special_tokens),
            unknown=self.unknown,
            tie_break=self.tie_break,
            min_frequency=self.min_frequency,
        )

    def train_kwargs(self) -> dict:
        """Keyword arguments for ``bpe_core.train`` besides corpus and config."""
        size = self.merges if self.stop_by == "merges" else self.vocab_size
        return {self.stop_by: size, "top_k": self.top_k}

    def as_dict(self) -> dict:
        return asdict(self)


# The default model's settings (session.state.default_model): GPT-2's byte-level recipe, so that any text a person
# pastes encodes without loss on the first page they open; characters and <unk> are a lesson one choice away.
DEFAULT_SETTINGS = TrainSettings()


def settings_like(config: Config, merges: int, base: TrainSettings = DEFAULT_SETTINGS) -> TrainSettings:
    """``base`` with the configuration and merge count of a model, so that Train makes one like it.

    >>> from bpe_core import load_gpt2
    >>> gpt2 = settings_like(load_gpt2().config, 50_000)
    >>> gpt2.split, gpt2.units, gpt2.end_of_word, gpt2.special_tokens, gpt2.merges
    ('gpt2', 'bytes', '', '<|endoftext|>', 50000)
    """
    return replace(
        base,
        stop_by="merges",
        merges=min(merges, MAX_SIZE),
        min_frequency=config.min_frequency,
        split=config.split,
        end_of_word=config.end_of_word or "",
        marker_placement="glued" if config.glue_marker else "own",
        units=config.units,
        space_marker=config.space_marker,
        special_tokens=", ".join(config.special_tokens),
        unknown=config.unknown,
        tie_break=config.tie_break,
    )


def parse_special_tokens(text: str) -> tuple[str, ...]:
    """Special tokens typed as one line, separated by commas and/or spaces.

    >>> parse_special_tokens("<|endoftext|>, <pad> <mask>")
    ('<|endoftext|>', '<pad>', '<mask>')
    """
    return tuple(token for token in text.replace(",", " ").split() if token)


def pieces_config(settings: TrainSettings) -> Config:
    """The part of the settings that decides the pieces (split and special tokens).

    Kept valid even when the full settings are not, so the corpus size always shows.
    """
    try:
        return Config(split=settings.split, special_tokens=parse_special_tokens(settings.special_tokens))
    except ValueError:
        return Config(split=settings.split)
