"""The Train page under Streamlit's AppTest: presets, settings, uploads, model files, page switches, links."""

from __future__ import annotations

import codecs
import json

import pytest
from streamlit.testing.v1 import AppTest
from support.banana import BANANA_BANDANA
from support.byte_level_text import spelled_pair
from support.pages import ok, open_model_io, press, session_model, shown, train_metric
from support.paths import APP_FILE
from support.train_page import choose_source, merge_pairs, open_more_settings, open_train, press_train
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models, pre_tokenizers, trainers

from bpe_core import Config, load_gpt2
from bpe_core.formats import model_to_json
from bpe_core.settings_table import SETTINGS
from pages.train import state as train_state
from session import state
from session.model_about import ModelAbout
from session.page_registry import MERGES, TRAIN
from session.training_settings import DEFAULT_SETTINGS

TRAIN_PAGE = TRAIN.path

# What each textbook preset trains, worked out by hand (the first merges where the list is long); ties go to
# the pair that occurs first in the corpus.
TEXTBOOK = {
    # This is the first document. ... ("s </w>" ends This, is, this and Is: 8 times; then "i s</w>" and "t h"
    # both occur 7 times, and "i s</w>" comes first, in "This")
    "documents": ["s </w>", "i s</w>", "t h"],
    # low ×5 lower newest ×5 widest, "_" as its own symbol: "l o" and "lo w" (6 each, first), then newest's
    # "e s", "es t", "est _" (6 each)
    "low": ["l o", "lo w", "e s", "es t", "est _"],
    "banana": ["a n", "b an", "ban an", "banan a", "banana Ġ", "bananaĠ banana"],
    "banana_bandana": BANANA_BANDANA,
    # "h e" occurs 4 times (hello ×2, there ×2); every other pair of hello, world, there twice, then peace and hi
    # once: each word is merged whole, in corpus order
    "hello": [
        "h e",
        "he l",
        "hel l",
        "hell o",
        "w o",
        "wo r",
        "wor l",
        "worl d",
        "t he",
        "the r",
        "ther e",
        "p e",
        "pe a",
        "pea c",
        "peac e",
        "h i",
    ],
}


def hf_byte_level_merges(text: str, merges: int) -> list[str]:
    """The merges HF tokenizers' BpeTrainer learns from ``text`` with GPT-2's byte-level pre-tokenizer, as the page
    spells them (the text their bytes make)."""
    reference = HFTokenizer(models.BPE())
    reference.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    reference.train_from_iterator([text], trainer=trainer)
    merges = json.loads(reference.to_str())["model"]["merges"]
    return [spelled_pair(*(merge if isinstance(merge, list) else merge.split(" "))) for merge in merges]


def test_first_visit_shows_the_default_model_summary():
    at = open_train()
    model = session_model(at)
    # the default: GPT-2's byte-level recipe (its split, bytes, HF's tie-break), 2,000 merges
    assert model.config == Config(split="gpt2", units="bytes", tie_break="hf")
    assert train_metric(at, "Merges made") == "2,000"
    assert train_metric(at, "Vocabulary size") == f"{len(model.vocab):,}"
    pairs = merge_pairs(at)  # the table shows that model: HF's byte-level trainer makes the same merges
    assert len(pairs) == 2000 and pairs[:50] == hf_byte_level_merges(state.sample_text(), 50)
    assert shown(at.success) == "Made the 2,000 merges asked for."
    assert float(train_metric(at, "Characters per token")) > 3  # 2,000 merges on English text compress well


def test_pressing_train_on_the_default_form_keeps_the_default_model():
    at = open_train()
    model = session_model(at)
    assert model.config == DEFAULT_SETTINGS.to_config() and len(model.merges) == DEFAULT_SETTINGS.merges
    assert session_model(press_train(at)) is model  # found in the store, not trained again


def test_a_session_holds_a_handle_and_a_released_model_is_trained_again():
    """The session holds its model's key in the shared store, not the model: when the store releases it for other
    visitors' models, the next run trains the same model again from the session's corpus and settings."""
    at = press_train(choose_source(open_train(), "banana_bandana"))
    held = at.session_state[state.MODEL_KEY]
    merges = session_model(at).merges
    assert merges[:2] == [("a", "n"), ("b", "an")]  # banana_bandana_: a+n, then b+an, worked out by hand
    state.model_store().discard(held.key)
    assert session_model(at) is None  # released: the session kept only the handle
    ok(at.run())
    assert session_model(at).merges == merges and merge_pairs(at)[:2] == ["a n", "b an"]
    assert at.session_state[state.MODEL_KEY] == held  # the same model, not the default


