"""Odd input where the pages decide: a clear message in the page, never a traceback, nothing trained lost.

Already covered elsewhere (not repeated): a junk model file, an invalid setting combination, nonsense link
values (``test_page_train.py``); bad decoder ids (``test_page_encode.py``).
"""

from __future__ import annotations

import random
import re

import pytest
from streamlit.testing.v1 import AppTest
from support.banana import BANANA_BANDANA
from support.browser import MAIN, exception_texts, open_app, wait_for_app
from support.browser_pages import choose_corpus
from support.pages import ok, open_model_io, session_model, shown
from support.paths import APP_FILE
from support.train_page import choose_source, merge_pairs, open_more_settings, open_train, press_train

from bpe_core import Config, train
from bpe_core.formats import model_to_json
from pages.train import state as train_state
from session import page_registry, state
from session.page_registry import ENCODE

PAGES = [page.path for page in page_registry.PAGES]
AWKWARD_TEXT = (
    "nul\x00byte crlf\r\nlone\rcr tab\there\n"
    "family 👨\u200d👩\u200d👧 thumbs 👍🏽 flag 🇫🇷 "
    "e\u0301te\u0301 man\u0303ana שלום עולם مرحبا بالعالم zero\u200bwidth"
)


def trained_banana() -> AppTest:
    at = press_train(choose_source(open_train(), "banana_bandana"))
    assert merge_pairs(at) == BANANA_BANDANA
    return at


def paste(at: AppTest, text: str) -> AppTest:
    at = choose_source(at, "paste")
    return ok(at.text_area(key="train_paste").set_value(text).run())


# Words split at whitespace, characters, </w> as its own symbol, ties to the pair seen first: the word-level settings
# the tests of markers, words and special tokens need (the page's defaults are byte-level)
WORDS = {"split": "whitespace", "units": "chars", "end_of_word": "</w>", "tie_break": "first"}


def in_words(at: AppTest) -> AppTest:
    """``at`` with the Train form set to ``WORDS``."""
    for name, value in WORDS.items():
        at.session_state[train_state.SETTING_WIDGETS[name]] = value
    return ok(at.run())


def train_button(at: AppTest):
    return next(b for b in at.button if b.label == "Train")


def press_train_without_corpus(at: AppTest) -> AppTest:
    """Train stays enabled with no usable corpus (a click right after typing must work); pressing it says why
    nothing was trained."""
    at = ok(train_button(at).click().run())
    assert shown(at.warning) == (
        "Choose or enter a corpus to train on. Nothing was trained: the result below is still the current model's."
    )
    return at


def warnings(at: AppTest) -> str:
    return shown(at.warning)


def visit_every_page(at: AppTest) -> None:
    for page in PAGES:
        ok(at.switch_page(page).run())


# -- corpora -----------------------------------------------------------------------------


def test_an_empty_paste_cannot_be_trained_and_keeps_the_model():
    at = press_train_without_corpus(paste(trained_banana(), ""))
    assert merge_pairs(at) == BANANA_BANDANA


@pytest.mark.parametrize("text", ["   \n\t  ", "x"])
def test_whitespace_or_one_character_trains_no_merge_and_says_why(text):
    at = paste(in_words(open_train()), text)
    ok(at.text_input(key="train_end_of_word").set_value("").run())  # no marker: one letter has no pair
    at = press_train(at)
    assert "no pair is left to merge" in shown(at.info) and not at.warning  # the corpus's own limit: information
    assert at.info[-1].value == "No merges were made: every token is a base symbol."
    visit_every_page(at)


@pytest.mark.parametrize(
    "text, stop",
    [  # pasted text starts at minimum frequency 2; "</w>" ends each word
        ("ab ab", "every piece of the text is one token, no pair is left to merge"),  # a + b, then ab + </w>
        ("ab ab cd", "the best pair occurs once, below the minimum frequency 2"),  # the same two, then c + d: once
    ],
)
def test_pasted_text_says_which_stop_ended_training(text, stop):
    at = press_train(paste(in_words(open_train()), text))
    assert merge_pairs(at) == ["a b", "ab </w>"]
    assert f"Stopped after 2 merges: {stop} (asked for" in shown(at.info)


def test_one_word_a_million_times_trains_and_every_page_renders():
    at = press_train(paste(in_words(open_train()), " ".join(["hello"] * 1_000_000)))
    assert merge_pairs(at) == ["h e", "he l", "hel l", "hell o", "hello </w>"]
    visit_every_page(at)


