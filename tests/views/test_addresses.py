"""Reading a page's address by kind, and the Encode and Compare addresses both ways: worked out by hand."""

from __future__ import annotations

import pytest

from pages.compare import state as compare_state
from pages.compare.tabs import TAB_LABELS
from pages.encode import state as encode_state
from session.addresses import MAX_LINK_TEXT, read_counts, read_names, read_text, text_params
from session.choices import address_params, read_address

SECTION_KEYS = {"ids": encode_state.IDS_OPEN_KEY, "why": encode_state.WHY_KEY, "decode": encode_state.DECODE_KEY}
SECTION_KEYS["table"] = encode_state.TABLE_KEY  # Encode's sections by their names in the address


def encode_params(
    tokenizer: str, prefix: int | None, text: str, open_sections: list[str]
) -> tuple[dict[str, str], str]:
    """The address of Encode's widgets holding these (its example text is ``encode_state.EXAMPLE_TEXT``)."""
    values = {encode_state.SOURCE_KEY: tokenizer, encode_state.PREFIX_MERGES_KEY: prefix, encode_state.TEXT_KEY: text}
    return address_params(encode_state.CHOICES, {**values, **{SECTION_KEYS[name]: True for name in open_sections}})


def compare_params(tab: str, sizes: list[int], text: str, real: list[str]) -> tuple[dict[str, str], str]:
    """The address of Compare's widgets holding these, for a model of 6 to 12 tokens."""
    values = {compare_state.SIZES_KEY: sizes, compare_state.TEXT_KEY: text, compare_state.REAL_CHOICE_KEY: real}
    return address_params(
        compare_state.choices(TAB_LABELS, (6, 12)), {compare_state.TAB_KEY: TAB_LABELS[tab], **values}
    )


def test_a_text_up_to_the_limit_travels_and_a_longer_one_is_said_to_stay_out():
    assert text_params("x" * MAX_LINK_TEXT) == ({"input": "x" * MAX_LINK_TEXT}, "")
    params, note = text_params("x" * (MAX_LINK_TEXT + 1))
    assert params == {} and note.startswith("Your text (2,001 characters) is longer than a link carries (2,000)")
    assert text_params("") == ({}, "")


@pytest.mark.parametrize(
    ("value", "expected", "warned"),
    [("2,4", [2, 4], False), ("2", None, True), ("2,3,4,5,6", None, True), ("2,x", None, True), ("2,,4", None, True)],
)
def test_counts_come_as_two_to_four_numbers_in_range(value, expected, warned):
    warnings: list[str] = []
    assert read_counts({"sizes": value}, "sizes", 1, 9, range(2, 5), warnings) == expected
    assert bool(warnings) == warned


def test_names_are_known_and_each_once():
    warnings: list[str] = []
    assert read_names({"real": ""}, "real", ("a", "b"), warnings) == []  # none chosen is a choice
    assert read_names({"real": "a,a"}, "real", ("a", "b"), warnings) is None
    assert warnings == ["real=a,a: choose from a, b, each at most once, separated by commas"]


def test_text_longer_than_a_link_carries_is_no_address_of_ours_and_an_empty_one_an_empty_box():
    warnings: list[str] = []
    assert read_text({"input": "x" * (MAX_LINK_TEXT + 1)}, "input", MAX_LINK_TEXT, warnings) is None
    assert read_text({"input": ""}, "input", MAX_LINK_TEXT, warnings) == ""
    assert warnings == ["input: choose a text of at most 2,000 characters"]


@pytest.mark.parametrize("length", [1, MAX_LINK_TEXT])
def test_text_of_one_character_up_to_the_limit_is_read(length):
    warnings: list[str] = []
    assert read_text({"input": "x" * length}, "input", MAX_LINK_TEXT, warnings) == "x" * length
    assert warnings == []


def test_encode_s_address_both_ways():
    params, note = encode_params("o200k_base", None, "héllo <b>", ["decode", "table"])
    assert (params, note) == ({"tokenizer": "o200k_base", "input": "héllo <b>", "open": "decode,table"}, "")
    values, warnings = read_address(encode_state.CHOICES, params)
    assert (values, warnings) == (
        {
            encode_state.SOURCE_KEY: "o200k_base",
            encode_state.TEXT_KEY: "héllo <b>",
            encode_state.DECODE_KEY: True,
            encode_state.TABLE_KEY: True,
        },
        [],
    )
    assert encode_params("model", 5, encode_state.EXAMPLE_TEXT, []) == ({}, "")  # a prefix only with its tokenizer


def test_compare_s_address_both_ways():
    params, _ = compare_params("usage", [6, 9, 12], compare_state.DEFAULT_TEXT, ["gpt2", "llama3"])
    assert params == {"tab": "usage", "sizes": "6,9,12", "real": "gpt2,llama3"}  # the example text stays out
    values, warnings = read_address(compare_state.choices(TAB_LABELS, (6, 12)), params)
    assert (values, warnings) == (
        {
            compare_state.TAB_KEY: TAB_LABELS["usage"],
            compare_state.SIZES_KEY: [6, 9, 12],
            compare_state.REAL_CHOICE_KEY: ["gpt2", "llama3"],
        },
        [],
    )
    assert compare_params("pretok", [], "Hi", list(compare_state.DEFAULT_REAL)) == (
        {"tab": "pretok", "input": "Hi"},
        "",
    )