def test_the_default_model_is_pinned_in_the_store():
    """Other visitors' models never release the default model: every new session needs it at once."""
    at = open_train()
    default = session_model(at)
    store = state.model_store()
    others = store.ceiling_bytes - store.pinned_bytes  # all the room there is beside the pinned models
    store.put("someone else's big model", "a model", size=others)
    try:
        assert store.get(at.session_state[state.MODEL_KEY].key) is default and store.held_bytes == store.ceiling_bytes
    finally:
        store.discard("someone else's big model")


@pytest.mark.parametrize("preset", list(TEXTBOOK))
def test_each_textbook_preset_trains_its_textbook_merges(preset):
    at = press_train(choose_source(open_train(), preset))
    assert merge_pairs(at)[: len(TEXTBOOK[preset])] == TEXTBOOK[preset]
    assert at.query_params["preset"] == preset


def test_banana_bandana_shows_the_textbook_trace():
    at = press_train(choose_source(open_train(), "banana_bandana"))
    assert merge_pairs(at) == BANANA_BANDANA
    assert list(at.dataframe[0].value["count"])[:2] == [4, 2]
    assert train_metric(at, "Merges made") == "6"


def test_the_merge_table_keys_the_marks_its_cells_show():
    """ "banana banana" writes its space as Ġ (the spaces-as-Ġ setting), so its table is keyed; banana_bandana_ has
    no mark to key."""
    at = press_train(choose_source(open_train(), "banana"))
    assert any("Ġ" in pair for pair in merge_pairs(at))
    keys = [caption.value.replace("\\", "") for caption in at.caption if "Key" in caption.value]
    assert keys == ["Key: Ġ a space in GPT-2's byte alphabet."]
    at = press_train(choose_source(open_train(), "banana_bandana"))
    merge_pairs(at)
    assert not [caption for caption in at.caption if "Key" in caption.value]


def test_stopping_early_at_the_minimum_frequency_is_information_not_a_warning():
    at = press_train(choose_source(open_train(), "low"))
    # worked out by hand: after l o, lo w, e s, es t, est _ (6 each) come low _, n e, ne w, new est_ (5 each);
    # every pair left occurs once
    assert shown(at.info) == (
        "Stopped after 9 merges: the best pair occurs once, below the minimum "
        "frequency 2 (asked for vocabulary size 50)."
    )
    assert not at.success and not at.warning


def test_a_settings_change_changes_the_result():
    at = press_train(choose_source(open_train(), "hello"))
    before = merge_pairs(at)
    at.text_input(key="train_end_of_word").set_value("</w>").run()
    at = press_train(at)
    after = merge_pairs(at)
    assert before == TEXTBOOK["hello"]
    # with </w> after every word: "h e" (4) still wins, then "e </w>" (there ×2 and peace: 3) beats every pair
    # inside hello, world and there (2 each)
    assert after[:2] == ["h e", "e </w>"]


def recipe_settings(at: AppTest) -> tuple[str, str, str, str]:
    """The form's split, units, tie-break and end-of-word marker: what a recipe button sets."""
    split, tie_break = at.selectbox(key="train_split").value, at.selectbox(key="train_tie_break").value
    return split, at.radio(key="train_units").value, tie_break, at.text_input(key="train_end_of_word").value


def test_a_recipe_button_sets_its_settings():
    at = open_more_settings(open_train())  # the tie-break is folded there
    at = press(at, "Sennrich (words + </w>)")
    # The default form is GPT-2's: its split, bytes, no marker, HF's tie-break (which Sennrich's recipe keeps).
    assert recipe_settings(at) == ("whitespace", "chars", "hf", "</w>")
    assert shown(at.toast).endswith(
        "Changed split gpt2 → whitespace, units bytes → characters, marker none → </w>, marker placement own symbol "
        "→ glued."
    )
    at = press(at, "GPT-2 byte-level (default)")
    assert recipe_settings(at) == ("gpt2", "bytes", "hf", "")
    assert shown(at.toast).endswith(
        "Changed split whitespace → gpt2, units characters → bytes, marker </w> → none, marker placement glued → "
        "own symbol."
    )
    at = press(at, "GPT-2 byte-level (default)")
    assert shown(at.toast).endswith("Nothing to change: the settings already follow this recipe.")


