"""The model's address: how the session's model was trained (a corpus preset or short pasted text, and its
settings) as query parameters, and back. Every page's address starts with them, and a session's first run on any
page trains what they name (``pages.train.training.first_model``).

Nonsense in a link is never an error: each bad parameter is ignored with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from bpe_core.settings_table import SETTINGS, STOP_BY
from pages.train.views.form import CORPUS_PRESETS, PASTE, UPLOAD, base_settings
from session.addresses import MAX_LINK_TEXT, read_choice  # a pasted corpus up to MAX_LINK_TEXT characters travels
from session.choices import Choice, address_params, read_address, setting_kind
from session.training_settings import DEFAULT_SETTINGS, TrainSettings

# The sizes: a link gives the one training stops at, always, under its own name ("merges" or "vocab_size").
_SIZES = tuple(Choice(row.name, None, row.param, setting_kind(row)) for row in SETTINGS if row.name in STOP_BY)


def _setting_choices(base: TrainSettings) -> tuple[Choice, ...]:
    """Every other setting with a parameter, read by its kind; a link leaves out what equals the corpus's own."""
    return tuple(
        Choice(row.name, getattr(base, row.name), row.param, setting_kind(row))
        for row in SETTINGS
        if row.param and row.name not in STOP_BY
    )


def to_query_params(source: str, settings: TrainSettings, pasted_text: str = "") -> dict[str, str]:
    """The link for a training run: the corpus, the size, and the settings that differ from the corpus's own.

    Returns ``{}`` when the corpus can't travel in a link (uploads, long pasted text).

    >>> to_query_params("banana_bandana", CORPUS_PRESETS["banana_bandana"].settings)
    {'preset': 'banana_bandana', 'merges': '6'}
    """
    if source == UPLOAD or (source == PASTE and not 0 < len(pasted_text) <= MAX_LINK_TEXT):
        return {}
    params = {"preset": source}
    if source == PASTE:
        params["text"] = pasted_text
    values = settings.as_dict()
    params.update(address_params([size for size in _SIZES if size.key == settings.stop_by], values)[0])
    params.update(address_params(_setting_choices(base_settings(source)), values)[0])
    return params


@dataclass
class LinkState:
    """What a link asks for; ``warnings`` name every parameter that was ignored."""

    source: str | None = None
    settings: TrainSettings = DEFAULT_SETTINGS
    pasted_text: str = ""
    warnings: list[str] = field(default_factory=list)


def from_query_params(params: Mapping[str, str]) -> LinkState:
    """Read a link back; nonsense values are ignored (defaults kept) with a warning each.

    >>> state = from_query_params({"preset": "banana_bandana", "merges": "lots"})
    >>> state.source, state.settings.merges, state.warnings
    ('banana_bandana', 6, ['merges=lots: choose a whole number from 0 to 100,000'])
    """
    state = LinkState()
    state.source = read_choice(params, "preset", (*CORPUS_PRESETS, PASTE), state.warnings)
    if state.source == PASTE and not params.get("text"):
        state.source = None
        state.warnings.append("preset=paste: give the pasted corpus as text=")
    if state.source == PASTE:
        state.pasted_text = params["text"][:MAX_LINK_TEXT]
    sizes, warnings = read_address(_SIZES, params)
    changes, setting_warnings = read_address(_setting_choices(DEFAULT_SETTINGS), params)
    state.warnings += warnings
    if sizes:
        stop_by = next(name for name in STOP_BY if name in sizes)
        changes.update(stop_by=stop_by, **{stop_by: sizes[stop_by]})
        state.warnings += [
            f"{name}={params[name]}: a link gives merges or a vocabulary size, not both"
            for name in sizes
            if name != stop_by
        ]
    state.warnings += setting_warnings
    state.settings = replace(base_settings(state.source or ""), **changes)
    return state
