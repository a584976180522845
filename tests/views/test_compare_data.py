"""Compare page data: compression curves equal direct encoding, merge-list diffs, vocabulary usage."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Config, Tokenizer, load_gpt2, train
from pages.compare.views.data import (
    ComparedSize,
    VocabularyScale,
    chars_per_token,
    compare_merge_lists,
    default_sizes,
    rounded_step,
    size_table,
    tokens_by_merge_count,
    vocabulary_usage,
)

SAMPLE = (Path(__file__).resolve().parents[2] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
SENNRICH = "low lower newest widest low low low low newest newest newest newest"


def direct_counts(tok, text, sizes):
    return {k: len(tok.prefix(k).encode(text)) for k in sizes}


@pytest.fixture(scope="module")
def sample_model():
    return train(SAMPLE[:50_000], Config(split="whitespace", end_of_word="</w>"), merges=300)


# -- compression curves -----------------------------------------------------------------


def test_banana_curve_counts_every_merge(banana):
    # a n (4 places), b an (2), an a (2), ana _ (2), ban ana_ (1), banana_ ban (1)
    assert tokens_by_merge_count(banana, "banana_bandana_") == [15, 11, 9, 7, 5, 4, 3]
    assert banana.tokenize("banana_bandana_") == ["banana_ban", "d", "ana_"]


def test_banana_curve_on_unseen_text_equals_direct_encoding(banana):
    text = "bandana_banana_nab"
    assert tokens_by_merge_count(banana, text) == [len(banana.prefix(k).encode(text)) for k in range(7)]


def test_word_model_curve_equals_direct_encoding_at_every_size():
    tok = train(SENNRICH, Config(end_of_word="_"), merges=10)
    text = "lowest newer wider low  low\nnewest"
    curve = tokens_by_merge_count(tok, text)
    assert len(curve) == len(tok.merges) + 1
    assert curve == [len(tok.prefix(k).encode(text)) for k in range(len(tok.merges) + 1)]


def test_sample_curve_equals_direct_encoding(sample_model):
    sizes = (0, 1, 37, 150, 300)
    for text in (SAMPLE[:50_000], SAMPLE[50_000:60_000]):  # the training slice and held-out text
        curve = tokens_by_merge_count(sample_model, text)
        assert {k: curve[k] for k in sizes} == direct_counts(sample_model, text, sizes)
    assert curve == sorted(curve, reverse=True)  # a merge never adds tokens


def test_byte_level_curve_counts_special_tokens():
    config = Config(split="gpt2", units="bytes", special_tokens=("<|sep|>",))
    tok = train(SAMPLE[:20_000], config, merges=120)
    text = "<|sep|>Thou shalt  not ünïcødé 😀<|sep|><|sep|>\n\nend"
    assert tokens_by_merge_count(tok, text) == [len(tok.prefix(k).encode(text)) for k in range(121)]


def test_gpt2_curve_equals_direct_encoding():
    gpt2 = load_gpt2()
    text = "Hello, ByteLevel BPE! " + SAMPLE[:3_000]
    curve = tokens_by_merge_count(gpt2, text)
    assert len(curve) == len(gpt2.merges) + 1
    assert curve[0] == len(text.encode("utf-8"))  # no merges: one token per byte
    assert {k: curve[k] for k in (0, 500, 20_000, len(gpt2.merges))} == direct_counts(
        gpt2, text, (0, 500, 20_000, len(gpt2.merges))
    )


def test_unknown_and_byte_fallback_characters_are_counted():
    for unknown in ("unk", "byte_fallback"):
        tok = train("banana bandana", Config(split="gpt2", unknown=unknown), merges=5)
        text = "banana é bandana"  # é was never seen: <unk>, or its two bytes
        assert tokens_by_merge_count(tok, text) == [len(tok.prefix(k).encode(text)) for k in range(6)]


@settings(max_examples=40, deadline=None)
@given(
    corpus=st.text(alphabet="ab _\n", min_size=1, max_size=40),
    text=st.text(alphabet="ab _\nc", max_size=30),
    split=st.sampled_from(["none", "whitespace", "gpt2"]),
)
def test_curve_equals_direct_encoding_for_any_text(corpus, text, split):
    tok = train(corpus, Config(split=split, unknown="byte_fallback"), merges=12)
    assert tokens_by_merge_count(tok, text) == [len(tok.prefix(k).encode(text)) for k in range(len(tok.merges) + 1)]


def test_empty_text_needs_no_tokens(banana):
    assert tokens_by_merge_count(banana, "") == [0] * 7


def test_lone_surrogate_is_a_value_error(banana):
    with pytest.raises(ValueError, match="surrogate"):
        tokens_by_merge_count(banana, "ban\ud800")


def test_chars_per_token_uses_the_whole_text_length():
    # whitespace split: the space is in no token but still counts as a character
    assert chars_per_token("ab cd", [5, 2, 0]) == [1.0, 2.5, 0.0]


def test_size_table_reads_each_curve_at_each_size(banana):
    curves = {"corpus": ("banana_bandana_", tokens_by_merge_count(banana, "banana_bandana_"))}
    # banana's vocabulary is 6 base symbols plus one token a merge
    assert size_table(curves, [ComparedSize(12, 6), ComparedSize(8, 2)]) == [
        {"vocabulary": 12, "merges": 6, "corpus: tokens": 3, "corpus: chars/token": 5.0},
        {"vocabulary": 8, "merges": 2, "corpus: tokens": 9, "corpus: chars/token": 1.67},
    ]


def test_default_sizes_span_no_merges_to_all():
    assert default_sizes(2000) == [0, 200, 2000]
    assert default_sizes(6, 2) == [0, 6]
    assert len(default_sizes(16_000, 4)) == 4


# -- merge lists ------------------------------------------------------------------------


def test_identical_merge_lists_have_no_difference(banana):
    diff = compare_merge_lists(banana.merges, list(banana.merges))
    assert (diff.first_difference, diff.only_a, diff.only_b) == (None, [], [])
    assert diff.shared_tokens == 6


def test_a_longer_list_differs_where_the_shorter_ends(banana):
    diff = compare_merge_lists(banana.merges, banana.merges[:4])
    assert (diff.first_difference, diff.first_a, diff.first_b) == (5, ("ban", "ana_"), None)
    assert diff.only_a == [(5, ("ban", "ana_")), (6, ("banana_", "ban"))]
    assert diff.only_b == []


def test_tie_break_first_vs_hf_on_banana_differ_at_step_2():
    first = train("banana_bandana_", Config(split="none", tie_break="first"), merges=6)
    hf = train("banana_bandana_", Config(split="none", tie_break="hf"), merges=6)
    # step 1 (a n, count 4) has no tie; step 2 is a 3-way tie at count 2:
    # first occurrence picks b an, HF picks the smallest id pair a _ ('_' < 'a' < 'b').
    assert first.steps[1].tied == 3
    diff = compare_merge_lists(first.merges, hf.merges)
    assert (diff.first_difference, diff.first_a, diff.first_b) == (2, ("b", "an"), ("a", "_"))
    assert diff.first_b == hf.merges[1]


def test_tie_break_first_vs_hf_on_sennrich_corpus_differ_at_step_1():
    first = train(SENNRICH, Config(tie_break="first"), merges=8)
    hf = train(SENNRICH, Config(tie_break="hf"), merges=8)
    diff = compare_merge_lists(first.merges, hf.merges)
    assert (diff.first_difference, diff.first_a, diff.first_b) == (1, ("l", "o"), ("e", "s"))
    made_first = {left + right for left, right in first.merges}
    made_hf = {left + right for left, right in hf.merges}
    assert [a + b for _, (a, b) in diff.only_a] == [a + b for a, b in first.merges if a + b not in made_hf]
    assert [a + b for _, (a, b) in diff.only_b] == [a + b for a, b in hf.merges if a + b not in made_first]
    assert diff.shared_tokens == len(made_first & made_hf)


# -- vocabulary usage -------------------------------------------------------------------


def test_banana_usage_per_step(banana):
    usage = vocabulary_usage(banana, banana.encode("banana_bandana_"), bins=6)
    # the text is banana_ban | d | ana_: base d, step 4 (ana_) and step 6 (banana_ban)
    assert [(b.label, b.tokens, b.used, b.uses) for b in usage.bins] == [
        ("base", 5, 1, 1),
        ("1", 1, 0, 0),
        ("2", 1, 0, 0),
        ("3", 1, 0, 0),
        ("4", 1, 1, 1),
        ("5", 1, 0, 0),
        ("6", 1, 1, 1),
    ]
    assert (usage.vocabulary, usage.used, usage.never_used, usage.text_tokens) == (11, 3, 8, 3)
    assert usage.bins[0].top == (("d", 1),)


def test_usage_bins_cover_the_vocabulary(sample_model):
    text = SAMPLE[:5_000]
    ids = sample_model.encode(text)
    usage = vocabulary_usage(sample_model, ids, bins=40)
    assert len(usage.bins) == 1 + 38  # base + ceil(300 / 8) bins of 8 steps
    assert usage.bins[1].label == "1-8" and usage.bins[-1].label == "297-300"
    by_default = vocabulary_usage(sample_model.prefix(41), ids)  # at most 40 bins: ceil(41 / 40) = 2 steps each
    assert len(by_default.bins) == 1 + 21 and by_default.bins[-1].label == "41"
    assert usage.vocabulary == len(sample_model.vocab) - len(sample_model.special_ids)
    assert usage.used == len(set(ids) - set(sample_model.special_ids))
    assert sum(b.uses for b in usage.bins) == sum(1 for i in ids if i not in sample_model.special_ids)
    most_used = max(set(ids), key=ids.count)
    assert any(
        top[0] == (sample_model.token(most_used), ids.count(most_used)) for top in (b.top for b in usage.bins) if top
    )


def test_default_sizes_for_four_columns():
    # 0, 5 %, 25 % and all of 2000 merges
    assert default_sizes(2000, 4) == [0, 100, 500, 2000]


def test_vocabulary_usage_lists_the_merged_tokens_never_used():
    # banana_bandana_ encodes as banana_ban | d | ana_: of the 6 merged tokens only ana_ (step 4) and banana_ban (6)
    # are used
    tok = train("banana_bandana_", Config(split="none"), merges=6)
    usage = vocabulary_usage(tok, tok.encode("banana_bandana_"))
    assert usage.unused_merged == ((1, "an"), (2, "ban"), (3, "ana"), (5, "banana_"))


def test_a_merge_that_makes_a_token_again_has_an_empty_usage_bin():
    from bpe_core.tokenizer import Tokenizer

    # merge 4 (a + bc) makes "abc" again, which merge 3 (ab + c) made first: bin 4 holds no token (by hand)
    vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "bc": 5, "abc": 6}
    tok = Tokenizer(config=Config(split="none"), vocab=vocab, merges=[("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")])
    usage = vocabulary_usage(tok, tok.encode("abc"), bins=4)
    assert [(b.label, b.tokens, b.used) for b in usage.bins] == [
        ("base", 3, 0),
        ("1", 1, 0),
        ("2", 1, 0),
        ("3", 1, 1),
        ("4", 0, 0),
    ]


def ab_made_twice() -> Tokenizer:
    """Merge 2 makes "ab" again (a loaded file may), so it adds no token."""
    return Tokenizer(
        config=Config(split="none", units="bytes"),
        vocab={"a": 0, "b": 1, "ab": 2, "abb": 3},
        merges=[("a", "b"), ("a", "b"), ("ab", "b")],
    )


def test_vocabulary_scale_counts_only_merges_that_make_a_new_token():
    scale = VocabularyScale(ab_made_twice())  # worked out by hand
    assert (scale.smallest, scale.largest) == (2, 4)
    assert [scale.after(k) for k in range(4)] == [2, 3, 3, 4]
    assert [scale.merges_for(size) for size in range(1, 6)] == [0, 0, 1, 3, 3]


def test_a_vocabulary_size_is_reached_by_the_fewest_merges_and_labelled_with_both():
    scale = VocabularyScale(ab_made_twice())  # vocabulary 3 is reached after merge 1 (merge 2 adds nothing)
    assert [scale.reaching(size) for size in (2, 3, 4)] == [ComparedSize(2, 0), ComparedSize(3, 1), ComparedSize(4, 3)]
    assert [scale.reaching(size).label for size in (2, 3, 4)] == [
        "Vocabulary 2 (0 merges)",
        "Vocabulary 3 (1 merge)",
        "Vocabulary 4 (3 merges)",
    ]
    assert ComparedSize(50_257, 50_000).label == "Vocabulary 50,257 (50,000 merges)"


# a twentieth of the span, rounded down to 1, 2 or 5 times a power of ten (worked out by hand); never 0
@pytest.mark.parametrize(
    "span, step",
    [
        (0, 1),
        (6, 1),
        (39, 1),
        (40, 2),
        (99, 2),
        (100, 5),
        (199, 5),
        (200, 10),
        (2_000, 100),
        (3_999, 100),
        (4_000, 200),
        (50_000, 2_000),
        (100_000, 5_000),
        (199_980, 5_000),
        (200_000, 10_000),
    ],
)
def test_the_size_step_is_a_round_twentieth_of_the_span(span, step):
    assert rounded_step(span) == step
