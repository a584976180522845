"""Unit tests for viz/train_view.py: the Train page's pure helpers."""

from __future__ import annotations

import codecs
import doctest
import threading
import time
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core import Config, count_pieces, load_gpt2, train
from viz import state
from viz import train_view as tv

BANANA_BANDANA = ["a n", "b an", "an a", "ana _", "ban ana_", "banana_ ban"]


def pairs(model) -> list[str]:
    return [f"{left} {right}" for left, right in model.merges]


def train_preset(key: str):
    preset = tv.CORPUS_PRESETS[key]
    return train(preset.text, preset.settings.to_config(), **preset.settings.train_kwargs())


def test_doctests_pass():
    result = doctest.testmod(tv)
    assert result.attempted > 10 and result.failed == 0


def test_default_settings_are_the_default_model_settings():
    assert tv.DEFAULT_SETTINGS.to_config() == state.DEFAULT_CONFIG
    assert tv.DEFAULT_SETTINGS.train_kwargs()["merges"] == state.DEFAULT_MERGES


# -- presets give the textbook results ------------------------------------------------


def test_banana_bandana_preset_makes_the_textbook_merges():
    assert pairs(train_preset("banana_bandana")) == BANANA_BANDANA


def test_banana_banana_preset_marks_the_space_and_runs_out_of_pairs():
    model = train_preset("banana")
    assert pairs(model) == ["a n", "b an", "ban an", "banan a", "banana Ġ", "bananaĠ banana"]
    assert model.stop_reason == "no_pairs"


def test_low_preset_stops_at_min_frequency_two():
    model = train_preset("low")
    assert pairs(model)[:2] == ["l o", "lo w"]
    assert model.config.end_of_word == "_" and not model.config.glue_marker
    assert model.stop_reason == "min_frequency"


def test_documents_preset_uses_the_marker_as_its_own_symbol():
    model = train_preset("documents")
    assert len(model.merges) == 15
    assert pairs(model)[0] == "s </w>"


def test_hello_preset_has_no_marker_and_stops_when_no_pair_is_left():
    model = train_preset("hello")
    assert model.config.end_of_word is None
    assert pairs(model)[0] == "h e" and model.stop_reason == "no_pairs"


def test_every_textbook_preset_has_valid_settings_and_the_sample_keeps_the_users():
    for key, preset in tv.CORPUS_PRESETS.items():
        if key == "sample":
            assert preset.text is None and preset.settings is None
        else:
            preset.settings.to_config()


# -- settings -------------------------------------------------------------------------


def test_recipes_set_the_classic_configs_from_any_starting_point():
    start = tv.CORPUS_PRESETS["low"].settings  # has an "_" marker that byte-level recipes must drop
    sennrich, gpt2, minbpe = (replace(start, **changes).to_config() for changes in tv.SETTING_PRESETS.values())
    assert (sennrich.split, sennrich.end_of_word, sennrich.glue_marker) == ("whitespace", "</w>", True)
    assert (gpt2.split, gpt2.units, gpt2.tie_break, gpt2.end_of_word) == ("gpt2", "bytes", "hf", None)
    assert (minbpe.split, minbpe.units) == ("none", "bytes")


def test_invalid_combination_raises_the_engines_message():
    with pytest.raises(ValueError, match="whitespace pre-tokenization"):
        replace(tv.DEFAULT_SETTINGS, split="none").to_config()


def test_space_marker_only_applies_to_characters_and_glue_needs_a_marker():
    config = replace(tv.DEFAULT_SETTINGS, end_of_word="", units="bytes", split="gpt2", space_marker=True,
                     marker_placement="glued").to_config()
    assert config.space_marker is False and config.glue_marker is False


def test_train_kwargs_use_the_chosen_size():
    settings = replace(tv.DEFAULT_SETTINGS, stop_by="vocab_size", vocab_size=70, top_k=5)
    assert settings.train_kwargs() == {"vocab_size": 70, "top_k": 5}


def test_special_tokens_split_on_commas_and_spaces():
    assert tv.parse_special_tokens(" <a>,<b>  <c> ,, ") == ("<a>", "<b>", "<c>")
    assert replace(tv.DEFAULT_SETTINGS, special_tokens="<s>, </s>").to_config().special_tokens == ("<s>", "</s>")


# -- uploads --------------------------------------------------------------------------


def test_utf8_bom_is_stripped():
    assert tv.decode_text_file(codecs.BOM_UTF8 + "naïve".encode("utf-8")) == "naïve"


