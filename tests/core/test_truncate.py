"""A text cut to N tokens: always an exact prefix of the text, ending between whole characters (graphemes), the
longest one that takes at most N tokens when encoded itself; checked against trying every prefix."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import awkward_text

from bpe_core import Config, load_gpt2, train
from bpe_core.pretrained import load_pretrained
from bpe_core.truncate import fit_prefix, grapheme_ends, longest_fitting

# A model in which "abc" is one token but "ab" two: a longer prefix can take fewer tokens.
ABC = train("bcxabcyabc", Config(split="none"), merges=2)


def every_prefix_answer(count, text: str, limit: int, specials: tuple[str, ...] = ()) -> str:
    """The definition, by trying each prefix that ends between Unicode's extended grapheme clusters and not inside
    one of ``specials`` (longest first, as the tokenizers match them)."""
    ends = [0] + [match.end() for match in regex.finditer(r"\X", text)]
    if specials:
        pattern = "|".join(map(regex.escape, sorted(specials, key=len, reverse=True)))
        inside = {p for match in regex.finditer(pattern, text) for p in range(match.start() + 1, match.end())}
        ends = [end for end in ends if end not in inside]
    return text[: max((end for end in ends if count(text[:end]) <= limit), default=0)]


def token_count(tok):
    return lambda part: len(tok.encode(part))


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("ab", [0, 1, 2]),
        ("e\u0301x", [0, 2, 3]),  # a combining accent stays with its letter
        ("👍🏽!", [0, 2, 3]),  # a skin tone with its emoji
        ("👨\u200d👩", [0, 3]),  # a joined family is one
        ("🇫🇷🇩🇪", [0, 2, 4]),  # flags: pairs of regional indicators
        ("\r\n", [0, 2]),  # CR LF is one
        ("", [0]),
    ],
)
def test_a_cut_falls_between_whole_characters(text, ends):
    assert grapheme_ends(text) == ends


def test_a_longer_prefix_that_takes_fewer_tokens_is_found():
    """By hand: bc occurs 3 times, then a+bc twice; "abcab" is cut abc|a|b. One token: "a" fits, "ab" does not
    (a b), "abc" fits again (abc), "abca" does not: the answer is "abc", past the first prefix that does not fit."""
    assert ABC.merges == [("b", "c"), ("a", "bc")]
    assert ABC.tokenize("ab") == ["a", "b"] and ABC.tokenize("abc") == ["abc"]
    assert fit_prefix(ABC, "abcab", 1) == "abc"
    assert fit_prefix(ABC, "abcab", 0) == ""
    assert fit_prefix(ABC, "abcab", 2) == "abca"
    assert fit_prefix(ABC, "abcab", 3) == "abcab"  # the whole text


def test_gpt2_by_hand():
    # Hello , Ġworld , Ġhow: "Hello world," is 3 tokens, "Hello world, how" is 5
    gpt2 = load_gpt2()
    assert gpt2.tokenize("Hello world, how") == ["Hello", "Ġworld", ",", "Ġhow"]
    assert fit_prefix(gpt2, "Hello world, how", 3) == "Hello world,"
    assert fit_prefix(gpt2, "Hello world, how", 4) == "Hello world, how"


def test_a_special_token_is_kept_whole_or_left_out():
    """cl100k_base: "<|endoftext|>" is one token whole; "\x85<|endoftext|" takes 8 (worked out by encoding each
    prefix): a cut inside a special token would keep a broken one where the whole one fits."""
    tok, text = load_pretrained("cl100k_base"), "\x85<|endoftext|><|endoftext|> "
    assert len(tok.encode(text[:13])) == 8 and len(tok.encode(text[:27])) == 4
    assert fit_prefix(tok, text, 4) == "\x85<|endoftext|><|endoftext|>"
    assert fit_prefix(tok, text, 2) == "\x85"
    assert fit_prefix(tok, text, 7, special=False) == "\x85<|endoftext"  # ordinary text: cut anywhere


def test_the_model_s_own_tokens_count_when_asked():
    llama2 = load_pretrained("llama2")  # <s> first, with add_special
    assert fit_prefix(llama2, "Hello world", 1, add_special=True) == ""  # <s> takes the one token
    assert fit_prefix(llama2, "Hello world", 2, add_special=True) == "Hello"
    assert fit_prefix(llama2, "Hello world", 2) == "Hello world"


@pytest.mark.parametrize("limit", [-1, 1.5, "3", None])
def test_a_budget_is_a_whole_number_from_zero(limit):
    with pytest.raises(ValueError, match="the token budget must be a whole number from 0 up"):
        fit_prefix(load_gpt2(), "text", limit)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "llama2", "gemma3"])
@settings(max_examples=60, deadline=None)
@given(text=awkward_text("the", " the", "ing", "ünï", "ﬁ", "<|endoftext|>", "<s>"), limit=st.integers(0, 12))
def test_the_longest_fitting_prefix_equals_trying_every_prefix(name, text, limit):
    """Byte-level (GPT-2, GPT-4), byte fallback with a normalizer (Llama 2), and Gemma 3's pieces."""
    tok = load_pretrained(name)
    kept = fit_prefix(tok, text, limit)
    assert text.startswith(kept)
    assert kept == every_prefix_answer(token_count(tok), text, limit, tok.config.special_tokens)


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="abc ", max_size=30), limit=st.integers(0, 10))
def test_a_model_whose_counts_go_down_and_up_is_cut_as_by_every_prefix(text, limit):
    assert fit_prefix(ABC, text, limit) == every_prefix_answer(token_count(ABC), text, limit)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["low", "lower", "newest", "wid", "est", " ", "\n", "é"]), max_size=400))
def test_a_long_text_is_cut_from_any_first_guess(words):
    """Hundreds of graphemes: the search from a guess, outwards and by halving, gives what trying every prefix
    gives, whatever the guess (too short, too long, past the end)."""
    text, count = "".join(words), lambda part: len(part.split())  # a word a token: counts only go up
    for limit in (0, 1, 7, 50):
        expected = every_prefix_answer(count, text, limit)
        for guess in (None, 0, len(text) // 3, len(text), 10 * len(text) + 5):
            assert text[: longest_fitting(text, limit, count, guess)] == expected
