"""Every ``st.session_state`` key and every Streamlit cache of the app, with small functions to use them (the Compare
page's own are in ``viz.compare_state``).

State keys start with ``bpe_`` and no widget uses them, so Streamlit never deletes them. Widget keys are
named here too; Streamlit forgets their values when another page is shown unless the widget says
``persist_state="session"`` (the Train form's widgets, Compare's size count). The rest that must survive a page
switch is copied into a state key or set again before each page (``keep_choices``).
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from bpe_core import Config, Token, Tokenizer, train
from viz import escape
from viz.corpus_files import CorpusStats, corpus_stats, read_uploads
from viz.describe import model_fingerprint
from viz.merge_overview import count_curve_figure, forest_figure
from viz.merge_race import race_figure
from viz.merge_tree import default_tree_token
from viz.model_store import ModelStore, corpus_key, training_key
from viz.train_links import from_query_params
from viz.train_settings import CORPUS_PRESETS, DEFAULT_SETTINGS, TrainSettings, recipe_changes
from viz.train_summary import compression

MODEL_KEY = "bpe_model"  # the Tokenizer the pages show
CORPUS_KEY = "bpe_corpus"  # the text it was trained on ("" for a loaded file or GPT-2)
SETTINGS_KEY = "bpe_settings"  # a dict describing how it was made, for display and links
FINGERPRINT_KEY = "bpe_fingerprint"  # (model, its fingerprint): hashed once per model object

SAMPLE_PATH = Path(__file__).resolve().parent.parent / "data" / "kjv_sample.txt"
DEFAULT_CONFIG = Config(split="whitespace", end_of_word="</w>")
DEFAULT_MERGES = 2000


@st.cache_data(max_entries=1, show_spinner=False)
def sample_text() -> str:
    return SAMPLE_PATH.read_text(encoding="utf-8")


@st.cache_resource(max_entries=1, show_spinner="Training the sample corpus...")
def default_model() -> Tokenizer:
    """The model every session starts with: the KJV sample, words + ``</w>``, 2,000 merges."""
    return train(sample_text(), DEFAULT_CONFIG, merges=DEFAULT_MERGES)


def current_model() -> Tokenizer:
    """The session's model, or the default one (so a first visit is useful with zero clicks)."""
    if MODEL_KEY not in st.session_state:  # filed as the default form's run: pressing Train on it trains nothing
        model = model_store().get_or_make(training_key(sample_text(), DEFAULT_SETTINGS), default_model)
        set_model(model, corpus=sample_text(), settings={"preset": "sample", "merges": DEFAULT_MERGES})
    return st.session_state[MODEL_KEY]


def current_corpus() -> str:
    current_model()
    return st.session_state.get(CORPUS_KEY, "")


def model_if_any() -> Tokenizer | None:
    """The session's model, or None before any page made one (the sidebar does not train the default)."""
    return st.session_state.get(MODEL_KEY)


def model_about() -> dict:
    """How the session's model was made (``set_model``'s ``settings``)."""
    return st.session_state.get(SETTINGS_KEY, {})


def set_model(model: Tokenizer, *, corpus: str, settings: dict) -> None:
    st.session_state.update({MODEL_KEY: model, CORPUS_KEY: corpus, SETTINGS_KEY: dict(settings)})


def fingerprint(model: Tokenizer) -> str:
    """``model``'s fingerprint (viz.describe), computed once per model object in this session."""
    stored = st.session_state.get(FINGERPRINT_KEY)
    if stored is None or stored[0] is not model:
        stored = st.session_state[FINGERPRINT_KEY] = (model, model_fingerprint(model))
    return stored[1]


# -- tokenizer files (viz.model_io's uploader and buttons, on several pages)


def model_io_key(page: str, name: str) -> str:
    """The widget key of one of model_io's widgets on ``page`` ("train", "merges", "encode")."""
    return f"{page}_{name}"


MODEL_IO_PAGES = ("train", "merges", "encode")  # the pages with a folded section of model_io's widgets


def model_io_section_key(page: str) -> str:
    """The key of the expander that folds model_io's widgets on ``page``: open or closed, it is kept."""
    return model_io_key(page, "section_open")


def tokenizer_files(page: str) -> list:
    """The files in ``page``'s tokenizer uploader."""
    return st.session_state.get(model_io_key(page, "tokenizer_files")) or []