def test_pasted_text_says_which_settings_it_keeps_and_defaults_bring_them_back():
    at = choose_source(open_train(), "banana_bandana")  # a textbook corpus with its own settings: no note
    plain = "Start from a classic recipe (changes how text becomes symbols, not the size):"
    assert plain in shown(at.caption)
    ok(at.selectbox(key=train_state.SOURCE_WIDGET).set_value("paste").run())
    assert (
        "Your text is read with settings kept from before, not the defaults (split gpt2 → none, "
        "units bytes → characters, tie-break lowest ids → first seen). A recipe changes them; GPT-2 byte-level "
        "(default) goes back:"
    ) in shown(at.caption).split(" | ")
    ok(next(b for b in at.button if b.label == "GPT-2 byte-level (default)").click().run())
    assert (at.selectbox(key="train_split").value, at.radio(key="train_units").value) == ("gpt2", "bytes")
    assert plain in shown(at.caption) and "kept from before" not in shown(at.caption)


def test_an_invalid_combination_shows_the_error_and_keeps_the_model():
    at = press_train(choose_source(open_train(), "banana_bandana"))
    model = session_model(at)
    ok(at.text_input(key="train_end_of_word").set_value("_").run())
    assert "whitespace pre-tokenization" in shown(at.error)
    assert next(b for b in at.button if b.label == "Train").disabled
    assert session_model(at) is model
    assert merge_pairs(at) == BANANA_BANDANA


def test_pasted_text_trains_and_goes_into_the_link():
    at = choose_source(open_train(), "paste")
    ok(at.text_area(key="train_paste").set_value("hug hug pug").run())
    at = press_train(at)
    assert merge_pairs(at)[0] == "u g"
    assert at.query_params["text"] == "hug hug pug"
    # GPT-2's split: hug, Ġhug, Ġpug. Pasted text stops at min frequency 2: u+g (3), h+ug (2, in hug and Ġhug);
    # Ġ+hug, Ġ+p and p+ug occur once, so hug | Ġ hug | Ġ p ug: 6 tokens for 3 words and 11 characters.
    assert merge_pairs(at) == ["u g", "h ug"]
    assert (train_metric(at, "Tokens per word"), train_metric(at, "Characters per token")) == ("2.00", "1.83")


def test_a_textbook_s_sizes_stay_behind_and_pasted_text_starts_at_min_frequency_two():
    at = choose_source(open_train(), "low")  # the textbook's own: vocabulary 50, min frequency 2
    widgets = train_state.SETTING_WIDGETS
    sizes = ("stop_by", "merges", "vocab_size", "min_frequency")
    assert [at.session_state[widgets[name]] for name in sizes] == ["vocab_size", 2000, 50, 2]
    at = choose_source(at, "sample")  # 50 would train nothing on the Bible: the default sizes come back, and say so
    assert [at.session_state[widgets[name]] for name in sizes] == ["merges", 2000, 1000, 1]
    assert at.session_state[widgets["end_of_word"]] == "_"  # how text becomes symbols is kept
    assert not at.toast  # a caption beside the settings says it: a toast covered a phone's title and Train button
    assert (
        "Changed for this corpus: stop after 2,000 merges (was: stop at a vocabulary of 50 tokens); merge any pair, "
        "even one seen once (was: merge only pairs seen at least twice). Why: a textbook's small sizes would train "
        "almost nothing on a real corpus."
    ) in shown(at.caption)
    at = choose_source(at, "paste")
    assert at.session_state[widgets["min_frequency"]] == 2
    assert "training stops once the best pair occurs fewer than twice (min frequency 2)" in shown(at.caption)
    assert (
        "Changed for this corpus: merge only pairs seen at least twice (was: merge any pair, even one seen once). "
        "Why: a word seen once in your own text should stay in pieces."
    ) in shown(at.caption)
    at = choose_source(at, "low")
    assert (
        "Changed for this corpus: stop at a vocabulary of 50 tokens (was: stop after 2,000 merges). Why: they are "
        "the textbook example's own."
    ) in shown(at.caption)
    at = press_train(at)
    assert "Changed for this corpus" not in shown(at.caption)  # it told of the form before this model


def test_text_without_spaces_gets_a_one_click_byte_level_split():
    at = choose_source(open_train(), "paste")
    ok(next(b for b in at.button if b.label == "Sennrich (words + </w>)").click().run())  # the whitespace split
    ok(at.text_area(key="train_paste").set_value("分词器把文本切成语言模型能够计数的小块。" * 3).run())
    assert [info.value for info in at.info][0].startswith("This text has few spaces between its words")
    ok(next(b for b in at.button if b.label == "Use bytes with the GPT-4 split").click().run())
    widgets = train_state.SETTING_WIDGETS
    assert (at.session_state[widgets["split"]], at.session_state[widgets["units"]]) == ("gpt4", "bytes")
    assert not any(info.value.startswith("This text has few spaces") for info in at.info)
    at = press_train(at)
    assert session_model(at).config.split == "gpt4"


