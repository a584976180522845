"""The Compare page under Streamlit's AppTest: every tab, the default model, textbook models and GPT-2."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import Config, load_gpt2, train
from browser_helpers import REPO_ROOT

APP_FILE = str(REPO_ROOT / "app.py")
PAGE = "pages/4_Compare.py"
TABS = [
    ":material/show_chart: Compression",
    ":material/compare_arrows: Side by side",
    ":material/content_cut: Pre-tokenizers",
    ":material/smart_toy: Against GPT-2",
    ":material/bar_chart: Vocabulary usage",
]
BANANA = "banana_bandana_"


def errors(at: AppTest) -> list[str]:
    return [e.message for e in at.exception]


def open_compare(model=None, corpus: str = "", tab: str | None = None, text: str | None = None) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    if model is not None:
        at.session_state["bpe_model"] = model
        at.session_state["bpe_corpus"] = corpus
        at.session_state["bpe_settings"] = {}
    if tab is not None:
        at.session_state["compare_tab"] = tab
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, errors(at)
    if text is not None:
        at.text_area(key="compare_text").set_value(text).run()
        assert not at.exception, errors(at)
    return at


def markdown_texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture(scope="module")
def banana():
    return train(BANANA, Config(split="none"), merges=6)


def test_default_model_shows_curves_and_three_sizes():
    at = open_compare()
    assert [s.value for s in at.slider] == [0, 200, 2000]  # default sizes for the 2,000-merge default model
    assert [n.value for n in at.number_input] == [0, 200, 2000]
    assert len(at.get("plotly_chart")) == 1
    table = at.dataframe[0].value
    assert list(table["merges"]) == [0, 200, 2000]
    assert list(table.columns) == [
        "merges", "training corpus: tokens", "training corpus: chars/token", "your text: tokens", "your text: chars/token",
    ]


@pytest.mark.parametrize("tab", TABS[1:])
def test_every_tab_renders_with_the_default_model(tab):
    at = open_compare(tab=tab)
    assert at.tabs[0].label == TABS[0]


def test_side_by_side_counts_match_the_engine(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS[1], text="bandana_banana_")
    assert [s.value for s in at.slider] == [0, 1, 6]
    counts = [len(banana.prefix(k).encode("bandana_banana_")) for k in (0, 1, 6)]
    text = markdown_texts(at)
    for size, count in zip((0, 1, 6), counts):
        assert f"{size:,} merges (vocabulary of {len(banana.prefix(size).vocab)}) — **{count} tokens**" in text


def test_slider_and_typed_size_stay_in_step(banana):
    at = open_compare(banana, corpus=BANANA)
    at.slider(key="compare_size_1").set_value(4).run()
    assert at.number_input(key="compare_size_typed_1").value == 4
    at.number_input(key="compare_size_typed_2").set_value(3).run()
    assert at.slider(key="compare_size_2").value == 3
    assert not at.exception, errors(at)
    table = at.dataframe[0].value
    assert list(table["merges"]) == [0, 4, 3]
    assert list(table["training corpus: tokens"]) == [len(banana.prefix(k).encode(BANANA)) for k in (0, 4, 3)]


def test_fewer_sizes(banana):
    at = open_compare(banana, corpus=BANANA)
    at.session_state["compare_size_count"] = 2
    at.run()
    assert not at.exception, errors(at)
    assert len(at.slider) == 2


def test_tie_break_preset_reports_the_first_difference():
    # the session model's config with tie-break first vs hf, trained on its corpus
    model = train(BANANA, Config(split="none"), merges=6)
    at = open_compare(model, corpus=BANANA, tab=TABS[2], text=BANANA)
    at.radio(key="compare_pretok_preset").set_value("Tie-break: first  vs  hf").run()
    assert not at.exception, errors(at)
    text = markdown_texts(at)
    assert "first differ at **step 2**: A merges `b + an`, B merges `a + _`" in text


def test_invalid_custom_configuration_is_an_error_not_a_traceback():
    at = open_compare(tab=TABS[2])
    at.radio(key="compare_pretok_preset").set_value("Custom").run()
    at.selectbox(key="compare_custom_split_A").set_value("gpt2").run()
    at.selectbox(key="compare_custom_marker_A").set_value("</w>").run()
    assert not at.exception, errors(at)
    assert any("Configuration A is not valid" in e.value for e in at.error)


def test_gpt2_tab_shows_both_counts(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS[3], text="Hello, ByteLevel BPE!")
    text = markdown_texts(at)
    assert "GPT-2, 50,000 merges — **7 tokens**" in text  # [15496, 11, 30589, 4971, 347, 11401, 0]


def test_usage_tab_counts_never_used_tokens(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS[4], text=BANANA)
    metrics = {m.label: m.value for m in at.metric}
    # banana_bandana_ at 6 merges is banana_ban | d | ana_: 3 of 11 entries used
    assert metrics == {"Vocabulary entries": "11", "Used at least once": "3", "Never used": "8"}
    assert len(at.get("plotly_chart")) == 1
    assert at.expander[0].label == "Merged tokens this text never uses (4)"
    table = at.expander[0].dataframe[0].value
    assert list(table["step"]) == [1, 2, 3, 5] and list(table["token"]) == ["an", "ban", "ana", "banana_"]


@pytest.mark.parametrize("tab", TABS)
def test_gpt2_as_the_session_model(tab):
    # GPT-2 has no corpus and no training counts
    at = open_compare(load_gpt2(), corpus="", tab=tab)
    assert not at.exception, errors(at)


def test_model_without_merges():
    at = open_compare(train(BANANA, Config(split="none"), merges=0), corpus=BANANA, tab=TABS[1], text=BANANA)
    assert any("no merges" in i.value for i in at.info)
    assert "0 merges (vocabulary of 6) — **15 tokens**" in markdown_texts(at)