def tokenizer_upload_record(page: str) -> dict | None:
    """What ``page``'s last tokenizer upload gave ({"ids", "model", "message"}): a rerun shows it unloaded."""
    return st.session_state.get(f"bpe_{page}_tokenizer_upload")


def set_tokenizer_upload_record(page: str, record: dict) -> None:
    st.session_state[f"bpe_{page}_tokenizer_upload"] = record


# -- the Train page

TRAIN_FORM_FILLED_KEY = "bpe_train_form_filled"  # the form took the link's values (or the defaults): once a session
TRAIN_UPLOAD_KEY = "bpe_train_upload"  # {"names", "texts", "errors"} of the uploaded corpus files
TRAIN_LINK_WARNINGS_KEY = "bpe_train_link_warnings"  # link parameters that were ignored, shown once
TRAIN_FROM_LINK_KEY = "bpe_train_from_link"  # a link named a corpus: train it on this run
TRAIN_ADOPTED_KEY = "bpe_train_adopted_model"  # the loaded model whose settings the form last took over
TRAIN_SOURCE_WIDGET, TRAIN_TABLE_WIDGET = "train_source", "train_merge_table"  # the corpus; the table of merges open
TRAIN_MORE_WIDGET = "train_more_settings"  # the folded settings open
TRAIN_GLOSSARY_WIDGET = "train_glossary"  # the folded list of what the settings mean open
TRAIN_PASTE_WIDGET = "train_paste"  # the pasted text
TRAIN_FILES_WIDGET = "train_corpus_files"  # the uploaded corpus files
TRAIN_SETTING_WIDGETS = {f.name: f"train_{f.name}" for f in fields(TrainSettings)}  # one widget per setting


@st.cache_resource(max_entries=1, show_spinner=False)
def model_store() -> ModelStore:
    """Trained models shared by all sessions: the 16 most recently used."""
    return ModelStore(capacity=16)


def corpus_size(corpus: str | list[str], config: Config) -> CorpusStats:
    """``corpus_stats``, remembered for the 32 most recent corpora and configurations."""
    return _cached_corpus_stats(corpus_key(corpus), json.dumps(config.to_dict()), corpus, config)


@st.cache_data(max_entries=32, show_spinner=False)
def _cached_corpus_stats(corpus_id: str, config_json: str, _corpus: str | list[str], _config: Config) -> CorpusStats:
    return corpus_stats(_corpus, _config)


@st.cache_data(max_entries=16, show_spinner="Encoding the corpus to measure compression...")
def cached_compression(model_key: str, corpus_key: str, _model: Tokenizer, _corpus: str) -> dict:
    """Training counted the tokens its corpus became; only a model without that count re-encodes it."""
    tokens = _model.corpus_tokens if _model.corpus_tokens is not None else len(_model.encode(_corpus))
    return compression(tokens, _corpus)


def init_train_form(query_params: dict) -> str:
    """On the session's first visit, fill the form from the link (or with the defaults); return the corpus source.
    Its widgets keep their values after that, drawn or not (``persist_state``)."""
    if TRAIN_FORM_FILLED_KEY not in st.session_state:
        link = from_query_params(query_params)
        st.session_state.update({TRAIN_FORM_FILLED_KEY: True, TRAIN_LINK_WARNINGS_KEY: link.warnings,
                                 TRAIN_FROM_LINK_KEY: link.source is not None,
                                 TRAIN_SOURCE_WIDGET: link.source or "sample", TRAIN_PASTE_WIDGET: link.pasted_text})
        show_train_settings(link.settings)
    return st.session_state[TRAIN_SOURCE_WIDGET]


def train_widget_settings() -> TrainSettings:
    """The settings the widgets hold (readable before they are drawn: ``init_train_form`` set them)."""
    return TrainSettings(**{name: st.session_state[key] for name, key in TRAIN_SETTING_WIDGETS.items()})


def show_train_settings(settings: TrainSettings) -> None:
    """Put ``settings`` into the widgets (only before they are drawn: from callbacks, or early in a run)."""
    for name, key in TRAIN_SETTING_WIDGETS.items():
        st.session_state[key] = getattr(settings, name)


def on_train_source_change() -> None:
    """A textbook corpus brings its textbook's settings."""
    preset = CORPUS_PRESETS.get(st.session_state[TRAIN_SOURCE_WIDGET])
    if preset is not None and preset.settings is not None:
        show_train_settings(preset.settings)


