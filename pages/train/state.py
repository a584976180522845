"""The Train page's own session-state keys and caches: the form's widgets (filled once from the link or the
defaults, then kept for the session by ``persist_state``), the uploaded corpus, the corpus sizes and compression.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import fields, replace

import streamlit as st

from bpe_core import Config, Tokenizer
from drawing import escape
from pages.train.views.corpus_files import CorpusStats, corpus_stats, read_uploads
from pages.train.views.form import CORPUS_PRESETS, recipe_changes
from pages.train.views.model_address import from_query_params
from pages.train.views.sizes import size_changes, sizes_for_corpus
from pages.train.views.summary import Compression, compression
from session import state
from session.choices import Choice
from session.model_key import MODEL_HASH
from session.model_store import corpus_key
from session.training_settings import TrainSettings

FORM_FILLED_KEY = "bpe_train_form_filled"  # the form took the link's values (or the defaults): once a session
UPLOAD_KEY = "bpe_train_upload"  # {"names", "texts", "errors"} of the uploaded corpus files
LINK_WARNINGS_KEY = state.MODEL_LINK_WARNINGS_KEY  # link parameters that were ignored, shown once
FROM_LINK_KEY = "bpe_train_from_link"  # a link named a corpus: train it on this run
ADOPTED_KEY = "bpe_train_adopted_model"  # the loaded model whose settings the form last took over, referenced weakly
LAST_SOURCE_KEY = "bpe_train_last_source"  # the corpus chosen before the current one (a textbook's sizes stay there)
SIZE_NOTE_KEY = "bpe_train_size_note"  # what the last corpus change did to the sizes, and why, in words
SOURCE_WIDGET, TABLE_WIDGET = "train_source", "train_merge_table"  # the corpus; the table of merges open
MORE_WIDGET = "train_more_settings"  # the folded settings open
GLOSSARY_WIDGET = "train_glossary"  # the folded list of what the settings mean open
PASTE_WIDGET = "train_paste"  # the pasted text
FILES_WIDGET = "train_corpus_files"  # the uploaded corpus files
SETTING_WIDGETS = {f.name: f"train_{f.name}" for f in fields(TrainSettings)}  # one widget per setting
RESULT_WIDGET = "train_button_and_result"  # the container of the Train button and the result, scrolled to

# The page's choices kept by hand: the folded sections, open or closed across pages (the form's widgets keep their
# values by persist_state; the model's address is pages.train.views.model_address's)
TABLE_CHOICE = Choice(TABLE_WIDGET, False, kept=True)
CHOICES = (
    TABLE_CHOICE,
    Choice(MORE_WIDGET, False, kept=True),
    Choice(GLOSSARY_WIDGET, False, kept=True),
    state.model_io_section("train"),
)


def corpus_size(corpus: str | list[str], config: Config) -> CorpusStats:
    """``corpus_stats``, remembered for the 32 most recent corpora and configurations."""
    return _cached_corpus_stats(corpus_key(corpus), json.dumps(config.to_dict()), corpus, config)


@st.cache_data(max_entries=32, show_spinner=False)
def _cached_corpus_stats(corpus_id: str, config_json: str, _corpus: str | list[str], _config: Config) -> CorpusStats:
    return corpus_stats(_corpus, _config)


@st.cache_data(max_entries=16, show_spinner="Encoding the corpus to measure compression...", hash_funcs=MODEL_HASH)
def cached_compression(model: Tokenizer, corpus_digest: str, _corpus: str) -> Compression:
    """Training counted the tokens its corpus became; only a model without that count re-encodes it."""
    tokens = model.corpus_tokens if model.corpus_tokens is not None else len(model.encode(_corpus))
    return compression(tokens, _corpus)


def init_train_form(query_params: dict) -> str:
    """On the session's first visit, fill the form from the link (or with the defaults); return the corpus source.
    Its widgets keep their values after that, drawn or not (``persist_state``)."""
    if FORM_FILLED_KEY not in st.session_state:
        link = from_query_params(query_params)
        st.session_state.update(
            {
                FORM_FILLED_KEY: True,
                LINK_WARNINGS_KEY: link.warnings,
                FROM_LINK_KEY: link.source is not None,
                SOURCE_WIDGET: link.source or "sample",
                LAST_SOURCE_KEY: link.source or "sample",
                PASTE_WIDGET: link.pasted_text,
            }
        )
        set_train_widgets(link.settings)
    return st.session_state[SOURCE_WIDGET]


def train_widget_settings() -> TrainSettings:
    """The settings the widgets hold (readable before they are drawn: ``init_train_form`` set them)."""
    return TrainSettings(**{name: st.session_state[widget_key] for name, widget_key in SETTING_WIDGETS.items()})


def set_train_widgets(settings: TrainSettings) -> None:
    """Put ``settings`` into the widgets (only before they are drawn: from callbacks, or early in a run)."""
    for name, widget_key in SETTING_WIDGETS.items():
        st.session_state[widget_key] = getattr(settings, name)


def on_train_source_change() -> None:
    """A textbook corpus brings its textbook's settings; its sizes stay behind when the user moves to a real
    corpus, and pasted text starts at min frequency 2 (``pages.train.views.sizes``). A caption beside the settings
    says what sizes changed and why, until the next press of Train (a toast covered a phone's title and button)."""
    previous, source = st.session_state.get(LAST_SOURCE_KEY, ""), st.session_state[SOURCE_WIDGET]
    before = train_widget_settings()
    after = sizes_for_corpus(previous, source, before)
    st.session_state[LAST_SOURCE_KEY] = source
    set_train_widgets(after)
    st.session_state[SIZE_NOTE_KEY] = size_changes(previous, source, before, after)


def size_note() -> str:
    """What the last corpus change did to the sizes, and why ("" when nothing, or once Train was pressed)."""
    return st.session_state.get(SIZE_NOTE_KEY, "")


def forget_size_note() -> None:
    st.session_state.pop(SIZE_NOTE_KEY, None)


def apply_recipe(changes: dict) -> None:
    """A recipe button: its settings into the form, and a toast that says what changed."""
    before = train_widget_settings()
    after = replace(before, **changes)
    set_train_widgets(after)
    st.toast(escape.markdown(recipe_changes(before, after)), icon=":material/tune:")


def on_train_files() -> None:
    files = st.session_state.get(FILES_WIDGET) or []
    texts, names, errors = read_uploads([(file.name, file.getvalue()) for file in files])
    st.session_state[UPLOAD_KEY] = {"names": names, "texts": texts, "errors": errors}


def train_upload() -> dict:
    return st.session_state.get(UPLOAD_KEY, {"names": [], "texts": [], "errors": []})


def take_link_warnings() -> list[str]:
    return st.session_state.pop(LINK_WARNINGS_KEY, [])


def take_train_from_link() -> bool:
    return st.session_state.pop(FROM_LINK_KEY, False)


def model_to_adopt() -> Tokenizer | None:
    """A tokenizer file or GPT-2 just made the model (on any page), once: the form takes its settings."""
    model, adopted = state.current_model(), st.session_state.get(ADOPTED_KEY)
    if not state.model_about().loaded_from or (adopted is not None and adopted() is model):
        return None
    st.session_state[ADOPTED_KEY] = weakref.ref(model)  # an uploaded model stays the upload store's to release
    return model


def preset_corpus(source: str) -> str:
    """The text of a built-in corpus (``CORPUS_PRESETS``): its own, the languages mixed, or the shipped sample."""
    preset = CORPUS_PRESETS[source]
    if preset.mix is not None:
        return preset.mix.text()
    return state.sample_text() if preset.text is None else preset.text
