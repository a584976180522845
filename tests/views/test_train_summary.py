"""Unit tests for pages/train/views/summary.py: what the Train page shows about a trained model."""

from __future__ import annotations

import re

import pytest
from support.banana import BANANA_BANDANA

from bpe_core import Config, load_gpt2, train
from pages.train.views.summary import (
    chips_html,
    compression,
    first_and_last_merges,
    longest_tokens,
    merge_label,
    merge_table,
    result_html,
    stop_kind,
)


def banana_bandana():
    return train("banana_bandana_", Config(split="none"), merges=6)


def test_merge_table_rows_follow_the_trace():
    table = merge_table(banana_bandana())
    assert table["step"] == [1, 2, 3, 4, 5, 6]
    assert table["pair"] == BANANA_BANDANA
    assert table["new token"][:2] == ["an", "ban"]
    assert table["count"][:2] == [4, 2]
    assert table["tie"][:2] == ["", "3-way tie"]  # textbook: b an wins a three-way tie at count 2


def test_merge_table_handles_a_model_without_counts():
    table = merge_table(load_gpt2())
    assert len(table["step"]) == 50_000
    assert (
        table["pair"][0] == "␣ t" and table["count"][0] is None
    )  # GPT-2's Ġ t: a space and a t and table["tie"][0] == "unknown"


def test_a_merge_label_spells_tokens_as_written_unless_the_model_is_byte_level():
    assert merge_label("Ġ", "a") == "Ġ a → Ġa"  # a character model's Ġ is a letter of its corpus
    assert merge_label("Ġ", "a", byte_level=True) == "␣ a → ␣a"  # a byte-level model's Ġ is a space


def test_first_and_last_merges_do_not_overlap():
    model = banana_bandana()
    first, last = first_and_last_merges(model, n=4)
    assert first[0] == "a n → an" and first[-1] == "ana _ → ana_"
    assert last == ["ban ana_ → banana_", "banana_ ban → banana_ban"]
    assert first_and_last_merges(model, n=10) == ([merge_label(*pair) for pair in model.merges], [])


def test_longest_tokens_come_from_merges_longest_first():
    assert longest_tokens(banana_bandana(), n=3) == ["banana_ban", "banana_", "ana_"]


@pytest.mark.parametrize("text, made_first", [("ab cd cd", "cd"), ("cd ab ab", "ab")])
def test_longest_tokens_of_one_length_come_in_the_order_merges_made_them(text, made_first):
    # worked out by hand: the pair seen twice is merged first, then the other; both tokens are two letters long
    model = train(text, Config(end_of_word=""), merges=2)
    assert longest_tokens(model, n=1) == [made_first]


def test_chips_are_escaped_html():
    assert chips_html(["<script>", 'a"b']) == (
        '<span class="chip" title="&lt;script&gt;">&lt;script&gt;</span> '
        '<span class="chip" title="a&quot;b">a&quot;b</span>'
    )


def shown_chips(block: str) -> list[str]:
    return re.findall(r'<span class="chip" title="[^"]*">([^<]*)</span>', block)


def test_the_result_block_of_banana_bandana():
    # Worked out by hand: <unk> b a n _ d and six merges make 12 tokens; "banana_bandana_" encodes as
    # banana_ban d ana_, 3 tokens for its one word, 15 / 3 = 5 characters per token.
    block = result_html(banana_bandana(), compression(3, "banana_bandana_"))
    stats = re.findall(r'<div class="label">([^<]*)</div><div class="value">([^<]*)</div>', block)
    assert stats == [
        ("Vocabulary size", "12"),
        ("Merges made", "6"),
        ("Tokens per word", "3.00"),
        ("Characters per token", "5.00"),
    ]
    assert "3 tokens for the corpus&#x27;s words (fewer = better compression)" in block
    one = result_html(banana_bandana(), compression(1, "banana_bandana_"))  # one token for the word
    assert "1 token for the corpus&#x27;s words (fewer = better compression)" in one
    assert "Last merges (from step 6)" in block  # the first five, then the sixth
    assert shown_chips(block) == [
        "a n → an",
        "b an → ban",
        "an a → ana",
        "ana _ → ana_",
        "ban ana_ → banana_",  # first merges
        "banana_ ban → banana_ban",  # last merges
        "banana_ban",
        "banana_",
        "ana_",
        "ban",
        "ana",
        "an",  # longest tokens, ties in the order made
    ]


def test_a_model_without_merges_shows_only_its_metrics():
    block = result_html(train("ab", Config(), merges=0), None)
    assert block.count('<div class="stat">') == 4 and "—" in block
    assert "chip" not in block.split("</style>")[1] and "First merges" not in block


def test_the_result_block_escapes_tokens():
    block = result_html(train("<b><b>", Config(split="none"), merges=1), None)  # "<b" wins the tie at count 2
    assert shown_chips(block) == ["&lt; b → &lt;b", "&lt;b"]
    assert re.search(r"<b[ >]", block) is None


def test_compression_of_an_empty_text_is_zero_not_an_error():
    assert compression(0, "") == {"tokens": 0, "tokens_per_word": 0.0, "chars_per_token": 0.0}


def test_the_result_block_keys_only_the_glyphs_it_shows():
    # whitespace split: no token holds a space, so there is nothing to key
    assert 'class="legend"' not in result_html(train("ab ab", Config(), merges=1), None)
    # no split: "ab" (twice) then a token holding the space, so the key names ␣ and nothing else
    block = result_html(train("ab ab", Config(split="none"), merges=2), None)
    assert re.search(r'class="legend">Key: ␣ a space\.</div>', block)


def test_longest_tokens_default_to_twelve():
    # 26 letters twice: every neighbouring pair occurs twice, so 20 merges are made and 12 of them are shown
    model = train("abcdefghijklmnopqrstuvwxyz" * 2, Config(split="none"), merges=20)
    assert len(model.merges) == 20 and len(longest_tokens(model)) == 12


@pytest.mark.parametrize(
    ("kwargs", "kind"),
    [
        ({"merges": 6}, "done"),  # made all six
        ({"merges": 6, "max_vocab_chars": 12}, "warning"),  # the cap on the tokens' text: four merges
        ({"merges": 9}, "normal"),  # no pair left after six
        ({"vocab_size": 3}, "warning"),  # smaller than the base alphabet: nothing merged
    ],
)
def test_an_early_stop_of_the_corpus_or_settings_is_information_and_a_cap_a_warning(kwargs, kind):
    assert stop_kind(train("banana_bandana_", Config(split="none"), **kwargs)) == kind


def test_a_stop_at_the_minimum_frequency_is_information():
    # a n occurs 4 times; then the best pairs (b an, an a, a _) occur twice, below 3
    model = train("banana_bandana_", Config(split="none", min_frequency=3), merges=6)
    assert (model.merges, model.stop_reason) == ([("a", "n")], "min_frequency")
    assert stop_kind(model) == "normal"
