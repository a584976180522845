"""Unit tests for drawing/describe.py: configurations in words, fingerprints and counted nouns."""

from __future__ import annotations

import pytest

from bpe_core import Config, load_gpt2, train
from drawing.describe import describe_config, model_fingerprint, model_size, plural, text_digest


@pytest.mark.parametrize(
    ("config", "long", "short"),
    [
        (
            Config(split="gpt2", units="bytes", tie_break="hf", special_tokens=("<s>",)),
            "gpt2 split · bytes · special tokens <s> · ties: smallest ids (HF)",
            "gpt2 split · bytes · ties: smallest ids (HF)",
        ),
        (
            Config(end_of_word="</w>", space_marker=True, unknown="byte_fallback", tie_break="lex"),
            "whitespace split · characters · end-of-word </w> as its own symbol · spaces shown as Ġ · byte fallback"
            " · ties: greatest pair (lex)",
            "whitespace split · characters · end-of-word </w> · ties: greatest pair (lex)",
        ),
        (
            Config(
                split="none", units="bytes", unknown="byte_fallback"
            ),  # byte fallback only means something for chars
            "no split · bytes · ties: first occurrence",
            "no split · bytes · ties: first occurrence",
        ),
        (
            Config(split="none", min_frequency=2),
            "no split · characters · min frequency 2 · ties: first occurrence",
            "no split · characters · ties: first occurrence",
        ),
    ],
)
def test_describe_config(config, long, short):
    assert describe_config(config) == long
    assert describe_config(config, short=True) == short


def test_model_fingerprint_identifies_what_a_model_does():
    model = train("banana_bandana_", Config(split="none"), merges=6)
    assert model_fingerprint(model) == model_fingerprint(train("banana_bandana_", Config(split="none"), merges=6))
    assert model_fingerprint(model) != model_fingerprint(model.prefix(5))
    assert model_fingerprint(model) != model_fingerprint(
        train("banana_bandana_", Config(split="none", tie_break="hf"), merges=6)
    )
    assert len(model_fingerprint(load_gpt2())) == 64  # a sha256 hex digest, also for a 50,000-merge model


def test_text_digest_is_sha256_of_utf8_and_takes_lone_surrogates():
    # sha256("") is the well-known e3b0c442...b855
    assert text_digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert text_digest("\ud800") != text_digest("")


def test_plural():
    assert [plural(0, "merge"), plural(1, "merge"), plural(12345, "merge")] == ["0 merges", "1 merge", "12,345 merges"]


def test_a_model_size_says_one_merge_and_many_tokens_in_good_english():
    one = train("ab", Config(split="none"), merges=1)  # <unk>, a, b, then ab
    assert model_size(one) == "1 merge, vocabulary of 4 tokens"
    assert model_size(train("banana_bandana_", Config(split="none"), merges=6)) == "6 merges, vocabulary of 12 tokens"
