"""Reading a page's address by kind, and the Encode and Compare addresses both ways: worked out by hand."""

from __future__ import annotations

import pytest

from viz.addresses import MAX_LINK_TEXT, read_counts, read_names, read_text, text_params
from viz.compare.links import compare_params, read_compare_params
from viz.encode.links import encode_params, read_encode_params


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
    assert warnings == ["real=a,a: a name twice"]


def test_text_longer_than_a_link_carries_is_no_address_of_ours():
    warnings: list[str] = []
    assert read_text({"input": "x" * (MAX_LINK_TEXT + 1)}, "input", MAX_LINK_TEXT, warnings) is None
    assert read_text({"input": ""}, "input", MAX_LINK_TEXT, warnings) is None
    assert warnings == ["input: not 1 to 2,000 characters"] * 2


@pytest.mark.parametrize("length", [1, MAX_LINK_TEXT])
def test_text_of_one_character_up_to_the_limit_is_read(length):
    warnings: list[str] = []
    assert read_text({"input": "x" * length}, "input", MAX_LINK_TEXT, warnings) == "x" * length
    assert warnings == []


def test_encode_s_address_both_ways():
    params, note = encode_params("o200k_base", None, "héllo <b>", ["decode", "table"], example="Hello")
    assert (params, note) == ({"tokenizer": "o200k_base", "input": "héllo <b>", "open": "decode,table"}, "")
    link = read_encode_params(params, ("model", "prefix", "o200k_base"))
    assert (link.tokenizer, link.prefix, link.text, link.open_sections, link.warnings) == (
        "o200k_base",
        None,
        "héllo <b>",
        ["decode", "table"],
        [],
    )
    assert encode_params("model", 5, "Hello", [], example="Hello") == ({}, "")  # a prefix only with its tokenizer


def test_compare_s_address_both_ways():
    params, _ = compare_params("usage", [6, 9, 12], "Hello", ["gpt2", "llama3"], "Hello", default_real=("gpt2",))
    assert params == {"tab": "usage", "sizes": "6,9,12", "real": "gpt2,llama3"}  # the example text stays out
    link = read_compare_params(params, ("curves", "usage"), (6, 12), ("gpt2", "llama3"))
    assert (link.tab, link.sizes, link.text, link.real, link.warnings) == (
        "usage",
        [6, 9, 12],
        None,
        ["gpt2", "llama3"],
        [],
    )
    assert compare_params("pretok", [], "Hi", ["gpt2"], "Hello", default_real=("gpt2",)) == (
        {"tab": "pretok", "input": "Hi"},
        "",
    )
