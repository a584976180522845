"""Pure helpers of the Encode / Decode page: id parsing, round-trip explanations, table rows."""

from __future__ import annotations

import pytest

from bpe_core import Config, load_gpt2, train
from viz.encode_tools import describe_round_trip, markdown_literal, parse_ids, token_rows, unique_pieces


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("15496, 11, 30589", [15496, 11, 30589]),
        ("15496 11\n30589", [15496, 11, 30589]),
        ("[15496, 11, 0]", [15496, 11, 0]),
        ("  1,2 ,, 3  ", [1, 2, 3]),
        ("", []),
        ("   ", []),
        ("+7", [7]),
    ],
)
def test_parse_ids_accepts_common_forms(typed, expected):
    assert parse_ids(typed) == expected


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("12, abc", "item 2, 'abc'"),
        ("1.5", "item 1, '1.5'"),
        ("3 -4", "item 2, -4, is negative"),
        ("0x10", "'0x10'"),
        ("١٢", "'١٢'"),  # Arabic-Indic digits: int() would take them, a token id should not
    ],
)
def test_parse_ids_names_the_offending_item(typed, named):
    with pytest.raises(ValueError) as caught:
        parse_ids(typed)
    assert named in str(caught.value)


def test_round_trip_ok_says_nothing():
    gpt2 = load_gpt2()
    text = "Hello, ByteLevel BPE!\n  spaces\tand 🙂"
    assert describe_round_trip(text, gpt2.decode(gpt2.encode(text))) == []


def test_whitespace_split_with_marker_collapses_whitespace():
    tok = train("the cat sat on the mat", Config(end_of_word="</w>"), merges=10)
    text = "the  cat\nsat"
    decoded = tok.decode(tok.encode(text))
    assert decoded == "the cat sat"
    assert describe_round_trip(text, decoded) == ["whitespace: runs of spaces/newlines became single spaces"]


def test_whitespace_split_without_marker_glues_words():
    tok = train("the cat sat", Config(split="whitespace"), merges=5)
    text = "the cat"
    decoded = tok.decode(tok.encode(text))
    assert decoded == "thecat"
    assert describe_round_trip(text, decoded) == [
        "whitespace: all spaces and newlines were dropped, so the words run together"
    ]


def test_unknown_characters_are_named_once_each():
    tok = train("the cat sat", Config(split="gpt2"), merges=5)
    text = "café, thé"
    decoded = tok.decode(tok.encode(text))
    assert "<unk>" in decoded
    notes = describe_round_trip(text, decoded)
    assert notes == ["characters never seen in training became <unk>: 'f', 'é', ','"]  # 'é' twice, named once


def test_both_losses_are_reported():
    tok = train("the cat sat", Config(end_of_word="</w>"), merges=5)
    text = "the\n\ncat é"
    notes = describe_round_trip(text, tok.decode(tok.encode(text)))
    assert notes[0].startswith("whitespace:") and notes[1].endswith("<unk>: 'é'")


def test_edge_whitespace_and_other_differences():
    assert describe_round_trip("  hi ", "hi") == ["whitespace: spaces/newlines at the start or end were dropped"]
    other = describe_round_trip("abc", "abd")
    assert other == ["other: the texts first differ at character 2: 'c' became 'd'"]


def test_unique_pieces_keeps_order_skips_blanks_and_caps():
    assert unique_pieces(["a", " ", "b", "a", "\n", "c"], limit=2) == ["a", "b"]


def test_token_rows_describe_each_token():
    rows = token_rows(load_gpt2().encode_with_spans("a 😀"), "a 😀")
    assert [row["id"] for row in rows] == load_gpt2().encode("a 😀")
    assert rows[1]["bytes (hex)"] == "20 F0 9F 98"
    assert rows[1]["kind"] == "normal (part of a character)"
    assert rows[2]["span"] == "2–3" and rows[2]["text"] == "😀"


def test_markdown_literal_escapes_formatting_and_tags():
    assert markdown_literal("<unk> *b* [x](y)") == r"\<unk\> \*b\* \[x\]\(y\)"
