"""The prompt's last token (token healing): whether a prompt ends where the tokenizer would have merged with what
comes next, and the longer tokens that start with its last piece, checked against tiktoken's own vocabulary and
encoder (GPT-2 and cl100k_base)."""

from __future__ import annotations

import functools

import pytest

from bpe_core import load_gpt2
from bpe_core.pretrained import load_pretrained
from bpe_core.prompt_end import prompt_end

ENCODINGS = {"gpt2": load_gpt2, "cl100k_base": lambda: load_pretrained("cl100k_base")}


@functools.cache
def tiktoken_vocabulary(tiktoken_module, name: str) -> list[tuple[int, bytes]]:
    encoding = tiktoken_module.get_encoding(name)
    return [(encoding.encode_single_token(data), data) for data in encoding.token_byte_values()]


def healing_reference(tiktoken_module, name: str, text: str, limit: int) -> list[tuple[int, str]]:
    """By tiktoken alone: its last token of ``text``; every longer token of its vocabulary starting with that token's
    bytes, lowest rank first, kept when tiktoken encodes the token before it and its text ending with it."""
    encoding = tiktoken_module.get_encoding(name)
    ids = encoding.encode(text)
    last = encoding.decode_single_token_bytes(ids[-1])
    before = encoding.decode(ids[-2:-1])
    kept = []
    for rank, data in sorted(tiktoken_vocabulary(tiktoken_module, name)):
        if len(data) > len(last) and data.startswith(last):
            try:
                grown = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if (
                encoding.encode(before + grown)[-1:] == [rank]
                and encoding.decode(encoding.encode(before + grown)[:-1]) == before
            ):
                kept.append((rank, grown))
                if len(kept) == limit:
                    break
    return kept


CASES = {"a trailing space": "Hello ", "http:": "See http:", "half a word": "The quick bro", "a cut word": "Tokeni"}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", ENCODINGS)
def test_the_candidates_are_tiktokens_longer_tokens_that_it_makes(tiktoken_module, name, case):
    text = CASES[case]
    end = prompt_end(ENCODINGS[name](), text, limit=20)
    encoding = tiktoken_module.get_encoding(name)
    assert end.last.id == encoding.encode(text)[-1]
    last = encoding.decode_single_token_bytes(end.last.id)
    assert list(end.candidates) == healing_reference(tiktoken_module, name, text, 20)
    assert end.may_merge and all(grown.startswith(end.last.raw.decode()) for _, grown in end.candidates)
    vocabulary = tiktoken_vocabulary(tiktoken_module, name)
    assert end.longer_tokens == sum(1 for _, data in vocabulary if len(data) > len(last) and data.startswith(last))


@pytest.mark.parametrize("name", ENCODINGS)
def test_the_tokens_the_prompt_was_cut_from_are_among_the_candidates(tiktoken_module, name):
    encoding = tiktoken_module.get_encoding(name)
    for text, whole in (("See http:", "http://"), ("The quick bro", "The quick brown"), ("Hello ", "Hello world")):
        expected = encoding.encode(whole)[-1]  # the token the text would have had: "://", " brown", " world"
        found = {token_id for token_id, _ in prompt_end(ENCODINGS[name](), text, limit=2_000).candidates}
        assert expected in found, (text, encoding.decode([expected]))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "an empty prompt"),
        ("Stop.<|endoftext|>", "a special token grows into nothing"),
        ("naïve 👍", "part of a character (GPT-2 writes 👍 in two tokens) grows into nothing"),
    ],
)
def test_a_prompt_that_cannot_grow_says_so(text, why):
    end = prompt_end(load_gpt2(), text)
    assert not end.may_merge and end.candidates == () and end.longer_tokens == 0, why


def test_a_limit_bounds_the_candidates_but_not_their_count():
    end = prompt_end(load_gpt2(), "Hello ", limit=3)
    assert [text for _, text in end.candidates] == [" t", " a", " the"]  # GPT-2's first merges after a space
    assert end.longer_tokens > 10_000  # most of GPT-2's vocabulary starts with a space
