"""The Start page, the site's root: the session's model cuts a text into coloured tokens with no <unk> (the default
model is byte-level), a slider re-cuts it with fewer merges, the text box takes one's own text and hands it to
Encode, and a line leads to each of Train, Merges, Compare and Class."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from streamlit.testing.v1 import AppTest
from support.awkward_text import awkward_text
from support.pages import ok, session_model, shown
from support.paths import APP_FILE

from pages.encode import state as encode_state
from pages.start import state as start_state
from pages.start.views.first_screen import HEADING, SAMPLE_TEXT
from session.page_registry import CLASS, COMPARE, ENCODE, MERGES, START, TRAIN

# What people paste beyond tests/awkward_text.py's fragments: Devanagari with its vowel signs and virama, code with
# a tab, an emoji with a skin tone and one joined by ZWJ, Chinese, Arabic
PASTED = ("नमस्ते दुनिया", "def f(x):\n\treturn x * 2", "👩🏾\u200d💻", "分词器", "مرحبا", "½ ≠ 0.5", "\t")


def token_boxes(at: AppTest) -> str:
    """The HTML of the text cut into tokens (drawing.token_html): the page's one element with a box per token."""
    return next(element.value for element in at.get("html") if 'class="bpe-scroll"' in element.value)


def box_count(at: AppTest) -> int:
    return len(re.findall(r'class="tok ', token_boxes(at)))


@pytest.fixture(scope="module")
def first_visit() -> AppTest:
    """A new session opening the site's root."""
    return ok(AppTest.from_file(APP_FILE, default_timeout=120).run())


def test_the_root_is_start_and_shows_the_sample_cut_into_tokens_none_unknown(first_visit):
    at = first_visit
    assert at.title[0].value == HEADING
    assert at.text_input(key=start_state.TEXT_KEY).value == SAMPLE_TEXT
    boxes = token_boxes(at)
    assert "tok k-unknown" not in boxes and "&lt;unk&gt;" not in boxes  # the style names the class; no box has it
    # "And God said" (the sample corpus's own words) are tokens of their own: fewer boxes than characters
    assert 0 < box_count(at) < len(SAMPLE_TEXT)
    assert re.search(r"\*\*\d+ tokens\*\* for 64 characters after 2,000 merges", shown(at.markdown))


def test_the_default_model_is_byte_level_with_no_unknown_token(first_visit):
    model = session_model(first_visit)
    assert (model.config.split, model.config.units, len(model.merges)) == ("gpt2", "bytes", 2000)


@settings(max_examples=60, deadline=None)
@given(text=awkward_text(*PASTED))
def test_the_default_model_encodes_any_pasted_text_losslessly(first_visit, text):
    model = session_model(first_visit)
    tokens = model.encode_with_spans(text)
    assert all(token.kind != "unknown" for token in tokens)
    assert model.decode([token.id for token in tokens]) == text


def test_no_merge_cuts_the_text_into_its_bytes_and_ones_own_text_is_cut_too():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(0).run())
    assert box_count(at) == len(SAMPLE_TEXT.encode("utf-8"))  # byte-level: one base token per byte
    assert "before any merge: one per base symbol" in shown(at.markdown)
    ok(at.text_input(key=start_state.TEXT_KEY).set_value("And God said").run())
    assert box_count(at) == len("And God said")  # ASCII: one byte a character
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(2000).run())
    # among the Bible's commonest words, And opening a verse, ␣God and ␣said are one token each after 2,000 merges
    assert box_count(at) == 3
    assert "3 tokens** for 12 characters after 2,000 merges (12 before any merge)" in shown(at.markdown)
    ok(at.switch_page(ENCODE.path).run())
    assert at.text_area(key=encode_state.TEXT_KEY).value == "And God said"  # one text for the pages


def key_under_the_boxes(at: AppTest) -> str:
    return next(element.value for element in at.get("html") if 'class="legend"' in element.value)


