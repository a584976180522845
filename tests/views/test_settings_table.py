"""The training settings' one table (bpe_core/settings_table.py): Config agrees with it, and every row reaches the
command line, the model's address and the description of a model without a line written for it elsewhere. (The
Train form: tests/pages/test_page_train.py::test_the_form_draws_every_setting_of_the_table.) Each test walks the
rows, so a new row is checked by all of them."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from bpe_core import Config
from bpe_core.cli_arguments import build_parser
from bpe_core.settings_table import CHOICE, CONFIG_SETTINGS, COUNT, SETTINGS, STOP_BY, SWITCH, TEXT, Setting, setting
from bpe_core.train import MAX_SIZE as ENGINE_MAX_SIZE
from bpe_core.train import MAX_TOP_K as ENGINE_MAX_TOP_K
from drawing.describe import config_terms, describe_config
from pages.train.views.form import CORPUS_PRESETS, FIELD_HELP, FIELD_LABELS
from pages.train.views.model_address import from_query_params, to_query_params
from session.training_settings import DEFAULT_SETTINGS, TrainSettings, typed


def another_value(row: Setting):
    """A value of the row's kind that is not its default (as the engine takes it)."""
    if row.kind == CHOICE:
        return next(choice for choice in row.choices if choice != row.default)
    if row.kind == COUNT:
        return row.default + 1
    if row.kind == SWITCH:
        return not row.default
    return "@@" if row.kind == TEXT else ("<s>", "</s>")


def test_config_has_a_field_for_each_row_and_no_other():
    assert [row.name for row in CONFIG_SETTINGS] == [
        "split",
        "units",
        "end_of_word",
        "glue_marker",
        "tie_break",
        "space_marker",
        "min_frequency",
        "special_tokens",
        "unknown",
    ]
    assert sorted(row.name for row in CONFIG_SETTINGS) == sorted(field.name for field in fields(Config))


def test_config_defaults_are_the_tables():
    assert Config(**{row.name: row.default for row in CONFIG_SETTINGS}) == Config()


def test_the_form_s_record_has_a_field_for_each_row_with_its_default():
    assert [field.name for field in fields(TrainSettings)] == [row.name for row in SETTINGS]
    assert TrainSettings() == TrainSettings(**{row.name: typed(row, row.default) for row in SETTINGS})
    # the Train page's own defaults differ from the engine's only where the page chooses to
    assert DEFAULT_SETTINGS == TrainSettings(split="gpt2", units="bytes", tie_break="hf")  # GPT-2's byte-level recipe


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("units", "nibbles", "unknown units 'nibbles': choose one of chars, bytes"),
        ("tie_break", "random", "unknown tie-break 'random': choose one of first, hf, lex"),
        ("unknown", "drop", "unknown unknown-character handling 'drop': choose one of unk, byte_fallback"),
        ("split", "words", "unknown pre-tokenization 'words': choose one of none, whitespace, gpt2, gpt4, gpt4o"),
        ("min_frequency", 0, "min_frequency must be a whole number of at least 1, not 0"),
        ("min_frequency", True, "min_frequency must be a whole number, not True"),
        ("space_marker", "yes", "space_marker must be true or false, not 'yes'"),
        ("end_of_word", 5, "end_of_word must be a text or null, not 5"),
        ("special_tokens", "<s>", "special_tokens must be a list of texts, not '<s>'"),
    ],
)
def test_config_checks_each_field_as_its_row_says(name, value, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        Config(**{name: value})


@pytest.mark.parametrize("row", [row for row in SETTINGS if row.flag], ids=lambda row: row.name)
def test_every_row_with_a_flag_is_a_train_argument(row):
    parser = build_parser()
    train_help = parser._subparsers._group_actions[0].choices["train"].format_help()
    assert row.flag in train_help
    value = another_value(row)
    if row.kind == SWITCH:
        given = [row.flag]
    elif isinstance(value, tuple):
        given = [arg for token in value for arg in (row.flag, token)]
    else:
        given = [row.flag, str(value)]
    size = [] if row.name in STOP_BY else ["--merges", "5"]
    args = parser.parse_args(["train", "corpus.txt", "-o", "model.json", *size, *given])
    assert (tuple(getattr(args, row.name)) if isinstance(value, tuple) else getattr(args, row.name)) == value


def test_the_command_line_takes_the_engine_s_defaults():
    args = build_parser().parse_args(["train", "corpus.txt", "-o", "model.json", "--merges", "5"])
    assert Config(**{row.name: getattr(args, row.name) for row in CONFIG_SETTINGS}) == Config()
    assert args.top_k == 20 and args.vocab_size is None


@pytest.mark.parametrize("row", [row for row in SETTINGS if row.param], ids=lambda row: row.name)
def test_every_row_with_a_parameter_travels_in_the_model_s_address(row):
    start = replace(CORPUS_PRESETS["hello"].settings, stop_by=row.name if row.name in STOP_BY else "merges")
    changed = replace(start, **{row.name: typed(row, another_value(row))})
    params = to_query_params("hello", changed)
    assert row.param in params
    back = from_query_params(params)
    assert back.warnings == [] and back.settings == changed


@pytest.mark.parametrize("row", CONFIG_SETTINGS, ids=lambda row: row.name)
def test_the_description_says_every_setting_of_config(row):
    for base in (Config(), Config(end_of_word="_")):  # the marker's placement says something only with a marker
        try:
            changed = Config(**{**base.to_dict(), row.name: another_value(row)})
        except ValueError:  # this value does not go with this base (a marker with another split)
            continue
        if describe_config(changed) != describe_config(base) and config_terms(changed) != config_terms(base):
            return
    pytest.fail(f"describe_config or config_terms says nothing of {row.name}")


def test_the_form_labels_and_explains_every_row():
    assert list(FIELD_LABELS) == ["source", *(row.name for row in SETTINGS)]
    assert all(FIELD_HELP[row.name] == row.help and row.help.endswith(".") for row in SETTINGS)


def test_a_value_is_named_in_the_form_s_words():
    assert [setting("tie_break").word(choice) for choice in ("first", "hf", "lex")] == [
        "first seen",
        "lowest ids",
        "greatest",
    ]
    assert [setting("glue_marker").word(value) for value in (False, True)] == ["own symbol", "glued"]
    assert setting("split").word("gpt2") == "gpt2" and setting("special_tokens").word("") == "none"


def test_every_count_has_its_range_around_its_default():  # the address and the form read a count's bounds
    for row in SETTINGS:
        if row.kind == COUNT:
            low, high = row.bounds
            assert low <= row.default <= high, row.name


def test_the_pages_ceilings_stay_within_the_engine_s():
    assert setting("top_k").bounds[1] == ENGINE_MAX_TOP_K  # the race a step records
    assert max(setting(name).bounds[1] for name in STOP_BY) <= ENGINE_MAX_SIZE
