"""The Merges page's own session-state keys and caches: its widgets (the tab, the step, the race's window and axis,
the token whose tree is drawn, the tokenizer shown), its choices in its address, and its figures, cached per model
(``session.model_key``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import plotly.graph_objects as go
import streamlit as st

from bpe_core import Token, Tokenizer
from bpe_core.language_mix import main_languages, pair_languages
from bpe_core.languages import bundled_texts
from bpe_core.pretrained import PRETRAINED
from bpe_core.rank_tokenizer import AnyTokenizer
from pages.merges.views.overview import count_curve_figure, forest_figure
from pages.merges.views.race import COMPACT_RACE, FULL_RACE, race_figure
from pages.merges.views.search import word_token
from pages.merges.views.tree import default_tree_token
from session import state
from session.choices import Choice, OneOf, Text, WholeNumber
from session.model_key import MODEL_HASH
from session.textbook_corpora import CORPUS_PRESETS, LanguageMix

STEP_KEY = "merges_step"  # widget keys of the Merges page: the step slider,
STEP_CONTROLS_KEY = "merges_step_controls"  # the row of Previous and Next,
WINDOW_START_KEY = "merges_window_start"  # the race's first step,
RACE_FIXED_AXIS_KEY = "merges_race_fixed_axis"  # one count axis for the whole race (else one per step),
TREE_TOKEN_KEY = "merges_tree_token"  # the token whose tree is drawn,
TREE_SEARCH_KEY = "merges_tree_search"  # the text that finds it in a model too big to list,
TREE_BOX_KEY, TREE_CHART_KEY = "merges_tree_box", "merges_tree_chart"  # the tree's chart, in a box that may scroll,
TAB_KEY, SOURCE_KEY = "merges_tab", "merges_source"  # the open tab, the tokenizer (one of TOKENIZERS)
STEP_PRESSES_KEY = "bpe_merges_step_presses"  # how many times Previous or Next was pressed
TOKENIZERS = ("model", *PRETRAINED)  # the session's model, the published tokenizers
MAX_TOKEN_CHARS = 200  # a token longer than this is no merged token of any tokenizer shown here
MAX_STEP = 1_000_000  # as many merges as training makes at most (bpe_core.train.MAX_SIZE)


# The page's tabs, in order: (name in the address, material icon, label); the first is open on a first visit.
# ``tabs.SECTIONS`` draws each.
TABS = [
    ("steps", "linear_scale", "Step by step"),
    ("race", "leaderboard", "Pair race"),
    ("tree", "account_tree", "Merge tree"),
    ("overview", "scatter_plot", "All merges"),
]
TAB_LABELS = {name: f":material/{icon}: {label}" for name, icon, label in TABS}  # name in the address -> label


def choices(tab_labels: Mapping[str, str]) -> tuple[Choice, ...]:
    """The page's choices, in the order its address gives them; ``tab_labels``: its tabs' labels by their names in
    the address (``pages/merges/tabs.py``). The step, the race's and the tree's widgets keep their
    values while their tab is closed by ``persist_state``."""
    return (
        Choice(TAB_KEY, param="tab", kind=OneOf(tab_labels), kept=True),
        Choice(STEP_KEY, param="step", kind=WholeNumber(1, MAX_STEP)),  # kept within the model's steps when drawn
        Choice(TREE_TOKEN_KEY, param="token", kind=Text(MAX_TOKEN_CHARS)),  # if it is one of the model's tokens
        Choice(SOURCE_KEY, "model", "tokenizer", OneOf(TOKENIZERS)),
        state.model_io_section("merges"),
    )


def move_step(delta: int, total: int) -> None:
    st.session_state[STEP_KEY] = max(1, min(total, st.session_state.get(STEP_KEY, 1) + delta))
    st.session_state[STEP_PRESSES_KEY] = step_presses() + 1


def step_presses() -> int:
    """How many times Previous or Next was pressed in this session: each new press brings its step on screen."""
    return st.session_state.get(STEP_PRESSES_KEY, 0)


def centre_race_on_step(half_window: int) -> None:  # the step slider is on a closed tab: its value is kept
    step = st.session_state.get(STEP_KEY, 1)
    st.session_state[WINDOW_START_KEY] = max(1, step - half_window)


def keep_tree_token(tokens: list[str], default: str | None) -> None:
    """Show ``default``'s tree unless the token chosen before is still offered."""
    state.default_unless_offered(TREE_TOKEN_KEY, tokens, default)