def test_the_key_names_the_outline_of_the_last_merge_s_token_when_one_is_drawn():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    outline = "the token made by the last merge has a thick green outline"
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(5).run())
    # the default model's 5th merge makes "nd" (Merges' step 5), which "And" and "and" in the sample hold: both outlined
    assert re.findall(r' new" data-details="[^"]*" tabindex="0">([^<]*)<', token_boxes(at)) == ["nd", "nd"]
    assert outline in key_under_the_boxes(at)
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(0).run())
    assert ' new" ' not in token_boxes(at) and outline not in key_under_the_boxes(at)  # no merge, no outline


def test_the_address_keeps_the_text_and_the_slider_and_a_reload_brings_them_back():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    assert dict(at.query_params) == {}  # the sample at the whole model: nothing to say
    ok(at.text_input(key=start_state.TEXT_KEY).set_value("Tokenization is surprisingly unintuitive").run())
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(5).run())
    address = {name: at.query_params[name] for name in at.query_params}
    assert address == {"input": "Tokenization is surprisingly unintuitive", "learned": "5"}
    reloaded = AppTest.from_file(APP_FILE, default_timeout=120)  # a new session at that address: a reload
    reloaded.query_params.update({"input": "Tokenization is surprisingly unintuitive", "learned": "5"})
    ok(reloaded.run())
    assert reloaded.text_input(key=start_state.TEXT_KEY).value == "Tokenization is surprisingly unintuitive"
    assert reloaded.select_slider(key=start_state.MERGES_KEY).value == 5
    assert not reloaded.warning


def test_a_bad_slider_value_in_the_address_is_named_and_one_between_stops_rounds_down():
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update({"learned": "abc"})
    ok(at.run())
    assert shown(at.warning) == (
        "Ignored in the address: learned=abc: choose a whole number from 0 to 1,000,000. "
        "The page's defaults are used instead."
    )
    assert at.select_slider(key=start_state.MERGES_KEY).value == 2000  # the whole model
    between = AppTest.from_file(APP_FILE, default_timeout=120)
    between.query_params.update({"learned": "7"})
    ok(between.run())
    assert between.select_slider(key=start_state.MERGES_KEY).value == 5  # stops 0, 1, 2, 5, 10, ...: 7 to 5
    assert not between.warning


def test_the_slider_stops_at_powers_of_ten_times_one_two_five():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    slider = at.select_slider(key=start_state.MERGES_KEY)
    assert slider.options == ["0", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1,000", "2,000"]
    assert slider.value == 2000  # the whole model first


def test_a_line_leads_to_each_next_page(first_visit):
    links = first_visit.get("page_link")
    assert [link.proto.page for link in links] == [page.url_path for page in (TRAIN, MERGES, COMPARE, CLASS)]
    assert all(link.proto.label for link in links)


def test_play_steps_through_the_merges_and_leaves_the_whole_model():
    """Play, pressed with the slider at no merge, runs its frames in one run and ends on the whole model: the slider
    at 2,000 and "And God said" in its three tokens (as the test above works out)."""
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    ok(at.text_input(key=start_state.TEXT_KEY).set_value("And God said").run())
    ok(at.select_slider(key=start_state.MERGES_KEY).set_value(0).run())
    assert box_count(at) == 12
    ok(at.button(key=start_state.PLAY_KEY).click().run())
    assert at.select_slider(key=start_state.MERGES_KEY).value == 2000
    assert box_count(at) == 3
    assert not at.get("progress")  # the bar stood in the slider's place only while playing


def test_a_text_of_several_lines_gets_a_text_area_and_one_line_a_box_that_follows_typing():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    ok(at.switch_page(ENCODE.path).run())
    ok(at.text_area(key=encode_state.TEXT_KEY).set_value("low\nlower").run())
    ok(at.switch_page(START.path).run())
    assert at.text_area(key=start_state.TEXT_KEY).value == "low\nlower"  # its line break kept
    # words that hold on a phone, which has no Ctrl+Enter, as on a keyboard
    assert at.text_area(key=start_state.TEXT_KEY).label == (
        "Your text (several lines): press Ctrl+Enter, or tap or click outside the box, to re-cut it"
    )
    ok(at.text_area(key=start_state.TEXT_KEY).set_value("low lower").run())
    assert at.text_input(key=start_state.TEXT_KEY).value == "low lower"
    assert "follow as you type" in at.text_input(key=start_state.TEXT_KEY).label