@pytest.mark.parametrize(
    "data, expected",
    [
        ("café".encode("latin-1"), "not UTF-8 text (byte 0xE9 at position 3"),
        ("hello".encode("utf-16"), "UTF-16 or UTF-32"),
        ("hello".encode("utf-16-le"), "binary file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
    ],
)
def test_non_utf8_data_is_rejected_with_a_reason(data, expected):
    with pytest.raises(ValueError, match=expected.replace("(", r"\(")):
        tv.decode_text_file(data)


def test_combine_uploads_joins_good_files_and_names_bad_ones():
    text, names, errors = tv.combine_uploads(
        [("a.txt", b"one"), ("latin.txt", "é".encode("latin-1")), ("b.txt", codecs.BOM_UTF8 + b"two")]
    )
    assert text == "one\ntwo" and names == ["a.txt", "b.txt"]
    assert len(errors) == 1 and errors[0].startswith("latin.txt: ")


# -- corpus facts ---------------------------------------------------------------------


def test_corpus_stats_count_characters_bytes_words_and_pieces():
    text = "low low lower\nnaïve"
    stats = tv.corpus_stats(text, Config())
    assert (stats.chars, stats.bytes, stats.words) == (19, 20, 4)
    assert stats.unique_pieces == len(count_pieces(text, Config())) == 3
    assert tv.corpus_stats("banana banana", Config(split="none")).unique_pieces == 1


def test_pieces_config_survives_bad_special_tokens():
    settings = replace(tv.DEFAULT_SETTINGS, special_tokens="<s> <s>", split="gpt2")
    assert tv.pieces_config(settings) == Config(split="gpt2")


def test_training_key_changes_with_corpus_and_settings():
    digest = tv.text_digest("banana")
    key = tv.training_key(digest, tv.DEFAULT_SETTINGS)
    assert key == tv.training_key(tv.text_digest("banana"), tv.TrainSettings())
    assert key != tv.training_key(tv.text_digest("bananas"), tv.DEFAULT_SETTINGS)
    assert key != tv.training_key(digest, replace(tv.DEFAULT_SETTINGS, top_k=3))


def test_model_fingerprint_identifies_what_a_model_does():
    model = train_preset("banana_bandana")
    assert tv.model_fingerprint(model) == tv.model_fingerprint(train_preset("banana_bandana"))
    assert tv.model_fingerprint(model) != tv.model_fingerprint(model.prefix(5))


def test_model_store_keeps_the_most_recently_used():
    store = tv.ModelStore(capacity=2)
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # "a" is now the most recent
    store.put("c", 3)
    assert store.get("b") is None and store.get("a") == 1 and store.get("c") == 3
    assert len(store) == 2


# -- showing tokens ---------------------------------------------------------------------


def test_merge_table_rows_follow_the_trace():
    table = tv.merge_table(train_preset("banana_bandana"))
    assert table["step"] == [1, 2, 3, 4, 5, 6]
    assert table["pair"] == BANANA_BANDANA
    assert table["new token"][:2] == ["an", "ban"]
    assert table["count"][:2] == [4, 2]
    assert table["tie"][:2] == ["", "3-way tie"]  # textbook: b an wins a three-way tie at count 2


def test_merge_table_handles_a_model_without_counts():
    table = tv.merge_table(load_gpt2())
    assert len(table["step"]) == 50_000
    assert table["pair"][0] == "Ġ t" and table["count"][0] is None and table["tie"][0] == "unknown"


def test_first_and_last_merges_do_not_overlap():
    model = train_preset("banana_bandana")
    first, last = tv.first_and_last_merges(model, n=4)
    assert first[0] == "a n → an" and first[-1] == "ana _ → ana_"
    assert last == ["ban ana_ → banana_", "banana_ ban → banana_ban"]
    assert tv.first_and_last_merges(model, n=10) == ([tv.merge_label(*pair) for pair in model.merges], [])


def test_longest_tokens_come_from_merges_longest_first():
    assert tv.longest_tokens(train_preset("banana_bandana"), n=3) == ["banana_ban", "banana_", "ana_"]


def test_html_and_markdown_are_escaped():
    assert "<script>" not in tv.chips_html(["<script>alert(1)</script>"])
    assert "&lt;script&gt;" in tv.chips_html(["<script>"])
    assert tv.markdown_escape("![x](http://e/i.png)") == "\\!\\[x\\]\\(http\\:\\/\\/e\\/i\\.png\\)".replace("\\/", "/")


def test_describe_config_names_the_choices():
    text = tv.describe_config(Config(split="gpt2", units="bytes", tie_break="hf", special_tokens=("<s>",)))
    assert text == "gpt2 split · bytes · special tokens <s> · ties: smallest ids (HF)"


def test_compression_of_an_empty_text_is_zero_not_an_error():
    assert tv.compression(0, "") == {"tokens": 0, "tokens_per_word": 0.0, "chars_per_token": 0.0}


# -- links -------------------------------------------------------------------------------


def test_a_textbook_link_only_names_the_preset_and_size():
    settings = tv.CORPUS_PRESETS["low"].settings
    assert tv.to_query_params("low", settings) == {"preset": "low", "vocab_size": "50"}


def test_links_hold_changed_settings_and_short_pasted_text():
    settings = replace(tv.DEFAULT_SETTINGS, split="gpt2", end_of_word="", units="bytes", tie_break="hf", merges=40)
    params = tv.to_query_params(tv.PASTE, settings, "hello hello")
    assert params == {"preset": "paste", "text": "hello hello", "merges": "40", "split": "gpt2", "eow": "",
                      "units": "bytes", "tie": "hf"}


def test_uploads_and_long_pastes_make_no_link():
    assert tv.to_query_params(tv.UPLOAD, tv.DEFAULT_SETTINGS) == {}
    assert tv.to_query_params(tv.PASTE, tv.DEFAULT_SETTINGS, "x" * (tv.MAX_LINK_TEXT + 1)) == {}


settings_strategy = st.builds(
    tv.TrainSettings,
    stop_by=st.sampled_from(tv.STOP_BY),
    merges=st.integers(0, tv.MAX_SIZE),
    vocab_size=st.integers(1, tv.MAX_SIZE),
    min_frequency=st.integers(1, 50),
    split=st.sampled_from(tv.SPLITS),
    end_of_word=st.sampled_from(["", "</w>", "_", "@@"]),
    marker_placement=st.sampled_from(tv.MARKER_PLACEMENTS),
    units=st.sampled_from(tv.UNITS),
    space_marker=st.booleans(),
    special_tokens=st.sampled_from(["", "<s>", "<s>, </s>", "<|endoftext|> <pad>"]),
    unknown=st.sampled_from(tv.UNKNOWN_MODES),
    tie_break=st.sampled_from(tv.TIE_BREAKS),
    top_k=st.integers(0, tv.MAX_TOP_K),
)


@given(source=st.sampled_from(list(tv.CORPUS_PRESETS)), settings=settings_strategy)
def test_links_round_trip(source, settings):
    state_back = tv.from_query_params(tv.to_query_params(source, settings))
    assert state_back.warnings == []
    assert state_back.source == source
    # the unused size is not in the link, so it comes back as the preset's own
    chosen = settings.stop_by
    assert getattr(state_back.settings, chosen) == getattr(settings, chosen)
    unused = "vocab_size" if chosen == "merges" else "merges"
    assert replace(state_back.settings, **{unused: getattr(settings, unused)}) == settings


def test_pasted_text_round_trips():
    back = tv.from_query_params(tv.to_query_params(tv.PASTE, tv.DEFAULT_SETTINGS, "a b\nc & d"))
    assert (back.source, back.pasted_text, back.settings) == ("paste", "a b\nc & d", tv.DEFAULT_SETTINGS)


def test_nonsense_params_are_ignored_one_warning_each():
    back = tv.from_query_params(
        {"preset": "banana_bandana", "merges": "-3", "split": "words", "space": "yes", "top_k": "999",
         "tie": "hf", "eow": "x" * 50}
    )
    assert back.source == "banana_bandana"
    assert back.settings == replace(tv.CORPUS_PRESETS["banana_bandana"].settings, tie_break="hf")
    named = sorted(warning.split("=")[0].split(":")[0] for warning in back.warnings)
    assert named == ["eow", "merges", "space", "split", "top_k"]


def test_unknown_preset_and_both_sizes_warn():
    back = tv.from_query_params({"preset": "war_and_peace", "merges": "5", "vocab_size": "90"})
    assert back.source is None and back.settings.merges == 5 and back.settings.stop_by == "merges"
    assert len(back.warnings) == 2
    assert back.warnings[0].startswith("preset=war_and_peace") and back.warnings[1].startswith("vocab_size=90")
    assert tv.from_query_params({"preset": "paste"}).warnings == ["preset=paste: no such corpus preset"]


def test_model_store_makes_a_model_once_for_callers_arriving_together():
    store, calls = tv.ModelStore(capacity=4), []

    def slow_training():
        calls.append(1)
        time.sleep(0.2)  # long enough for every thread to arrive while the first one trains
        return object()

    results = []
    threads = [threading.Thread(target=lambda: results.append(store.get_or_make("k", slow_training)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(results) == 8 and all(result is results[0] for result in results)

    def failing_training():
        raise ValueError("bad corpus")

    with pytest.raises(ValueError, match="bad corpus"):
        store.get_or_make("broken", failing_training)
    assert store.get("broken") is None and store.get_or_make("broken", lambda: 5) == 5