# The Merges figures, cached per model (``session.model_key``), as objects (not pickled copies): pages only read them.
@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs=MODEL_HASH)
def race_chart(tok: AnyTokenizer, first_step: int, fixed_axis: bool, compact: bool) -> go.Figure:
    """The race from ``first_step``; ``compact`` (presenting): fewer bars, the controls right under them."""
    return race_figure(
        tok.steps,
        first_step=first_step,
        tie_break=tok.config.tie_break,
        fixed_axis=fixed_axis,
        byte_level=tok.byte_level,
        layout=COMPACT_RACE if compact else FULL_RACE,
    )


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=MODEL_HASH)
def segmented_lines(tok: AnyTokenizer, step: int, lines: tuple[str, ...]) -> list[list[Token]]:
    """The lines as the model's first ``step`` merges cut them."""
    model = tok.prefix(step)
    return [model.encode_with_spans(line) for line in lines]


def showing_session_model() -> bool:
    """Whether the tokenizer shown is the session's model (else a published one)."""
    return st.session_state.get(SOURCE_KEY, "model") == "model"


def training_text() -> str:
    """The text the tokenizer shown was trained on, if the session has it: a published one's is not ours."""
    return state.current_corpus() if showing_session_model() else ""


def trained_on_mix() -> str | None:
    """The Train corpus (a mix of the bundled languages, ``CORPUS_PRESETS``) the session's model, shown here, was
    trained on; None for another corpus or a published tokenizer."""
    source = state.model_about().corpus_source
    mixed = source in CORPUS_PRESETS and CORPUS_PRESETS[source].mix is not None
    return source if mixed and showing_session_model() else None


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=MODEL_HASH)
def pair_main_languages(tok: Tokenizer, step: int, mix_source: str) -> list[tuple[str, float]]:
    """The languages of the mix ``mix_source`` where step ``step``'s pair stood before its merge, with their shares
    of its occurrences, the most first (at most three)."""
    merged = tok.steps[step - 1]
    pair = (merged.left, merged.right)
    copies = cast(LanguageMix, CORPUS_PRESETS[mix_source].mix).copies()  # trained_on_mix named a mix's preset
    return main_languages(pair_languages(tok, step - 1, [pair], bundled_texts(), copies)[pair])


@st.cache_resource(max_entries=4, show_spinner=False, hash_funcs=MODEL_HASH)
def overview_charts(tok: AnyTokenizer) -> tuple[go.Figure, go.Figure]:
    byte_level = tok.byte_level
    return forest_figure(tok.steps, byte_level=byte_level), count_curve_figure(tok.steps, byte_level)


@st.cache_data(max_entries=4, show_spinner=False, hash_funcs=MODEL_HASH)
def tree_choices(tok: AnyTokenizer) -> tuple[list[str], str | None]:
    """Merged tokens in step order (each once) and the one to show first: a common word built by several merges
    (``search.word_token``: " understanding" in every published tokenizer), else ``tree.default_tree_token``'s."""
    default = word_token(tok) or default_tree_token(tok.steps)
    return list(dict.fromkeys(step.new_token for step in tok.steps)), default


def take_link(page_choices: tuple[Choice, ...], query_params: dict) -> list[str]:
    """On the session's first Merges run, put what its address asks into the widgets before they are drawn (a
    token is also found by its text in a vocabulary too big to list); returns the parameters ignored."""
    values, ignored = state.take_address(page_choices, query_params, "merges")
    if TREE_TOKEN_KEY in values:
        st.session_state[TREE_SEARCH_KEY] = values[TREE_TOKEN_KEY]
    return ignored
