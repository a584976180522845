"""The model's address: how the session's model was trained (a corpus preset or short pasted text, and its
settings) as query parameters, and back. Every page's address starts with them, and a session's first run on any
page trains what they name (``pages.train.training.first_model``).

Nonsense in a link is never an error: each bad parameter is ignored with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace

from bpe_core.config import TIE_BREAKS, UNITS, UNKNOWN_MODES
from bpe_core.pretokenizers import SPLITS
from pages.train.views.form import CORPUS_PRESETS, PASTE, UPLOAD, base_settings
from session.addresses import (  # a pasted corpus up to this many characters travels in the link
    MAX_LINK_TEXT,
    whole_number,
)
from session.training_settings import DEFAULT_SETTINGS, MARKER_PLACEMENTS, MAX_SIZE, MAX_TOP_K, STOP_BY, TrainSettings

# settings field -> query parameter name (the size goes in as "merges" or "vocab_size")
_PARAM_NAMES = {
    "min_frequency": "min_freq",
    "split": "split",
    "end_of_word": "eow",
    "marker_placement": "marker",
    "units": "units",
    "space_marker": "space",
    "special_tokens": "specials",
    "unknown": "unknown",
    "tie_break": "tie",
    "top_k": "top_k",
}
_CHOICES = {
    "split": SPLITS,
    "units": UNITS,
    "marker_placement": MARKER_PLACEMENTS,
    "unknown": UNKNOWN_MODES,
    "tie_break": TIE_BREAKS,
}
_INT_RANGES = {
    "merges": (0, MAX_SIZE),
    "vocab_size": (1, MAX_SIZE),
    "min_frequency": (1, MAX_SIZE),
    "top_k": (0, MAX_TOP_K),
}
_MAX_TEXT_PARAM = {"end_of_word": 20, "special_tokens": 500}


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
    params[settings.stop_by] = str(getattr(settings, settings.stop_by))
    base = base_settings(source)
    for name, param in _PARAM_NAMES.items():
        value = getattr(settings, name)
        if value != getattr(base, name):
            params[param] = str(int(value)) if isinstance(value, bool) else str(value)
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
    ('banana_bandana', 6, ['merges=lots: not a whole number between 0 and 100000'])
    """
    state = LinkState()
    source = params.get("preset")
    if source is not None:
        if source in CORPUS_PRESETS or (source == PASTE and params.get("text")):
            state.source = source
        else:
            state.warnings.append(f"preset={source}: no such corpus preset")
    if state.source == PASTE:
        state.pasted_text = params["text"][:MAX_LINK_TEXT]
    changes: dict = {}
    sizes = [name for name in STOP_BY if name in params]
    for name in sizes:
        value = _read_param(name, params[name], state.warnings, name)
        if value is not None and "stop_by" not in changes:
            changes.update({"stop_by": name, name: value})
        elif value is not None:
            state.warnings.append(f"{name}={params[name]}: a link gives merges or a vocabulary size, not both")
    for name, param in _PARAM_NAMES.items():
        if param in params:
            value = _read_param(name, params[param], state.warnings, param)
            if value is not None:
                changes[name] = value
    state.settings = replace(base_settings(state.source or ""), **changes)
    return state


def _read_param(name: str, raw: str, warnings: list[str], param: str):
    """One parameter's value in its settings type, or None (and a warning) if it makes no sense."""
    kind = {f.name: f.type for f in fields(TrainSettings)}[name]
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        number = whole_number(raw.strip(), low, high)  # ASCII digits only: "²" is a digit to isdigit(), not to int()
        if number is not None:
            return number
        warnings.append(f"{param}={raw}: not a whole number between {low} and {high}")
    elif name in _CHOICES:
        if raw in _CHOICES[name]:
            return raw
        warnings.append(f"{param}={raw}: choose one of {', '.join(_CHOICES[name])}")
    elif kind == "bool":
        if raw in ("0", "1"):
            return raw == "1"
        warnings.append(f"{param}={raw}: use 0 or 1")
    elif len(raw) <= _MAX_TEXT_PARAM[name]:
        return raw
    else:
        warnings.append(f"{param}: longer than {_MAX_TEXT_PARAM[name]} characters")
    return None
