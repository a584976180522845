"""Finding merged tokens by text: order of the matches, byte-level forms, the limit."""

from __future__ import annotations

import pytest

from viz.merges.search import matching_tokens

TOKENS = ["Ġt", "he", "Ġthe", "the", "Ġthen", "other", "Ã©", "cafÃ©"]  # in merge order


@pytest.mark.parametrize(
    ("typed", "byte_level", "expected"),
    [
        ("the", True, ["the", "Ġthe", "Ġthen", "other"]),  # equal first, then the ones containing it in merge order
        (" the", True, ["Ġthe", "Ġthen"]),  # a typed space is Ġ in byte-level tokens
        ("Ġthe", True, ["Ġthe", "Ġthen"]),  # and the stand-in itself finds the same
        ("é", True, ["Ã©", "cafÃ©"]),  # é is the bytes C3 A9, written Ã©
        (" the", False, []),  # a model of characters keeps the space as a space
        ("", True, []),
    ],
)
def test_matches_in_order(typed, byte_level, expected):
    assert matching_tokens(TOKENS, typed, byte_level=byte_level) == expected


def test_at_most_limit_matches():
    assert matching_tokens(TOKENS, "t", byte_level=True, limit=2) == [
        "the",
        "Ġt",
    ]  # "the" starts with "t", "Ġt" only contains it


def test_starting_with_the_text_comes_before_containing_it():
    assert matching_tokens(["Ġthe", "then", "the"], "the", byte_level=True) == ["the", "then", "Ġthe"]


def test_a_typed_space_finds_sentencepiece_tokens_written_with_a_low_line():
    tokens = ["▁t", "▁the", "the", "▁then", "x▁the"]  # Llama 2 and Gemma 3 write a space as ▁
    assert matching_tokens(tokens, " the", byte_level=False) == ["▁the", "▁then", "x▁the"]
    assert matching_tokens(tokens, "▁the", byte_level=False) == ["▁the", "▁then", "x▁the"]
    assert matching_tokens(tokens, "the", byte_level=False) == ["the", "▁the", "▁then", "x▁the"]
