"""Finding merged tokens by text: order of the matches, byte-level forms, the limit."""

from __future__ import annotations

import pytest

from pages.merges.views.search import matching_tokens

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


# -- the token a tree opens on, and a text that is not one token ----------------------------------

from bpe_core import Config, load_gpt2, train  # noqa: E402
from pages.merges.views.search import COMMON_WORDS, split_note_html, token_forms, word_token  # noqa: E402


def test_token_forms_spell_a_space_as_each_kind_of_model_does():
    assert token_forms(" the", byte_level=True) == {" the", "Ġthe"}
    assert token_forms(" the", byte_level=False) == {" the", "▁the"}
    assert token_forms("é", byte_level=True) == {"é", "Ã©"}  # 0xC3 0xA9 as GPT-2's stand-ins


def test_a_published_tokenizer_opens_on_a_common_word():
    # " understanding" is one GPT-2 token, 14 bytes, so its tree holds 13 merges
    assert COMMON_WORDS[0] == " understanding"
    assert word_token(load_gpt2()) == "Ġunderstanding"


def test_word_token_skips_words_built_by_too_few_merges(banana):
    # banana_bandana_ after 6 merges: an (1 merge), ban (2), ana (2), ana_ (3), banana_ (5)
    assert word_token(banana, words=("an", "ban", "ana_")) == "ana_"
    assert word_token(banana, words=("an", "ban")) is None  # 1 and 2 merges: fewer than 3
    assert word_token(banana, words=("nab",)) is None  # not a token
    assert word_token(banana) is None  # no common English word: the page falls back to default_tree_token


def test_word_token_finds_the_spaced_form():
    # pieces a, Ġbc x3, Ġa x2: Ġ + b (3, before b + c by first occurrence), Ġb + c (3), Ġ + a (2)
    tok = train("a bc a bc a bc", Config(split="gpt2", units="bytes"), merges=4)
    assert [(step.left, step.right) for step in tok.steps] == [("Ġ", "b"), ("Ġb", "c"), ("Ġ", "a")]
    assert word_token(tok, words=(" bc",), least_merges=2) == "Ġbc"
    assert word_token(tok, words=(" bc",)) is None  # 2 merges, fewer than 3


def test_split_note_shows_the_tokens_and_links_to_encode(banana):
    # "bandana" under the banana model: ban | d | ana (no ana_ here: the text has no _)
    note = split_note_html("bandana", banana.encode_with_spans("bandana"), "<i>Mine</i>", False, {"input": "x"})
    assert "“bandana” is not one token of &lt;i&gt;Mine&lt;/i&gt;: it cuts that text into 3 tokens." in note
    assert note.count('class="tok ') == 3
    assert '<a href="Encode?input=x" target="_blank" rel="noopener">Why this split? Open it on Encode</a>' in note


def test_split_note_escapes_the_text_and_encodes_the_link():
    tok = train("<b> &", Config(split="none"), merges=1)
    hostile = '<b>" &'
    query = {"tokenizer": "gpt2", "input": hostile, "open": "why"}
    note = split_note_html(hostile, tok.encode_with_spans(hostile), "GPT-2", False, query)
    assert note.startswith('<div class="bpe-split-note"><p>“&lt;b&gt;&quot;␣&amp;” is not one token of GPT-2: ')
    assert '<b>"' not in note
    # the address is URL-encoded, then escaped for the attribute (& between parameters as &amp;)
    assert 'href="Encode?tokenizer=gpt2&amp;input=%3Cb%3E%22+%26&amp;open=why"' in note