@pytest.mark.slow  # several seconds
def test_a_200_000_character_word_trains_and_every_page_renders():
    rng = random.Random(3)
    word = "".join(rng.choice("abcdefghij") for _ in range(200_000))
    at = paste(open_train(), word)
    ok(at.number_input(key="train_merges").set_value(500).run())
    at = press_train(at)
    assert len(merge_pairs(at)) == 500
    assert at.session_state[state.CORPUS_KEY] == word
    visit_every_page(at)


def test_awkward_characters_train_encode_and_show_on_every_page():
    at = paste(open_train(), AWKWARD_TEXT)
    ok(at.radio(key="train_units").set_value("bytes").run())
    ok(at.selectbox(key="train_split").set_value("gpt2").run())
    ok(at.text_input(key="train_end_of_word").set_value("").run())
    at = press_train(at)
    assert session_model(at).merges
    visit_every_page(at)
    ok(at.switch_page(ENCODE.path).run())
    ok(at.text_area(key="encode_text").set_value(AWKWARD_TEXT).run())
    assert "**Round trip OK**: `decode(encode(text)) == text`" in [s.value for s in at.success]


# -- uploads -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, data, message",
    [
        (
            "latin1.txt",
            "crème brûlée".encode("latin-1"),
            "latin1.txt: this is not UTF-8 text (byte 0xE8 at position 2 is not valid UTF-8; Latin-1 or "
            "Windows-1252 perhaps?), please save it as UTF-8",
        ),
        (
            "binary.txt",
            bytes(range(256)) * 4,
            "binary.txt: this looks like a binary file (it contains NUL bytes), not UTF-8 text",
        ),
        ("empty.txt", b"", "empty.txt: the file is empty"),
        (
            "wide.txt",
            "\ufeffhello".encode("utf-16-le"),
            "wide.txt: this is UTF-16 or UTF-32 text; please save it as UTF-8 and upload it again",
        ),
    ],
)
def test_unreadable_uploads_name_the_file_and_keep_the_model(name, data, message):
    at = choose_source(trained_banana(), "upload")
    ok(at.file_uploader(key="train_corpus_files").set_value([(name, data, "text/plain")]).run())
    assert shown(at.error) == message
    at = press_train_without_corpus(at)
    assert merge_pairs(at) == BANANA_BANDANA


def test_the_upload_help_states_the_size_limit():
    at = choose_source(open_train(), "upload")
    assert "at most 10 MB" in at.file_uploader(key="train_corpus_files").help


# -- settings that cannot work ---------------------------------------------------------------


def test_a_vocabulary_below_the_base_alphabet_is_a_warning():
    at = trained_banana()
    ok(at.radio(key="train_stop_by").set_value("vocab_size").run())
    ok(at.number_input(key="train_vocab_size").set_value(2).run())
    at = press_train(at)
    assert "smaller than the base vocabulary" in warnings(at)
    assert not at.success


def test_more_merges_than_possible_trains_what_it_can_and_says_so():
    at = trained_banana()
    ok(at.number_input(key="train_merges").set_value(100_000).run())
    at = press_train(at)
    assert merge_pairs(at)[:6] == BANANA_BANDANA
    assert "no pair is left to merge" in shown(at.info) and "100,000 merges" in shown(at.info)


def test_a_marker_that_occurs_in_the_corpus_is_warned_about():
    at = paste(in_words(open_train()), "snake_case long_name plain words")
    ok(at.text_input(key="train_end_of_word").set_value("_").run())
    at = press_train(at)
    assert "end-of-word marker '_' also occurs inside 2 distinct word" in warnings(at)


def test_a_special_token_in_the_corpus_is_special_and_the_glossary_says_so():
    at = open_more_settings(paste(in_words(open_train()), "a<s>b a<s>b"))
    assert "recognised as that special token" not in shown(at.markdown)  # folded: not drawn
    at.session_state[train_state.GLOSSARY_WIDGET] = True  # "What the settings mean", drawn only when open
    ok(at.text_input(key="train_special_tokens").set_value("<s>").run())
    assert "recognised as that special token" in shown(at.markdown)
    model = session_model(press_train(at))
    assert model.tokenize("a<s>b") == ["a</w>", "<s>", "b</w>"]
    assert "<" not in model.vocab and "s" not in model.vocab  # its characters were never learned from


