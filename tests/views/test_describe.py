"""Unit tests for drawing/describe.py: configurations in words, digests and counted nouns."""

from __future__ import annotations

import pytest

from bpe_core import Config, train
from bpe_core.pretrained import load_pretrained
from drawing.describe import config_terms, describe_config, model_size, plural, text_digest


@pytest.mark.parametrize(
    ("config", "long", "short"),
    [
        (
            Config(split="gpt2", units="bytes", tie_break="hf", special_tokens=("<s>",)),
            "gpt2 split · built from bytes · equal counts: the pair with the lowest ids wins · special tokens <s>",
            "gpt2 split · built from bytes · equal counts: the pair with the lowest ids wins",
        ),
        (
            Config(end_of_word="</w>", space_marker=True, unknown="byte_fallback", tie_break="lex"),
            "whitespace split · built from characters · a marker </w> ends each word · the marker is a symbol of its "
            "own · equal counts: the greatest pair wins · spaces shown as Ġ · unseen characters become their bytes",
            "whitespace split · built from characters · a marker </w> ends each word · equal counts: the greatest "
            "pair wins",
        ),
        (
            Config(
                split="none", units="bytes", unknown="byte_fallback"
            ),  # byte fallback only means something for chars
            "no split · built from bytes · equal counts: the pair seen first wins",
            "no split · built from bytes · equal counts: the pair seen first wins",
        ),
        (
            Config(split="none", min_frequency=2),
            "no split · built from characters · equal counts: the pair seen first wins · stops when the best pair "
            "occurs fewer than 2 times",
            "no split · built from characters · equal counts: the pair seen first wins",
        ),
        (
            Config(end_of_word="_", glue_marker=True),
            "whitespace split · built from characters · a marker _ ends each word · glued to the last letter · "
            "equal counts: the pair seen first wins",
            "whitespace split · built from characters · a marker _ ends each word · equal counts: the pair seen "
            "first wins",
        ),
    ],
)
def test_describe_config(config, long, short):
    assert describe_config(config) == long
    assert describe_config(config, short=True) == short


def test_config_terms_name_the_settings_as_the_form_does():
    assert (
        config_terms(Config())
        == "Pre-tokenization: whitespace · Units: chars (characters) · Tie-break: first (first seen)"
    )
    assert config_terms(Config(end_of_word="</w>", glue_marker=True, special_tokens=("<s>", "</s>"))) == (
        "Pre-tokenization: whitespace · Units: chars (characters) · End-of-word marker: </w> · Marker placement: glued"
        " · Tie-break: first (first seen) · Special tokens: <s> </s>"
    )


def test_text_digest_is_sha256_of_utf8_and_takes_lone_surrogates():
    # sha256("") is the well-known e3b0c442...b855
    assert text_digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert text_digest("\ud800") != text_digest("")


def test_plural():
    assert [plural(0, "merge"), plural(1, "merge"), plural(12345, "merge")] == ["0 merges", "1 merge", "12,345 merges"]


def test_a_model_size_says_one_merge_and_many_tokens_in_good_english():
    one = train("ab", Config(split="none"), merges=1)  # <unk>, a, b, then ab
    assert model_size(one) == "a vocabulary of 4 tokens, 1 of them made by a merge"
    banana = train("banana_bandana_", Config(split="none"), merges=6)  # <unk>, _ a b d n, then 6 merged tokens
    assert model_size(banana) == "a vocabulary of 12 tokens, 6 of them made by merges"
    assert model_size(banana.prefix(0)) == "a vocabulary of 6 tokens, none made by merges"


def test_a_model_with_more_merges_than_tokens_says_why():
    # Llama 3's tokenizer.json lists 280,147 merges for 128,000 tokens (256 bytes + 127,744 merged) and 256 special
    # tokens: several merges make the same token (counted with HF tokenizers' own file, see tests/core).
    llama3 = load_pretrained("llama3")
    assert model_size(llama3) == (
        "a vocabulary of 128,256 tokens, 127,744 of them made by 280,147 merges "
        "(some tokens can be made in more than one way)"
    )