def apply_recipe(changes: dict) -> None:
    """A recipe button: its settings into the form, and a toast that says what changed."""
    before = train_widget_settings()
    after = replace(before, **changes)
    show_train_settings(after)
    st.toast(escape.markdown(recipe_changes(before, after)), icon=":material/tune:")


def on_train_files() -> None:
    files = st.session_state.get(TRAIN_FILES_WIDGET) or []
    texts, names, errors = read_uploads([(file.name, file.getvalue()) for file in files])
    st.session_state[TRAIN_UPLOAD_KEY] = {"names": names, "texts": texts, "errors": errors}


def train_upload() -> dict:
    return st.session_state.get(TRAIN_UPLOAD_KEY, {"names": [], "texts": [], "errors": []})


def take_link_warnings() -> list[str]:
    return st.session_state.pop(TRAIN_LINK_WARNINGS_KEY, [])


def take_train_from_link() -> bool:
    return st.session_state.pop(TRAIN_FROM_LINK_KEY, False)


def model_to_adopt() -> Tokenizer | None:
    """A tokenizer file or GPT-2 just made the model (on any page), once: the form takes its settings."""
    model = current_model()
    if model_about().get("source") not in ("upload", "gpt2") or st.session_state.get(TRAIN_ADOPTED_KEY) is model:
        return None
    st.session_state[TRAIN_ADOPTED_KEY] = model
    return model


# -- the Compare page (its own keys and caches are in viz.compare_state)

COMPARE_TEXT_KEY, COMPARE_TAB_KEY = "compare_text", "compare_tab"  # the text every tab uses, the open tab


# -- Merges and Encode pages

MERGES_STEP_KEY = "merges_step"  # widget keys of the Merges page: the step slider,
MERGES_WINDOW_START_KEY = "merges_window_start"  # the race's first step,
MERGES_TREE_TOKEN_KEY = "merges_tree_token"  # the token whose tree is drawn,
MERGES_TREE_SEARCH_KEY = "merges_tree_search"  # the text that finds it in a model too big to list,
MERGES_TAB_KEY, MERGES_SOURCE_KEY = "merges_tab", "merges_source"  # the open tab, the tokenizer ("model" or PRETRAINED)


def keep_in_range(key: str, low: int, high: int, start: int | None = None) -> None:
    """Start a number widget at ``start`` (else ``low``), or keep its value in the current model's range."""
    st.session_state[key] = max(low, min(high, int(st.session_state.get(key, low if start is None else start))))


def move_merges_step(delta: int, total: int) -> None:
    st.session_state[MERGES_STEP_KEY] = max(1, min(total, st.session_state.get(MERGES_STEP_KEY, 1) + delta))


def centre_race_on_step(half_window: int) -> None:  # the step slider is on a closed tab: its value is kept
    step = st.session_state.get(_KEPT_KEY, {}).get(MERGES_STEP_KEY, 1)
    st.session_state[MERGES_WINDOW_START_KEY] = max(1, step - half_window)


def start_widget(key: str, value) -> None:
    """Give a widget drawn without ``value=`` its first value (a kept choice keeps its own)."""
    st.session_state.setdefault(key, value)


def keep_choice(key: str, choices: list, default) -> None:
    """Start a choice widget at ``default``, or keep what was chosen before while it is still one of ``choices``."""
    if st.session_state.get(key) not in set(choices):
        st.session_state[key] = default


def keep_tree_token(choices: list[str], default: str | None) -> None:
    """Show ``default``'s tree unless the token chosen before is still a choice."""
    keep_choice(MERGES_TREE_TOKEN_KEY, choices, default)


def merges_cache_key(model: Tokenizer) -> tuple[str, int]:
    """The Merges figures' key: ``model``'s fingerprint, and its training counts, which the fingerprint leaves out."""
    return fingerprint(model), hash(tuple(step.count for step in model.steps))


def published_cache_key(name: str) -> tuple[str, int]:
    """``merges_cache_key`` of a published tokenizer: its name (fingerprinting 200k merges would take a second)."""
    return f"published {name}", 0


# The Merges figures, per model (``key``: merges_cache_key), as objects (not pickled copies): pages only read them.
@st.cache_resource(max_entries=16, show_spinner=False)
def race_chart(_tok: Tokenizer, key: tuple[str, int], first_step: int) -> go.Figure:
    return race_figure(_tok.steps, first_step=first_step, tie_break=_tok.config.tie_break)


