"""Unit tests for session/model_store.py: the shared store of trained models and the training-run key."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

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


def test_model_store_keeps_the_most_recently_used():
    store = ModelStore(capacity=2)
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # "a" is now the most recent
    store.put("c", 3)
    assert store.get("b") is None and store.get("a") == 1 and store.get("c") == 3
    assert len(store) == 2


def test_model_store_makes_a_model_once_for_callers_arriving_together():
    store, calls = ModelStore(capacity=4), []

    def slow_training():
        calls.append(1)
        time.sleep(0.2)  # long enough for every thread to arrive while the first one trains
        return object()

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
    store = ModelStore(capacity=2)
    store.get_or_make("a", lambda: 1)
    store.get_or_make("b", lambda: 2)
    assert store._making == {}
