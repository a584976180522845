"""Session state shared by the pages, and the cached default model.

Keys are plain names that no widget uses, so Streamlit never deletes them when a
page with a widget of that name is left.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bpe_core import Config, Tokenizer, train

MODEL_KEY = "bpe_model"  # the Tokenizer the pages show
CORPUS_KEY = "bpe_corpus"  # the text it was trained on ("" for a loaded file or GPT-2)
SETTINGS_KEY = "bpe_settings"  # a dict describing how it was made, for display and links

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
    if MODEL_KEY not in st.session_state:
        set_model(default_model(), corpus=sample_text(), settings={"preset": "sample", "merges": DEFAULT_MERGES})
    return st.session_state[MODEL_KEY]


def current_corpus() -> str:
    current_model()
    return st.session_state.get(CORPUS_KEY, "")


def set_model(model: Tokenizer, *, corpus: str, settings: dict) -> None:
    st.session_state[MODEL_KEY] = model
    st.session_state[CORPUS_KEY] = corpus
    st.session_state[SETTINGS_KEY] = dict(settings)