@st.cache_data(max_entries=64, show_spinner=False)
def segmented_lines(_tok: Tokenizer, key: tuple[str, int], step: int, lines: tuple[str, ...]) -> list[list[Token]]:
    """The lines as the model's first ``step`` merges cut them."""
    model = _tok.prefix(step)
    return [model.encode_with_spans(line) for line in lines]


@st.cache_resource(max_entries=4, show_spinner=False)
def overview_charts(_tok: Tokenizer, key: tuple[str, int]) -> tuple[go.Figure, go.Figure]:
    return forest_figure(_tok.steps), count_curve_figure(_tok.steps)


@st.cache_data(max_entries=4, show_spinner=False)
def tree_choices(_tok: Tokenizer, key: tuple[str, int]) -> tuple[list[str], str | None]:
    """Merged tokens in step order (each once) and the one to show first."""
    return list(dict.fromkeys(step.new_token for step in _tok.steps)), default_tree_token(_tok.steps)


# Widget keys of the Encode page start with "encode_"; its own state keys with "bpe_encode_".
ENCODE_SOURCE_KEY, ENCODE_PREFIX_MERGES_KEY, ENCODE_TEXT_KEY = "encode_source", "encode_prefix_merges", "encode_text"
ENCODE_IDS_KEY, ENCODE_PIECE_KEY = "encode_ids", "encode_piece"  # the decoder's ids, the piece replayed
ENCODE_SPECIAL_KEY = "encode_match_special"
# The sections drawn only while open (expanders): "Why this split?", the decoder, the token table
ENCODE_WHY_KEY, ENCODE_DECODE_KEY, ENCODE_TABLE_KEY = "encode_why", "encode_decode", "encode_token_table"
_ENCODE_PREFIX_KEY = "bpe_encode_prefix"  # (model, merges, prefix tokenizer): one cut kept per session


def encode_prefix(model: Tokenizer, merges: int) -> Tokenizer:
    """``model.prefix(merges)``, remembered so reruns at the same slider value are free."""
    kept = st.session_state.get(_ENCODE_PREFIX_KEY)
    if kept is not None and kept[0] is model and kept[1] == merges:
        return kept[2]
    prefix = model.prefix(merges)
    st.session_state[_ENCODE_PREFIX_KEY] = (model, merges, prefix)
    return prefix


_SHARED_TEXT_KEY = "bpe_shared_text"  # the text being looked at: one text for Encode and Compare
TEXT_MAX_CHARS = 100_000  # what their text boxes take


def restore_text(widget_key: str, example: str) -> None:
    """Give a text box (Encode's or Compare's) the text typed last on either page, else ``example``."""
    if widget_key not in st.session_state:
        st.session_state[widget_key] = st.session_state.get(_SHARED_TEXT_KEY, example)


def share_text(widget_key: str) -> None:
    """The text boxes' on_change: what was typed becomes the text of both pages."""
    st.session_state[_SHARED_TEXT_KEY] = st.session_state[widget_key]


def fill_decoder(ids: list[int]) -> None:
    st.session_state[ENCODE_IDS_KEY] = ", ".join(map(str, ids))


KEPT_CHOICES = (ENCODE_SOURCE_KEY, ENCODE_PREFIX_MERGES_KEY, ENCODE_SPECIAL_KEY, ENCODE_WHY_KEY, ENCODE_PIECE_KEY,
                ENCODE_DECODE_KEY, ENCODE_IDS_KEY, ENCODE_TABLE_KEY, MERGES_SOURCE_KEY, MERGES_STEP_KEY,
                MERGES_WINDOW_START_KEY, MERGES_TREE_TOKEN_KEY, MERGES_TAB_KEY, COMPARE_TAB_KEY, TRAIN_TABLE_WIDGET,
                TRAIN_MORE_WIDGET, TRAIN_GLOSSARY_WIDGET, *map(model_io_section_key, MODEL_IO_PAGES))
_KEPT_KEY = "bpe_kept_choices"  # the last value of each, for the runs that do not draw its widget


def keep_choices() -> None:
    """Called by the router before each page, and by a page with tabs: a widget not drawn (another page, a closed tab)
    gets its value back when drawn again. (Their widgets have no value=, index= or default=: it would warn.)"""
    kept = st.session_state.setdefault(_KEPT_KEY, {})
    kept.update({key: st.session_state[key] for key in KEPT_CHOICES if key in st.session_state})
    for key, value in kept.items():
        st.session_state[key] = value
