"""Unit tests for session/upload_store.py: uploaded models held once per content, released when no handle is left, and
kept within the server's ceiling, least recently used released first. Plain objects stand for models."""

from __future__ import annotations

import gc
import threading
import time
import weakref

import pytest

from session.upload_store import MEMORY_ENV, UploadStore, files_key, upload_memory_mb


class Model:
    """A stand-in for a tokenizer: any object the store can hold and a weak reference can watch."""


def loader(size: int, calls: list | None = None):
    """A ``load`` for the store: a new Model of ``size`` bytes each call, counted in ``calls``."""

    def load():
        if calls is not None:
            calls.append(1)
        return Model(), size

    return load


def test_the_same_content_is_loaded_once_and_shared():
    store, calls = UploadStore(ceiling_bytes=100), []
    first = store.get_or_load("k", "m.json", loader(10, calls))
    second = store.get_or_load("k", "m.json", loader(10, calls))
    assert first is not second  # each session holds its own handle...
    assert store.model(first) is store.model(second)  # ...on the one model
    assert len(calls) == 1 and len(store) == 1 and store.held_bytes == 10


def test_callers_asking_at_the_same_time_wait_for_one_load():
    store, calls, handles = UploadStore(ceiling_bytes=100), [], []

    def slow_load():
        calls.append(1)
        time.sleep(0.2)  # long enough for every thread to arrive while the first one loads
        return Model(), 10

    threads = [
        threading.Thread(target=lambda: handles.append(store.get_or_load("k", "m.json", slow_load))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    models = {id(store.model(handle)) for handle in handles}
    assert len(calls) == 1 and len(handles) == 8 and len(models) == 1


def test_a_model_is_released_when_its_last_handle_is_gone():
    store = UploadStore(ceiling_bytes=100)
    first = store.get_or_load("k", "m.json", loader(10))
    second = store.get_or_load("k", "m.json", loader(10))
    watch = weakref.ref(store.model(first))
    del first
    gc.collect()
    assert store.model(second) is watch() is not None  # one session still holds it
    del second
    gc.collect()
    assert len(store) == 0 and store.held_bytes == 0 and watch() is None  # nothing holds the model any more


def test_a_handle_gone_while_the_store_is_busy_is_settled_by_the_next_call():
    """The garbage collector may end a handle in a thread that holds the store's lock: counted later, never
    waited for (waiting there would deadlock)."""
    store = UploadStore(ceiling_bytes=100)
    handle = store.get_or_load("gone", "a.json", loader(10))
    other = store.get_or_load("other", "b.json", loader(10))
    with store._lock:  # as if busy in another call of this thread
        del handle
        gc.collect()
        assert "gone" in store._held  # not released yet: the lock was taken
    assert store.model(other) is not None  # any call settles what was left
    assert len(store) == 1


def test_the_least_recently_used_models_are_released_to_make_room():
    store = UploadStore(ceiling_bytes=100)
    a = store.get_or_load("a", "a.json", loader(40))
    b = store.get_or_load("b", "b.json", loader(40))
    assert store.model(a) is not None  # a is now more recent than b
    c = store.get_or_load("c", "c.json", loader(40))  # 120 > 100: b goes
    assert store.model(b) is None and store.model(a) is not None and store.model(c) is not None
    assert store.held_bytes == 80
    d = store.get_or_load("d", "d.json", loader(90))  # 170 > 100, 130 > 100: a (used before c) and c go
    assert [store.model(handle) is None for handle in (a, c, d)] == [True, True, False]
    assert store.held_bytes == 90


def test_a_released_model_comes_back_to_its_old_handles_when_loaded_again():
    store, calls = UploadStore(ceiling_bytes=100), []
    early = store.get_or_load("a", "a.json", loader(60, calls))
    store.get_or_load("b", "b.json", loader(60))  # a is released for b
    assert store.model(early) is None
    late = store.get_or_load("a", "a.json", loader(60, calls))
    assert store.model(early) is store.model(late) is not None and len(calls) == 2


def test_a_model_bigger_than_the_whole_ceiling_is_refused_and_nothing_is_released():
    store = UploadStore(ceiling_bytes=100 * 2**20)
    kept = store.get_or_load("small", "small.json", loader(10))
    with pytest.raises(ValueError) as refused:
        store.get_or_load("big", "big.json", loader(150 * 2**20))
    assert str(refused.value) == (
        "big.json: it takes about 150 MB once loaded, more than this server holds for all uploaded tokenizers "
        "together (100 MB; the server's BPE_UPLOAD_MEMORY_MB sets it)"
    )
    assert store.model(kept) is not None and len(store) == 1


def test_a_failed_load_stores_nothing_and_the_next_call_loads_again():
    store = UploadStore(ceiling_bytes=100)

    def broken():
        raise ValueError("m.json: not a tokenizer")

    with pytest.raises(ValueError, match="not a tokenizer"):
        store.get_or_load("k", "m.json", broken)
    assert len(store) == 0
    assert store.model(store.get_or_load("k", "m.json", loader(10))) is not None


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_a_ceiling_that_makes_no_sense_names_the_variable(value):
    with pytest.raises(ValueError, match=f"^{MEMORY_ENV}={value}: not a whole number of megabytes above 0$"):
        upload_memory_mb({MEMORY_ENV: value})


def test_the_ceiling_is_read_from_the_environment_with_its_default():
    assert upload_memory_mb({}) == 1024 and upload_memory_mb({MEMORY_ENV: "300"}) == 300


def test_files_are_keyed_by_their_bytes_and_kinds_whatever_their_names():
    """The same bytes uploaded under four names are one upload (a visitor cannot fill the budget with copies)."""
    assert files_key({"v.json": b"{}", "m.txt": b"a b"}) == files_key({"m.txt": b"a b", "v.json": b"{}"})
    assert files_key({"t.json": b"{}"}) == files_key({"u.json": b"{}"}) == files_key({"COPY 2.JSON": b"{}"})
    assert files_key({"t.json": b"{}"}) != files_key({"t.json": b"{ }"})
    assert files_key({"t.json": b"{}"}) != files_key({"t.txt": b"{}"})  # read another way: another model
    assert files_key({"t.json.xz": b"{}"}) != files_key({"t.json": b"{}"})
    assert files_key({"a.json": b"bc"}) != files_key({"a.jsonb": b"c"})  # where a kind ends is part of the key


def test_a_visitors_uploads_are_released_before_anothers():
    store = UploadStore(ceiling_bytes=100)
    idle = store.get_or_load("idle's", "idle.json", lambda: ("idle's model", 40), owner="10.0.0.1")
    busy = [store.get_or_load(f"busy {n}", f"b{n}.json", lambda: ("a model", 40), owner="10.0.0.2") for n in range(4)]
    assert store.model(idle) == "idle's model"  # the busy visitor's later uploads pushed out only their own
    assert store.model(busy[-1]) == "a model" and store.model(busy[0]) is None and store.held_bytes == 80