def test_a_utf8_upload_with_bom_trains():
    at = choose_source(open_train(), "upload")
    files = [("a.txt", codecs.BOM_UTF8 + b"banana_", "text/plain"), ("b.txt", b"bandana_", "text/plain")]
    ok(at.file_uploader(key="train_corpus_files").set_value(files).run())
    at = press_train(at)
    assert at.session_state[state.CORPUS_KEY] == "banana_\nbandana_"
    assert merge_pairs(at)[0] == "a n"


def test_uploaded_files_train_line_by_line():
    at = choose_source(open_train(), "upload")
    assert "Uploaded files are read line by line, as HF tokenizers does: no token crosses a line end." in shown(
        at.caption
    )
    ok(at.text_input(key="train_end_of_word").set_value("").run())
    ok(at.selectbox(key="train_split").set_value("none").run())
    ok(at.number_input(key="train_merges").set_value(3).run())
    ok(at.file_uploader(key="train_corpus_files").set_value([("lines.txt", b"ab\nab\n", "text/plain")]).run())
    at = press_train(at)
    # Worked out by hand: each line "ab\n" is a piece of its own (twice), so after "a b" and "ab \n" no pair is
    # left; read whole, "ab\nab\n" would be one piece and the third merge would join "ab\n ab\n".
    assert merge_pairs(at) == ["a b", "ab ↵"]


def test_a_saved_model_loads_back_and_a_bad_file_is_an_error():
    at = press_train(choose_source(open_train(), "banana_bandana"))
    saved = model_to_json(session_model(at)).encode("utf-8")

    ok(
        open_model_io(at, "train")
        .file_uploader(key="train_tokenizer_files")
        .set_value(("junk.json", b'{"nope": "yes"}', "application/json"))
        .run()
    )
    assert "junk.json" in shown(at.error) and "neither" in shown(at.error)
    assert merge_pairs(at) == BANANA_BANDANA  # the trained model is kept

    fresh = open_train()
    ok(
        open_model_io(fresh, "train")
        .file_uploader(key="train_tokenizer_files")
        .set_value(("model.json", saved, "application/json"))
        .run()
    )
    assert merge_pairs(fresh) == BANANA_BANDANA
    assert fresh.session_state[state.CORPUS_KEY] == ""
    assert train_metric(fresh, "Tokens per word") == "—"


def test_state_survives_a_page_switch():
    at = choose_source(open_train(), "banana_bandana")
    ok(at.number_input(key="train_merges").set_value(4).run())
    at = press_train(at)
    ok(at.switch_page(MERGES.path).run())
    ok(at.switch_page(TRAIN_PAGE).run())
    assert at.selectbox(key="train_source").value == "banana_bandana"
    assert at.number_input(key="train_merges").value == 4
    assert merge_pairs(at) == BANANA_BANDANA[:4]


def test_more_settings_are_drawn_only_when_open_and_kept_while_folded():
    at = choose_source(open_train(), "banana_bandana")
    assert "train_min_frequency" not in [widget.key for widget in at.number_input]  # folded: not drawn
    at = open_more_settings(at)
    ok(at.number_input(key="train_min_frequency").set_value(3).run())
    at.session_state[train_state.MORE_WIDGET] = False
    at = press_train(ok(at.run()))
    # "a n" occurs 4 times in banana_ bandana_; after it the best pairs (b an, an a, a _) occur twice, below 3
    assert merge_pairs(at) == ["a n"]
    ok(at.switch_page(MERGES.path).run())
    at = open_more_settings(ok(at.switch_page(TRAIN_PAGE).run()))
    assert at.number_input(key="train_min_frequency").value == 3


def test_only_the_size_that_stops_training_is_drawn_and_the_other_keeps_its_value():
    at = choose_source(open_train(), "banana_bandana")
    ok(at.number_input(key="train_merges").set_value(3).run())
    assert "train_vocab_size" not in [widget.key for widget in at.number_input]
    ok(at.radio(key="train_stop_by").set_value("vocab_size").run())
    assert [widget.key for widget in at.number_input] == ["train_vocab_size"]
    ok(at.number_input(key="train_vocab_size").set_value(8).run())  # <unk>, 5 characters, 2 merged tokens
    assert session_model(press_train(at)).merges == [("a", "n"), ("b", "an")]
    ok(at.radio(key="train_stop_by").set_value("merges").run())
    assert at.number_input(key="train_merges").value == 3
    assert merge_pairs(press_train(at)) == BANANA_BANDANA[:3]


