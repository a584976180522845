"""Unit tests for session/model_store.py: the shared store of trained models and the training-run key."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from bpe_core import Config, train
from session.model_store import ModelStore, training_key
from session.training_settings import DEFAULT_SETTINGS, TrainSettings


def test_training_key_changes_with_corpus_and_settings():
    key = training_key("banana", DEFAULT_SETTINGS)
    assert key == training_key("banana", TrainSettings(**DEFAULT_SETTINGS.as_dict()))  # equal settings, one key
    assert key != training_key("bananas", DEFAULT_SETTINGS)
    assert key != training_key("banana", replace(DEFAULT_SETTINGS, top_k=3))
    # the same text read whole or line by line trains differently (pieces never cross a line end)
    assert training_key("a b\nc", DEFAULT_SETTINGS) != training_key(["a b\n", "c"], DEFAULT_SETTINGS)
    assert training_key(["a\n", "b"], DEFAULT_SETTINGS) != training_key(["a", "\n", "b"], DEFAULT_SETTINGS)


def test_model_store_keeps_the_most_recently_used_within_its_bytes():
    store = ModelStore(ceiling_bytes=200)
    store.put("a", 1, size=100)
    store.put("b", 2, size=100)
    assert store.get("a") == 1  # "a" is now the most recent
    store.put("c", 3, size=100)
    assert store.get("b") is None and store.get("a") == 1 and store.get("c") == 3
    assert len(store) == 2 and store.held_bytes == 200


def test_the_default_model_pinned_is_never_released_for_others():
    store = ModelStore(ceiling_bytes=300)
    store.put("default", "the default", size=100, pinned=True)
    for name in "abcde":
        store.put(name, name, size=100)
    assert store.get("default") == "the default" and len(store) == 3  # the default and the two most recent
    assert store.get("c") is None and store.get("d") == "d" and store.get("e") == "e"


def test_a_model_is_counted_by_its_bytes():
    """A model's size is measured when it is stored: a model of more merges takes more of the ceiling."""
    small_store, large_store = ModelStore(ceiling_bytes=2**30), ModelStore(ceiling_bytes=2**30)
    corpus = "low lower newest widest " * 20
    small_store.get_or_make("k", lambda: train(corpus, Config(end_of_word="_"), merges=2))
    large_store.get_or_make("k", lambda: train(corpus, Config(end_of_word="_"), merges=10))
    assert 0 < small_store.held_bytes < large_store.held_bytes


def test_model_store_makes_a_model_once_for_callers_arriving_together():
    store, calls = ModelStore(ceiling_bytes=2**20), []

    def slow_training():
        calls.append(1)
        time.sleep(0.2)  # long enough for every thread to arrive while the first one trains
        return "a model"

    results = []
    threads = [threading.Thread(target=lambda: results.append(store.get_or_make("k", slow_training))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(results) == 8 and all(result is results[0] for result in results)

    def failing_training():
        raise ValueError("bad corpus")

    with pytest.raises(ValueError, match="bad corpus"):
        store.get_or_make("broken", failing_training)
    assert store.get("broken") is None and store.get_or_make("broken", lambda: 5) == 5


def test_a_finished_make_leaves_no_lock_behind():
    # one lock per key only while a model is being made: a store serving many corpora must not keep one per key for ever
    store = ModelStore(ceiling_bytes=2**20)
    store.get_or_make("a", lambda: 1)
    store.get_or_make("b", lambda: 2)
    assert store._making == {}


def test_published_tokenizers_are_counted_by_their_records_and_the_oldest_released():
    from bpe_core.pretrained import held_bytes
    from session.model_store import PublishedStore

    store = PublishedStore(ceiling_bytes=held_bytes("o200k_base") + held_bytes("llama2"))  # all three do not fit
    store.get_or_make("cl100k_base", lambda: "GPT-4's")
    store.get_or_make("o200k_base", lambda: "GPT-4o's")
    assert store.held_bytes == held_bytes("o200k_base") + held_bytes("cl100k_base")
    store.get_or_make("llama2", lambda: "Llama 2's")  # cl100k_base, used least recently, makes room
    assert store.get("cl100k_base") is None and store.get("o200k_base") == "GPT-4o's"
    assert store.get_or_make("cl100k_base", lambda: "GPT-4's, read again") == "GPT-4's, read again"


def test_the_piece_caches_share_the_budget_the_environment_gives(monkeypatch):
    from bpe_core.piece_cache import DEFAULT_BUDGET_MB, process_budget, set_budget
    from session import state

    monkeypatch.setenv("BPE_PIECE_CACHE_MB", "16")
    try:
        assert state.piece_caches.__wrapped__() is process_budget() and process_budget().budget_bytes == 16 * 2**20
    finally:
        set_budget(DEFAULT_BUDGET_MB)
    monkeypatch.setenv("BPE_PIECE_CACHE_MB", "lots")
    with pytest.raises(ValueError, match="BPE_PIECE_CACHE_MB=lots: not a whole number of megabytes above 0"):
        state.piece_caches.__wrapped__()


def test_a_visitor_s_models_beyond_its_share_go_first_and_the_setting_is_read_in_words():
    from session.model_store import models_per_visitor

    visitor = ["198.51.100.7"]
    store = ModelStore(ceiling_bytes=300, per_visitor=2, visitor=lambda: visitor[0])
    store.put("other's", "another visitor's model", size=100)  # the oldest
    visitor[0] = "203.0.113.9"  # twenty tabs of one visitor, each past the ceiling from the third on
    for tab in range(20):
        store.put(f"tab {tab}", f"model {tab}", size=100)
    assert [key for key in ("other's", "tab 17", "tab 18", "tab 19") if key in store] == ["other's", "tab 18", "tab 19"]
    assert store.released_why("tab 0") == "owner"
    assert models_per_visitor({}) == 4
    with pytest.raises(ValueError, match="BPE_MODELS_PER_VISITOR=many: not a whole number above 0"):
        models_per_visitor({"BPE_MODELS_PER_VISITOR": "many"})
