"""Unit tests for pages/train/views/model_address.py: a training run as a shareable link, and back."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core.config import TIE_BREAKS, UNITS, UNKNOWN_MODES
from bpe_core.pretokenize import SPLITS
from bpe_core.settings_table import MAX_SIZE, MAX_TOP_K, STOP_BY
from pages.train.views.form import CORPUS_PRESETS, PASTE, UPLOAD
from pages.train.views.model_address import MAX_LINK_TEXT, from_query_params, to_query_params
from session.training_settings import DEFAULT_SETTINGS, TrainSettings


def test_a_textbook_link_only_names_the_preset_and_size():
    settings = CORPUS_PRESETS["low"].settings
    assert to_query_params("low", settings) == {"preset": "low", "vocab_size": "50"}


def test_links_hold_changed_settings_and_short_pasted_text():
    settings = replace(DEFAULT_SETTINGS, split="whitespace", end_of_word="</w>", units="chars", tie_break="lex")
    params = to_query_params(PASTE, replace(settings, merges=40), "hello hello")
    assert params == {
        "preset": "paste",
        "text": "hello hello",
        "merges": "40",
        "split": "whitespace",
        "eow": "</w>",
        "units": "chars",
        "tie": "lex",
    }


def test_uploads_and_long_pastes_make_no_link():
    assert to_query_params(UPLOAD, DEFAULT_SETTINGS) == {}
    assert to_query_params(PASTE, DEFAULT_SETTINGS, "x" * (MAX_LINK_TEXT + 1)) == {}
    assert to_query_params(PASTE, DEFAULT_SETTINGS, "") == {}  # nothing pasted: nothing to link
    # the shortest and the longest paste that travel
    assert to_query_params(PASTE, DEFAULT_SETTINGS, "x")["text"] == "x"
    assert to_query_params(PASTE, DEFAULT_SETTINGS, "x" * MAX_LINK_TEXT)["text"] == "x" * MAX_LINK_TEXT


settings_strategy = st.builds(
    TrainSettings,
    stop_by=st.sampled_from(STOP_BY),
    merges=st.integers(0, MAX_SIZE),
    vocab_size=st.integers(1, MAX_SIZE),
    min_frequency=st.integers(1, 50),
    split=st.sampled_from(SPLITS),
    end_of_word=st.sampled_from(["", "</w>", "_", "@@"]),
    glue_marker=st.booleans(),
    units=st.sampled_from(UNITS),
    space_marker=st.booleans(),
    special_tokens=st.sampled_from(["", "<s>", "<s>, </s>", "<|endoftext|> <pad>"]),
    unknown=st.sampled_from(UNKNOWN_MODES),
    tie_break=st.sampled_from(TIE_BREAKS),
    top_k=st.integers(0, MAX_TOP_K),
)


@given(source=st.sampled_from(list(CORPUS_PRESETS)), settings=settings_strategy)
def test_links_round_trip(source, settings):
    state_back = from_query_params(to_query_params(source, settings))
    assert state_back.warnings == []
    assert state_back.source == source
    # the unused size is not in the link, so it comes back as the preset's own
    chosen = settings.stop_by
    assert getattr(state_back.settings, chosen) == getattr(settings, chosen)
    unused = "vocab_size" if chosen == "merges" else "merges"
    assert replace(state_back.settings, **{unused: getattr(settings, unused)}) == settings


def test_pasted_text_round_trips():
    back = from_query_params(to_query_params(PASTE, DEFAULT_SETTINGS, "a b\nc & d"))
    assert (back.source, back.pasted_text, back.settings) == ("paste", "a b\nc & d", DEFAULT_SETTINGS)


def test_nonsense_params_are_ignored_one_warning_each():
    back = from_query_params(
        {
            "preset": "banana_bandana",
            "merges": "-3",
            "split": "words",
            "space": "yes",
            "top_k": "999",
            "tie": "hf",
            "eow": "x" * 50,
        }
    )
    assert back.source == "banana_bandana"
    assert back.settings == replace(CORPUS_PRESETS["banana_bandana"].settings, tie_break="hf")
    assert back.warnings == [
        "merges=-3: choose a whole number from 0 to 100,000",
        "split=words: choose one of none, whitespace, gpt2, gpt4, gpt4o",
        "eow: choose a text of at most 20 characters",
        "space=yes: choose 0 or 1",
        "top_k=999: choose a whole number from 0 to 100",
    ]


def test_unknown_preset_and_both_sizes_warn():
    back = from_query_params({"preset": "war_and_peace", "merges": "5", "vocab_size": "90"})
    assert back.source is None and back.settings.merges == 5 and back.settings.stop_by == "merges"
    assert back.warnings == [
        "preset=war_and_peace: choose one of documents, low, banana, banana_bandana, hello, sample, languages, "
        "english90, paste",
        "vocab_size=90: a link gives merges or a vocabulary size, not both",
    ]
    assert from_query_params({"preset": "paste"}).warnings == ["preset=paste: give the pasted corpus as text="]


@pytest.mark.parametrize("name", ["merges", "vocab_size", "min_freq", "top_k"])
@pytest.mark.parametrize("digits", ["²", "١٢", "１２"])  # superscript two, Arabic-Indic and fullwidth digits
def test_digits_of_other_scripts_are_warned_not_read(name, digits):
    state = from_query_params({"preset": "banana_bandana", name: digits})
    assert len(state.warnings) == 1 and state.warnings[0].startswith(f"{name}={digits}: choose a whole number")
    assert state.settings == from_query_params({"preset": "banana_bandana"}).settings


def test_a_number_with_spaces_around_it_is_read():
    assert from_query_params({"preset": "banana_bandana", "merges": " 4 "}).settings.merges == 4


def test_links_shared_before_the_settings_table_open_the_same_model():
    # Addresses as the Train page wrote them before its settings were one table, and the settings they name.
    params = {
        "preset": "documents",
        "merges": "15",
        "eow": "@@",
        "marker": "glued",
        "space": "1",
        "specials": "<s>, </s>",
        "min_freq": "3",
        "unknown": "byte_fallback",
        "top_k": "5",
    }
    back = from_query_params(params)
    assert back.warnings == []
    assert back.settings == replace(
        CORPUS_PRESETS["documents"].settings,
        end_of_word="@@",
        glue_marker=True,
        space_marker=True,
        special_tokens="<s>, </s>",
        min_frequency=3,
        unknown="byte_fallback",
        top_k=5,
    )
    config = back.settings.to_config()
    assert (config.end_of_word, config.glue_marker, config.special_tokens) == ("@@", True, ("<s>", "</s>"))
    assert to_query_params("documents", back.settings) == params
    own = from_query_params({"preset": "documents", "marker": "own", "space": "0"}).settings
    assert (own.glue_marker, own.space_marker) == (False, False)
