r"""How a model is trained, as one record: what the Train form asks for, what the model store keys a training
run by, and what a shared link describes. The form's labels, corpora and recipes are ``pages.train.views.form``'s.

>>> TrainSettings(merges=6).train_kwargs()
{'merges': 6, 'top_k': 20}
"""

from __future__ import annotations

from dataclasses import Field, asdict, field, make_dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from bpe_core import Config
from bpe_core.settings_table import CONFIG_SETTINGS, MAX_SIZE, SETTINGS, STOP_BY, TEXT, TEXTS, Setting

__all__ = ["DEFAULT_SETTINGS", "MAX_SIZE", "STOP_BY", "TrainSettings", "parse_special_tokens", "settings_like"]


def typed(row: Setting, value: Any) -> Any:
    """An engine value as the form holds it: a text box's text for a marker (None: empty) or for texts."""
    if row.kind == TEXT:
        return value or ""
    return ", ".join(value) if row.kind == TEXTS else value


def engine_value(row: Setting, value: Any) -> Any:
    """The form's value as the engine takes it (the inverse of ``typed``; spaces around a marker dropped)."""
    if row.kind == TEXT:
        return value.strip() or None
    return parse_special_tokens(value) if row.kind == TEXTS else value


class _TrainSettingsMethods:
    if TYPE_CHECKING:  # what the type checker knows of the fields ``make_dataclass`` adds from the table below
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

        def __getattr__(self, setting: str) -> Any: ...

    def to_config(self) -> Config:
        """The engine configuration; raises ``ValueError`` for combinations that don't work. A setting that
        does not apply (the marker's placement without a marker, the space marker with bytes) takes its default."""
        values = {
            row.name: engine_value(row, getattr(self, row.name))
            if not row.applies or row.applies(self)
            else row.default
            for row in CONFIG_SETTINGS
        }
        return Config(**values)

    def train_kwargs(self) -> dict:
        """Keyword arguments for ``bpe_core.train`` besides corpus and config: the size training stops at, and
        every other setting that is ``train``'s argument rather than the configuration's (the trace's ``top_k``)."""
        arguments = {row.name: getattr(self, row.name) for row in TRAIN_ARGUMENTS}
        return {self.stop_by: getattr(self, self.stop_by), **arguments}

    def as_dict(self) -> dict:
        return asdict(self)


# train()'s arguments besides the size: the rows outside the configuration, but for the size and which size it is
TRAIN_ARGUMENTS = tuple(row for row in SETTINGS if not row.in_config and row.name not in (*STOP_BY, "stop_by"))

# Everything the Train page asks for, one field per row of bpe_core.settings_table.SETTINGS (the Config fields,
# how far to train and the trace's size), each with the row's default as the form holds it. Both sizes are kept so
# switching ``stop_by`` back and forth loses nothing; only the chosen one is used.
if TYPE_CHECKING:  # the fields are made from the table at run time: the type checker sees any setting's name as one

    class TrainSettings(_TrainSettingsMethods):
        def __init__(self, **settings: Any) -> None: ...

else:
    TrainSettings = make_dataclass(
        "TrainSettings",
        [(row.name, Any, field(default=typed(row, row.default))) for row in SETTINGS],
        bases=(_TrainSettingsMethods,),
        frozen=True,
    )
TrainSettings.__module__ = __name__
TrainSettings.__doc__ = """How a model is trained, as the Train form holds it: one field per setting of
``bpe_core.settings_table.SETTINGS``, a marker and special tokens as typed.

>>> TrainSettings(end_of_word="_", glue_marker=True).to_config().glue_marker
True
>>> TrainSettings(glue_marker=True).to_config().glue_marker  # no marker to glue
False
"""

# The default model's settings (session.state.default_model): GPT-2's byte-level recipe, so that any text a person
# pastes encodes without loss on the first page they open; characters and <unk> are a lesson one choice away.
DEFAULT_SETTINGS = TrainSettings(split="gpt2", units="bytes", tie_break="hf")


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
        **{row.name: typed(row, getattr(config, row.name)) for row in CONFIG_SETTINGS},
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
