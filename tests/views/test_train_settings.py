"""Unit tests for pages/train/views/form.py: the Train form's settings, textbook presets and recipes."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import pytest
from support.banana import BANANA_BANDANA

from bpe_core import Config, train
from bpe_core.pretokenizers import PRETOKENIZERS
from drawing.escape import markdown
from pages.train.views.form import (
    CORPUS_PRESETS,
    NO_SPACES_RECIPE,
    SETTING_PRESETS,
    recipe_changes,
    settings_caption,
    settings_glossary,
    split_hint,
)
from session.training_settings import DEFAULT_SETTINGS, TrainSettings, parse_special_tokens, pieces_config

# Words split at whitespace, characters, </w> as its own symbol, ties to the pair seen first: the page's defaults
# before they became byte-level, and the starting point of the tests that change a word-level setting.
WORDS = TrainSettings(end_of_word="</w>")


def pairs(model) -> list[str]:
    return [f"{left} {right}" for left, right in model.merges]


def train_preset(key: str):
    preset = CORPUS_PRESETS[key]
    return train(preset.text, preset.settings.to_config(), **preset.settings.train_kwargs())


def test_the_default_settings_are_gpt2_byte_level_so_no_text_is_unknown():
    assert DEFAULT_SETTINGS.to_config() == Config(split="gpt2", units="bytes", tie_break="hf")
    assert DEFAULT_SETTINGS.train_kwargs() == {"merges": 2000, "top_k": 20}


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


def test_every_textbook_preset_has_valid_settings_and_the_real_texts_keep_the_users():
    for key, preset in CORPUS_PRESETS.items():
        if key in ("sample", "languages", "english90"):
            assert preset.text is None and preset.settings is None
        else:
            preset.settings.to_config()


def test_recipes_set_the_classic_configs_from_any_starting_point():
    start = CORPUS_PRESETS["low"].settings  # has an "_" marker that byte-level recipes must drop
    sennrich, gpt2, minbpe = (replace(start, **changes) for changes in SETTING_PRESETS.values())
    sennrich, minbpe = sennrich.to_config(), minbpe.to_config()
    assert (sennrich.split, sennrich.end_of_word, sennrich.glue_marker) == ("whitespace", "</w>", True)
    assert (minbpe.split, minbpe.units) == ("none", "bytes")
    # GPT-2's recipe is also the way back to the page's defaults: every symbol setting, the size and the rest as
    # they were
    assert (gpt2.split, gpt2.units, gpt2.end_of_word, gpt2.glue_marker, gpt2.space_marker, gpt2.tie_break) == (
        "gpt2",
        "bytes",
        "",
        False,
        False,
        "hf",
    )
    assert gpt2.to_config().end_of_word is None
    assert (gpt2.merges, gpt2.special_tokens) == (start.merges, start.special_tokens)


def test_own_text_read_with_kept_settings_says_so_and_a_textbook_corpus_does_not():
    kept = replace(DEFAULT_SETTINGS, units="chars", space_marker=True, tie_break="lex")
    assert settings_caption(kept, "paste") == (
        "Your text is read with settings kept from before, not the defaults (units bytes → characters, "
        "tie-break lowest ids → greatest, show spaces as Ġ off → on). A recipe changes them; GPT-2 byte-level "
        "(default) goes back:"
    )
    plain = "Start from a classic recipe (changes how text becomes symbols, not the size):"
    assert settings_caption(kept, "sample") == settings_caption(replace(DEFAULT_SETTINGS, merges=5), "upload") == plain


def test_invalid_combination_raises_the_engines_message():
    with pytest.raises(ValueError, match="whitespace pre-tokenization"):
        replace(WORDS, split="none").to_config()


def test_space_marker_only_applies_to_characters_and_glue_needs_a_marker():
    config = replace(
        WORDS, end_of_word="", units="bytes", split="gpt2", space_marker=True, glue_marker=True
    ).to_config()
    assert config.space_marker is False and config.glue_marker is False


def test_train_kwargs_use_the_chosen_size():
    settings = replace(WORDS, stop_by="vocab_size", vocab_size=70, top_k=5)
    assert settings.train_kwargs() == {"vocab_size": 70, "top_k": 5}


def test_special_tokens_split_on_commas_and_spaces():
    assert parse_special_tokens(" <a>,<b>  <c> ,, ") == ("<a>", "<b>", "<c>")
    assert replace(WORDS, special_tokens="<s>, </s>").to_config().special_tokens == ("<s>", "</s>")


def test_pieces_config_survives_bad_special_tokens():
    settings = replace(WORDS, special_tokens="<s> <s>", split="gpt2")
    assert pieces_config(settings) == Config(split="gpt2")


@pytest.mark.parametrize(
    "text, hinted",
    [
        ("分词器" * 3 + "a" * 7, True),  # 9 of 16 letters CJK
        ("分词器" + "a" * 7, True),  # 3 of 10: exactly 30%
        ("分词器" + "a" * 8, False),  # 3 of 11: below 30%
        ("ひらがなカタカナ", True),
        ("한국어", True),
        (("x" * 25 + " ") * 4, True),  # 100 letters in words of 25
        (("x" * 24 + " ") * 5, False),  # words of 24
        (("x" * 30 + " ") * 3, False),  # long words, but only 90 letters
        ("", False),
        ("   \n", False),
    ],
)
def test_the_split_hint_appears_for_text_without_spaces_between_words(text, hinted):
    assert (split_hint(text, WORDS) is not None) is hinted


def test_the_split_hint_only_concerns_the_whitespace_split_and_its_recipe_leaves_it():
    chinese = "分词器把文本切成小块。"
    assert split_hint(chinese, replace(WORDS, split="none")) is None
    follows = replace(WORDS, **NO_SPACES_RECIPE)
    assert (follows.split, follows.units, follows.end_of_word) == ("gpt4", "bytes", "")
    assert split_hint(chinese, follows) is None
    assert follows.to_config().units == "bytes"  # a valid combination


def test_a_recipe_says_each_change_in_the_form_s_words():
    before = replace(WORDS, glue_marker=True, space_marker=True, merges=50)
    assert recipe_changes(before, replace(before, glue_marker=False, space_marker=False, merges=70)) == (
        "Changed marker placement glued → own symbol, show spaces as Ġ on → off."
    )  # sizes are not a recipe's
    assert recipe_changes(replace(before, end_of_word=""), replace(before, end_of_word="_")) == (
        "Changed marker none → _."
    )
    assert recipe_changes(before, replace(before, tie_break="hf")) == "Changed tie-break first seen → lowest ids."


def test_the_glossary_explains_every_setting_and_recipe_in_the_form_s_order():
    glossary = settings_glossary()
    items = re.findall(r"^- \*\*(.+?)\*\*: (.+)$", glossary, flags=re.M)
    labels = [label.replace("\\", "") for label, _ in items]
    # The corpus, then every setting the trainer is given, then the four recipe buttons.
    assert labels[:4] == ["Corpus", "Stop at", "Merges", "Vocabulary size"]
    assert len(labels) == 1 + len(fields(TrainSettings)) + len(SETTING_PRESETS)
    assert labels[-len(SETTING_PRESETS) :] == list(SETTING_PRESETS)
    assert "Tie\\-break" in glossary and "Show spaces as Ġ" in labels
    meanings = dict(zip(labels, (text for _, text in items)))
    assert meanings["Tie-break"].startswith("When several pairs share the top count")
    special = r"Tokens that are never split or merged and get the first ids\, e\.g\. \<\|endoftext\|\>"
    assert meanings["Special tokens"].startswith(special)  # escaped: literal text, no HTML tag


def test_the_glossary_names_every_pre_tokenizer_with_its_own_help():
    """The split's help is read from the pre-tokenizer records, so a new record is explained without an edit here."""
    meanings = dict(re.findall(r"^- \*\*(.+?)\*\*: (.+)$", settings_glossary(), flags=re.M))
    split_help = meanings["Pre\\-tokenization"]
    for record in PRETOKENIZERS:
        assert markdown(f"{record.name}: {record.help}") in split_help
    assert split_help.index("none\\:") < split_help.index("whitespace\\:") < split_help.index("gpt4o\\:")
