"""The Train page under Streamlit's AppTest: presets, settings, uploads, model files, page switches, links."""

from __future__ import annotations

import codecs

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import Config, load_gpt2, train
from browser_helpers import REPO_ROOT
from viz import state

APP_FILE = str(REPO_ROOT / "app.py")
TRAIN_PAGE = "pages/1_Train.py"
BANANA_BANDANA = ["a n", "b an", "an a", "ana _", "ban ana_", "banana_ ban"]

# The textbook corpora with their textbook settings, written out independently of the page's preset table.
TEXTBOOK = {
    "documents": (
        "This is the first document.\nThis document is the second document.\n"
        "And this is the third one.\nIs this the first document?",
        Config(split="whitespace", end_of_word="</w>"), {"merges": 15},
    ),
    "low": (
        "low lower newest widest low low low low newest newest newest newest",
        Config(split="whitespace", end_of_word="_", min_frequency=2), {"vocab_size": 50},
    ),
    "banana": ("banana banana", Config(split="none", space_marker=True), {"merges": 10}),
    "banana_bandana": ("banana_bandana_", Config(split="none"), {"merges": 6}),
    "hello": ("hello world\nhello there\nworld peace\nhi there", Config(split="whitespace"), {"merges": 100}),
}


def open_train(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params.update(query or {})
    return ok(at.run())


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def merge_pairs(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["pair"])


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def press_train(at: AppTest) -> AppTest:
    button = next(b for b in at.button if b.label == "Train")
    return ok(button.click().run())


def choose(at: AppTest, source: str) -> AppTest:
    return ok(at.selectbox(key="train_source").set_value(source).run())


def textbook_pairs(name: str) -> list[str]:
    text, config, size = TEXTBOOK[name]
    return [f"{left} {right}" for left, right in train(text, config, **size).merges]


def test_first_visit_shows_the_default_model_summary():
    at = open_train()
    expected = train(state.sample_text(), state.DEFAULT_CONFIG, merges=state.DEFAULT_MERGES)
    assert metric(at, "Merges made") == "2,000"
    assert metric(at, "Vocabulary size") == f"{expected.vocab_size:,}"
    assert merge_pairs(at)[:3] == [f"{left} {right}" for left, right in expected.merges[:3]]
    assert at.session_state[state.MODEL_KEY].merges == expected.merges
    assert any("2000 merges asked for" in s.value for s in at.success)
    assert float(metric(at, "Characters per token")) > 3  # 2,000 merges on English text compress well


@pytest.mark.parametrize("preset", list(TEXTBOOK))
def test_each_textbook_preset_trains_its_textbook_merges(preset):
    at = press_train(choose(open_train(), preset))
    assert merge_pairs(at) == textbook_pairs(preset)
    assert at.query_params["preset"] == preset


def test_banana_bandana_shows_the_textbook_trace():
    at = press_train(choose(open_train(), "banana_bandana"))
    assert merge_pairs(at) == BANANA_BANDANA
    assert list(at.dataframe[0].value["count"])[:2] == [4, 2]
    assert metric(at, "Merges made") == "6"


def test_stopping_early_is_a_warning():
    at = press_train(choose(open_train(), "low"))
    assert any("below the minimum frequency 2" in w.value for w in at.warning)
    assert not at.success


def test_a_settings_change_changes_the_result():
    at = press_train(choose(open_train(), "hello"))
    before = merge_pairs(at)
    at.text_input(key="train_end_of_word").set_value("</w>").run()
    at = press_train(at)
    after = merge_pairs(at)
    assert after != before
    assert after == [f"{l} {r}" for l, r in train(TEXTBOOK["hello"][0], Config(end_of_word="</w>"), merges=100).merges]


def test_a_recipe_button_sets_its_settings():
    at = open_train()
    ok(next(b for b in at.button if b.label == "GPT-2 byte-level").click().run())
    assert at.selectbox(key="train_split").value == "gpt2"
    assert at.radio(key="train_units").value == "bytes"
    assert at.radio(key="train_tie_break").value == "hf"
    assert at.text_input(key="train_end_of_word").value == ""


def test_an_invalid_combination_shows_the_error_and_keeps_the_model():
    at = press_train(choose(open_train(), "banana_bandana"))
    model = at.session_state[state.MODEL_KEY]
    ok(at.text_input(key="train_end_of_word").set_value("_").run())
    assert any("whitespace pre-tokenization" in e.value for e in at.error)
    assert next(b for b in at.button if b.label == "Train").disabled
    assert at.session_state[state.MODEL_KEY] is model
    assert merge_pairs(at) == BANANA_BANDANA


def test_pasted_text_trains_and_goes_into_the_link():
    at = choose(open_train(), "paste")
    ok(at.text_area(key="train_paste").set_value("hug hug pug").run())
    at = press_train(at)
    assert merge_pairs(at)[0] == "u g"
    assert at.query_params["text"] == "hug hug pug"


@pytest.mark.parametrize(
    "name, data", [("latin1.txt", "crème brûlée".encode("latin-1")), ("wide.txt", "hello".encode("utf-16"))]
)
def test_a_non_utf8_upload_shows_an_error_naming_the_file(name, data):
    at = choose(open_train(), "upload")
    ok(at.file_uploader(key="train_corpus_files").set_value([(name, data, "text/plain")]).run())
    assert any(e.value.startswith(f"{name}: ") for e in at.error)
    assert next(b for b in at.button if b.label == "Train").disabled  # nothing readable to train on


def test_a_utf8_upload_with_bom_trains():
    at = choose(open_train(), "upload")
    files = [("a.txt", codecs.BOM_UTF8 + b"banana_", "text/plain"), ("b.txt", b"bandana_", "text/plain")]
    ok(at.file_uploader(key="train_corpus_files").set_value(files).run())
    at = press_train(at)
    assert at.session_state[state.CORPUS_KEY] == "banana_\nbandana_"
    assert merge_pairs(at)[0] == "a n"


def test_a_saved_model_loads_back_and_a_bad_file_is_an_error():
    at = press_train(choose(open_train(), "banana_bandana"))
    saved = at.session_state[state.MODEL_KEY].to_json().encode("utf-8")

    ok(at.file_uploader(key="train_tokenizer_files").set_value(("junk.json", b'{"nope": "yes"}', "application/json")).run())
    assert any("junk\\.json" in e.value and "neither" in e.value for e in at.error)
    assert merge_pairs(at) == BANANA_BANDANA  # the trained model is kept

    fresh = open_train()
    ok(fresh.file_uploader(key="train_tokenizer_files").set_value(("model.json", saved, "application/json")).run())
    assert merge_pairs(fresh) == BANANA_BANDANA
    assert fresh.session_state[state.CORPUS_KEY] == ""
    assert metric(fresh, "Tokens per word") == "—"


def test_state_survives_a_page_switch():
    at = choose(open_train(), "banana_bandana")
    ok(at.number_input(key="train_merges").set_value(4).run())
    at = press_train(at)
    ok(at.switch_page("pages/2_Merges.py").run())
    ok(at.switch_page(TRAIN_PAGE).run())
    assert at.selectbox(key="train_source").value == "banana_bandana"
    assert at.number_input(key="train_merges").value == 4
    assert merge_pairs(at) == BANANA_BANDANA[:4]


def test_a_link_reproduces_the_training():
    at = choose(open_train(), "banana_bandana")
    ok(at.radio(key="train_tie_break").set_value("hf").run())
    at = press_train(at)
    link = dict(at.query_params)
    assert link == {"preset": "banana_bandana", "merges": "6", "tie": "hf"}

    again = open_train(link)
    assert merge_pairs(again) == merge_pairs(at)
    assert again.radio(key="train_tie_break").value == "hf"
    assert not again.warning


def test_nonsense_link_values_fall_back_with_a_warning():
    at = open_train({"preset": "banana_bandana", "merges": "many", "units": "nibbles"})
    warnings = " ".join(w.value for w in at.warning)
    assert "merges" in warnings and "units" in warnings
    assert merge_pairs(at) == BANANA_BANDANA  # the preset's own 6 merges, in characters


def test_a_recipe_on_the_real_sample_trains_through_the_progress_callback():
    at = choose(open_train(), "sample")
    ok(next(b for b in at.button if b.label == "GPT-2 byte-level").click().run())
    ok(at.number_input(key="train_merges").set_value(200).run())
    at = press_train(at)
    model = at.session_state[state.MODEL_KEY]
    assert (model.config.split, model.config.units, len(model.merges)) == ("gpt2", "bytes", 200)
    expected = train(state.sample_text(), Config(split="gpt2", units="bytes", tie_break="hf"), merges=200)
    assert merge_pairs(at) == [f"{left} {right}" for left, right in expected.merges]
    assert dict(at.query_params) == {"preset": "sample", "merges": "200", "split": "gpt2", "eow": "",
                                     "units": "bytes", "tie": "hf"}


def test_corpus_size_is_shown():
    at = choose(open_train(), "banana_bandana")
    sizes = " ".join(c.value for c in at.caption)
    assert "15 characters · 15 bytes (UTF-8) · 1 word · 1 unique piece (split: none)" in sizes


def test_a_model_without_counts_renders():
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state[state.MODEL_KEY] = load_gpt2()
    at.session_state[state.CORPUS_KEY] = ""
    at.session_state[state.SETTINGS_KEY] = {"preset": "gpt2"}
    ok(at.run())
    assert metric(at, "Merges made") == "50,000"
    assert merge_pairs(at)[0] == "Ġ t"
    assert at.dataframe[0].value["count"].isna().all()
    assert any("no training counts" in c.value for c in at.caption)
    assert any("GPT" in m.value for m in at.markdown)


def test_a_link_with_an_invalid_combination_trains_nothing():
    at = open_train({"preset": "banana_bandana", "eow": "_"})
    assert any("whitespace pre-tokenization" in e.value for e in at.error)
    assert metric(at, "Merges made") == "2,000"  # still the default model
    assert "preset" not in at.query_params