def test_a_duplicate_special_token_is_an_error_and_keeps_the_model():
    at = open_more_settings(trained_banana())
    ok(at.text_input(key="train_special_tokens").set_value("<s>, <s>").run())
    assert "'<s>' is listed twice" in shown(at.error)
    assert train_button(at).disabled
    assert merge_pairs(at) == BANANA_BANDANA


# -- model files --------------------------------------------------------------------------


# The loader's messages for each kind of bad file are tested in test_model_io.py; here: the page survives.
SAVED_MODEL = model_to_json(train("banana_bandana_", Config(split="none"), merges=6))
BAD_MODEL_FILES = {
    "truncated.json": SAVED_MODEL[: len(SAVED_MODEL) // 2].encode(),
    "binary.json": bytes(range(256)),
    "empty.json": b"",
}


@pytest.mark.parametrize("name", list(BAD_MODEL_FILES))
def test_a_bad_model_file_is_an_error_and_keeps_the_model(name):
    at = trained_banana()
    upload = [(name, BAD_MODEL_FILES[name], "application/json")]
    ok(open_model_io(at, "train").file_uploader(key="train_tokenizer_files").set_value(upload).run())
    assert f"Could not load {name}: " in shown(at.error) and "current model is kept" in shown(at.error)
    assert merge_pairs(at) == BANANA_BANDANA


# The file: HF refuses it at load ("invalid value: integer `-5`, expected u32"); before, it loaded and
# encoding "abc" gave only "b".
NEGATIVE_ID_FILE = (
    '{"model": {"type": "BPE", "vocab": {"a": -5, "b": 99999999999, "c": 2}, "merges": []}, "added_tokens": []}'
)


@pytest.mark.parametrize("page", ["train", "encode"])
def test_a_tokenizer_json_with_a_negative_id_is_refused_naming_the_field_and_keeps_the_model(page):
    at = trained_banana()
    if page == "encode":
        at = ok(at.switch_page(ENCODE.path).run())
    upload = [("bad.tokenizer.json", NEGATIVE_ID_FILE.encode(), "application/json")]
    ok(open_model_io(at, page).file_uploader(key=f"{page}_tokenizer_files").set_value(upload).run())
    assert shown(at.error) == (
        'Could not load bad.tokenizer.json: model.vocab["a"]: id -5 is not a whole number from 0 to 4294967295. '
        "The current model is kept."
    )
    assert merge_pairs(ok(at.switch_page(page_registry.TRAIN.path).run())) == BANANA_BANDANA


# -- links ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["../../etc/passwd", "/etc/passwd", "data/kjv_sample.txt", "kjv_sample"])
def test_a_link_never_names_a_file_on_the_server(preset):
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params.update({"preset": preset, "text": "ignored"})
    presets = "documents, low, banana, banana_bandana, hello, sample, languages, english90, paste"
    assert f"preset={preset}: choose one of {presets}" in warnings(ok(at.run()))  # named by the first page
    assert at.session_state[state.ABOUT_KEY].corpus_source == "sample"  # the default model, nothing read


@pytest.mark.browser
def test_an_upload_over_the_size_limit_is_refused_in_the_browser(app_server, page, screenshot):
    open_app(page, app_server, "Train")
    model_line = page.locator('[data-testid="stSidebar"] [data-testid="stCaptionContainer"]').first.inner_text()
    choose_corpus(page, "Upload .txt files")
    too_big = b"word " * (2_200_000)  # 11 MB: over maxUploadSize = 10
    page.locator(f'{MAIN} input[type="file"]').first.set_input_files(
        [{"name": "huge.txt", "mimeType": "text/plain", "buffer": too_big}]
    )
    wait_for_app(page)
    uploader = page.locator(f'{MAIN} [data-testid="stFileUploader"]').first
    assert re.search(r"File must be 10(\.0)?\s?MB or smaller", uploader.inner_text())
    page.locator(f'{MAIN} [data-testid="stBaseButton-primary"]').filter(has_text="Train").click()
    wait_for_app(page)
    assert page.locator(f'{MAIN} [data-testid="stAlertContentWarning"]').inner_text() == (
        "Choose or enter a corpus to train on. Nothing was trained: the result below is still the current model's."
    )
    assert page.locator('[data-testid="stSidebar"] [data-testid="stCaptionContainer"]').first.inner_text() == model_line
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page)
