"""Unit tests for session/model_key.py: the one key every cache of work on a model is keyed by."""

from __future__ import annotations

import gc
import weakref

import bpe_core.formats  # noqa: F401  (every tokenizer class a file can load, for the subclass walk)
import bpe_core.pretrained  # noqa: F401
from bpe_core import Config, Tokenizer, train
from bpe_core.pretrained import load_gpt2, load_pretrained
from bpe_core.rank_tokenizer import RankTokenizer
from session.model_key import MODEL_HASH, model_key


def test_the_key_names_what_a_model_does():
    model = train("banana_bandana_", Config(split="none"), merges=6)
    assert model_key(model) == model_key(train("banana_bandana_", Config(split="none"), merges=6))
    assert model_key(model) != model_key(model.prefix(5))
    assert model_key(model) != model_key(train("banana_bandana_", Config(split="none", tie_break="hf"), merges=6))
    assert len(model_key(model)) == 64  # a sha256 hex digest


def test_the_key_tells_apart_the_counts_training_saw():
    # "aa" and "aaaa" both give the one merge a + a, but it occurs once in "aa" and more often in "aaaa": a race or
    # a count curve drawn for one would be wrong for the other
    once, more = train("aa", Config(split="none"), merges=1), train("aaaa", Config(split="none"), merges=1)
    assert once.merges == more.merges == [("a", "a")] and once.vocab == more.vocab
    assert model_key(once) != model_key(more)


def test_a_published_tokenizer_is_keyed_by_its_name_and_a_cut_of_it_by_its_merges():
    assert model_key(load_pretrained("gpt2")) == "published gpt2"
    assert model_key(load_pretrained("llama3")) == "published llama3"
    assert len(model_key(load_gpt2().prefix(10))) == 64


def test_the_key_does_not_keep_its_model():
    model = train("banana", Config(split="none"), merges=2)
    model_key(model)
    watch = weakref.ref(model)
    del model
    gc.collect()
    assert watch() is None


def _subclasses(cls: type) -> set[type]:
    return {cls} | {sub for direct in cls.__subclasses__() for sub in _subclasses(direct)}


def test_streamlit_hashes_every_class_a_model_can_be():
    assert set(MODEL_HASH) == _subclasses(Tokenizer) | {RankTokenizer}
    assert isinstance(load_pretrained("cl100k_base"), RankTokenizer)


def test_a_cache_keyed_by_the_model_serves_an_equal_model_and_not_another():
    import streamlit as st

    calls = []

    @st.cache_data(hash_funcs=MODEL_HASH)
    def size(model: Tokenizer) -> int:
        calls.append(model)
        return len(model.vocab)

    model = train("banana", Config(split="none"), merges=2)
    # <unk>, a, b, n, then an and ban: the second model, equal, is served the first one's answer
    assert size(model) == size(train("banana", Config(split="none"), merges=2)) == 6
    assert size(model.prefix(1)) == 5  # without ban
    assert len(calls) == 2