def test_a_link_reproduces_the_training():
    at = open_more_settings(choose_source(open_train(), "banana_bandana"))
    ok(at.selectbox(key="train_tie_break").set_value("hf").run())
    at = press_train(at)
    link = dict(at.query_params)
    assert link == {"preset": "banana_bandana", "merges": "6", "tie": "hf"}

    again = open_more_settings(open_train(link))
    assert merge_pairs(again) == merge_pairs(at)
    assert again.selectbox(key="train_tie_break").value == "hf"
    assert not again.warning


def test_nonsense_link_values_fall_back_with_a_warning():
    """The model's bad values are named once, by the session's first page (AppTest's first run is the root's)."""
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params.update({"preset": "banana_bandana", "merges": "many", "units": "nibbles"})
    assert shown(ok(at.run()).warning) == (
        "Ignored in the address: merges=many: choose a whole number from 0 to 100,000; units=nibbles: choose one of "
        "chars, bytes. The page's defaults are used instead."
    )
    assert not ok(at.switch_page(TRAIN.path).run()).warning  # not again
    assert merge_pairs(at) == BANANA_BANDANA  # the preset's own 6 merges, in characters


def test_a_recipe_on_the_real_sample_trains_through_the_progress_callback():
    at = choose_source(open_train(), "sample")
    ok(next(b for b in at.button if b.label == "Sennrich (words + </w>)").click().run())
    ok(next(b for b in at.button if b.label == "GPT-2 byte-level (default)").click().run())  # and back
    ok(at.number_input(key="train_merges").set_value(200).run())
    at = press_train(at)
    model = session_model(at)
    assert (model.config.split, model.config.units, len(model.merges)) == ("gpt2", "bytes", 200)
    assert merge_pairs(at) == hf_byte_level_merges(state.sample_text(), 200)
    assert dict(at.query_params) == {"preset": "sample", "merges": "200"}  # the page's defaults need no parameter


def test_corpus_size_is_shown():
    at = choose_source(open_train(), "banana_bandana")
    assert "15 characters · 15 bytes (UTF-8) · 1 word · 1 unique piece (split: none)" in [c.value for c in at.caption]


def test_a_model_without_counts_renders():
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state[state.MODEL_KEY] = load_gpt2()
    at.session_state[state.CORPUS_KEY] = ""
    at.session_state[state.ABOUT_KEY] = ModelAbout.gpt2()
    ok(ok(at.run()).switch_page(TRAIN.path).run())
    assert train_metric(at, "Merges made") == "50,000"
    assert merge_pairs(at)[0] == "␣ t"  # GPT-2's first merge, Ġ t: a space and a t
    assert at.dataframe[0].value["count"].isna().all()
    assert "This model has no training counts (its merges were published without them)." in [
        c.value for c in at.caption
    ]
    assert shown(at.markdown).startswith(
        "GPT-2's published tokenizer (OpenAI, 2019)  \ngpt2 split · built from bytes · equal counts: the pair seen "
        "first wins · special tokens <|endoftext|>"
    )


def test_a_link_with_an_invalid_combination_trains_nothing():
    at = open_train({"preset": "banana_bandana", "eow": "_"})
    assert "whitespace pre-tokenization" in shown(at.error)
    assert train_metric(at, "Merges made") == "2,000"  # still the default model
    assert "preset" not in at.query_params


def test_the_form_draws_every_setting_of_the_table():
    """Every row of bpe_core.settings_table has its widget, under its label, with the page's default (the size
    training does not stop at is kept, not drawn); a new row needs no line of the form."""
    at = open_more_settings(open_train())
    widgets = [*at.radio, *at.selectbox, *at.number_input, *at.text_input, *at.checkbox]
    drawn = {widget.key: (widget.label, widget.value) for widget in widgets}
    for row in SETTINGS:
        key = train_state.SETTING_WIDGETS[row.name]
        if row.name == "vocab_size":  # the form stops at merges
            assert key not in drawn
            continue
        assert drawn[key] == (row.label, getattr(DEFAULT_SETTINGS, row.name)), row.name


def test_character_units_say_that_unseen_characters_become_unk():
    at = open_train()
    assert "becomes <unk>" not in shown(at.caption)  # the default's bytes: nothing is unknown
    ok(at.radio(key="train_units").set_value("chars").run())
    assert "a character the corpus never had (a digit, an accent, an emoji) becomes <unk>" in shown(at.caption)
