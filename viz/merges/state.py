"""The Merges page's own session-state keys and caches: its widgets (the tab, the step, the race's window and axis,
the token whose tree is drawn, the tokenizer shown) and its figures, cached per model.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from bpe_core import Token, Tokenizer
from viz import state
from viz.merges.links import merges_params, read_merges_params
from viz.merges.overview import count_curve_figure, forest_figure
from viz.merges.race import race_figure
from viz.merges.search import word_token
from viz.merges.tree import default_tree_token

STEP_KEY = "merges_step"  # widget keys of the Merges page: the step slider,
WINDOW_START_KEY = "merges_window_start"  # the race's first step,
RACE_FIXED_AXIS_KEY = "merges_race_fixed_axis"  # one count axis for the whole race (else one per step),
TREE_TOKEN_KEY = "merges_tree_token"  # the token whose tree is drawn,
TREE_SEARCH_KEY = "merges_tree_search"  # the text that finds it in a model too big to list,
TAB_KEY, SOURCE_KEY = "merges_tab", "merges_source"  # the open tab, the tokenizer ("model" or PRETRAINED)
# kept while a closed tab hides them
KEPT = (SOURCE_KEY, STEP_KEY, WINDOW_START_KEY, RACE_FIXED_AXIS_KEY, TREE_TOKEN_KEY, TAB_KEY)


def move_step(delta: int, total: int) -> None:
    st.session_state[STEP_KEY] = max(1, min(total, st.session_state.get(STEP_KEY, 1) + delta))


def centre_race_on_step(half_window: int) -> None:  # the step slider is on a closed tab: its value is kept
    step = state.kept_value(STEP_KEY, 1)
    st.session_state[WINDOW_START_KEY] = max(1, step - half_window)


def keep_tree_token(choices: list[str], default: str | None) -> None:
    """Show ``default``'s tree unless the token chosen before is still a choice."""
    state.keep_choice(TREE_TOKEN_KEY, choices, default)


def merges_cache_key(model: Tokenizer) -> tuple[str, int]:
    """The Merges figures' key: ``model``'s fingerprint, and its training counts, which the fingerprint leaves out."""
    return state.fingerprint(model), hash(tuple(step.count for step in model.steps))


def published_cache_key(name: str) -> tuple[str, int]:
    """``merges_cache_key`` of a published tokenizer: its name (fingerprinting 200k merges would take a second)."""
    return f"published {name}", 0


# The Merges figures, per model (``key``: merges_cache_key), as objects (not pickled copies): pages only read them.
@st.cache_resource(max_entries=16, show_spinner=False)
def race_chart(_tok: Tokenizer, key: tuple[str, int], first_step: int, fixed_axis: bool) -> go.Figure:
    config = _tok.config
    return race_figure(
        _tok.steps, first_step=first_step, tie_break=config.tie_break, fixed_axis=fixed_axis, byte_level=_tok.byte_level
    )


@st.cache_data(max_entries=64, show_spinner=False)
def segmented_lines(_tok: Tokenizer, key: tuple[str, int], step: int, lines: tuple[str, ...]) -> list[list[Token]]:
    """The lines as the model's first ``step`` merges cut them."""
    model = _tok.prefix(step)
    return [model.encode_with_spans(line) for line in lines]


@st.cache_resource(max_entries=4, show_spinner=False)
def overview_charts(_tok: Tokenizer, key: tuple[str, int]) -> tuple[go.Figure, go.Figure]:
    byte_level = _tok.byte_level
    return forest_figure(_tok.steps, byte_level=byte_level), count_curve_figure(_tok.steps, byte_level)


@st.cache_data(max_entries=4, show_spinner=False)
def tree_choices(_tok: Tokenizer, key: tuple[str, int]) -> tuple[list[str], str | None]:
    """Merged tokens in step order (each once) and the one to show first: a common word built by several merges
    (``search.word_token``: " understanding" in every published tokenizer), else ``tree.default_tree_token``'s."""
    default = word_token(_tok) or default_tree_token(_tok.steps)
    return list(dict.fromkeys(step.new_token for step in _tok.steps)), default


LINK_READ_KEY = "bpe_merges_link_read"  # the address's parameters were given to the widgets: once a session


def take_link(query_params: dict, tab_labels: dict[str, str], tokenizers: tuple[str, ...]) -> list[str]:
    """On the session's first Merges run, put what its address asks (``viz.merges.links``) into the widgets before
    they are drawn; returns the parameters ignored. ``tab_labels`` maps a tab's name in the address to its label."""
    if not state.first_time(LINK_READ_KEY):
        return []
    link = read_merges_params(query_params, tuple(tab_labels), tokenizers)
    if link.tab is not None:
        st.session_state[TAB_KEY] = tab_labels[link.tab]
    if link.step is not None:
        st.session_state[STEP_KEY] = link.step  # kept within the model's steps when drawn
    if link.token is not None:
        st.session_state[TREE_TOKEN_KEY] = link.token  # kept only if it is one of the model's merged tokens
        st.session_state[TREE_SEARCH_KEY] = link.token  # and found by its text in a vocabulary too big to list
    if link.tokenizer is not None:
        st.session_state[SOURCE_KEY] = link.tokenizer
    return link.warnings


def address(tab_name: str) -> dict[str, str]:
    """The page's state as query parameters, read from its widgets (drawn or kept)."""
    step = st.session_state.get(STEP_KEY, state.kept_value(STEP_KEY, None))
    token = st.session_state.get(TREE_TOKEN_KEY, state.kept_value(TREE_TOKEN_KEY, None))
    return merges_params(tab_name, step, token, st.session_state.get(SOURCE_KEY, "model"))
