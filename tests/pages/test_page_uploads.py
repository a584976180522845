"""An uploaded tokenizer on the pages (AppTest): loaded as a job, held once by the server for every session that
uploads the same file and released when none holds it, within the server's ceilings; every ceiling reached is said
in words and keeps or gives back a model."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from streamlit.testing.v1 import AppTest
from support.open_model_references import SHIPPED
from support.pages import ok, open_model_io, session_model, shown, shown_ids
from support.paths import APP_FILE

from bpe_core.pretrained import load_pretrained
from session import model_io, state
from session.page_registry import COMPARE, ENCODE, MERGES, TRAIN

LLAMA2 = ("llama2.tokenizer.json.xz", (SHIPPED / "llama2.tokenizer.json.xz").read_bytes())  # the smallest shipped
TEXT = "Hello tokenizers"


@pytest.fixture(autouse=True)
def fresh_upload_store():
    """Each test starts with an empty store of uploads (one per server process, made on first use), and the
    default model made (the server makes it once, before a test narrows a budget)."""
    ok(AppTest.from_file(APP_FILE, default_timeout=120).run())
    state.upload_store.clear()
    yield
    state.upload_store.clear()


def encode_page() -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    return open_model_io(ok(at.switch_page(ENCODE.path).run()), "encode")


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    widget = at.file_uploader(key="encode_tokenizer_files")
    ok(widget.set_value([(name, data, "application/x-xz")]).run())
    return ok(at.text_area(key="encode_text").set_value(TEXT).run())


def test_two_sessions_uploading_the_same_file_share_one_model_loaded_once(monkeypatch):
    loads, run_as_job = [], state.as_job

    def counted(function, *args, **kwargs):
        loads.append(function.__name__)
        return run_as_job(function, *args, **kwargs)

    monkeypatch.setattr(state, "as_job", counted)
    first, second = upload(encode_page(), *LLAMA2), upload(encode_page(), *LLAMA2)
    assert loads == ["load_measured"]  # one job for both
    assert session_model(first) is session_model(second)
    assert shown_ids(first) == shown_ids(second) == load_pretrained("llama2").encode(TEXT)
    assert len(state.upload_store()) == 1


def test_the_model_is_released_when_no_session_holds_it():
    first, second = upload(encode_page(), *LLAMA2), upload(encode_page(), *LLAMA2)
    watch = weakref.ref(session_model(second))
    for page in (TRAIN, MERGES, COMPARE, ENCODE):  # each page's views and caches of the model
        ok(second.switch_page(page.path).run())
    del first
    gc.collect()
    assert len(state.upload_store()) == 1  # the second session still holds it
    ok(second.button(key="encode_use_gpt2").click().run())  # it takes another model;
    ok(second.run())  # Streamlit keeps the values a run replaced until the session's next run
    gc.collect()
    assert len(state.upload_store()) == 0 and state.upload_store().held_bytes == 0
    assert watch() is None  # nothing else held on to the model (the page's caches, the fingerprint)


def test_a_load_past_the_jobs_memory_ceiling_is_said_and_keeps_the_model(monkeypatch):
    monkeypatch.setenv("BPE_JOB_MEMORY_MB", "64")
    at = upload(encode_page(), *LLAMA2)
    assert shown(at.error) == (
        "Could not load llama2.tokenizer.json.xz: it needed more than its memory ceiling of 64 MB: ask for less "
        "(the server's BPE_JOB_MEMORY_MB sets the ceiling). The current model is kept."
    )
    assert session_model(at) is state.default_session_model() and len(state.upload_store()) == 0


def test_a_model_bigger_than_the_uploads_ceiling_is_refused_in_words(monkeypatch):
    monkeypatch.setenv("BPE_UPLOAD_MEMORY_MB", "1")
    said = shown(upload(encode_page(), *LLAMA2).error)
    assert said.startswith("Could not load llama2.tokenizer.json.xz: it takes about ")
    assert said.endswith(
        " MB once loaded, more than this server holds for all uploaded tokenizers together (1 MB; the server's "
        "BPE_UPLOAD_MEMORY_MB sets it). The current model is kept."
    )


def test_a_session_whose_model_was_released_is_told_and_gets_the_default_model(monkeypatch):
    at = upload(encode_page(), *LLAMA2)
    monkeypatch.setenv("BPE_UPLOAD_MEMORY_MB", "300")
    state.upload_store.clear()  # the server's store no longer holds it, as after other uploads took its room
    ok(at.run())
    assert shown(at.warning) == (
        "The tokenizer loaded from llama2.tokenizer.json.xz was released to make room for other uploads (this "
        "server holds at most 300 MB of them): load it again."
    )
    assert session_model(at) is state.default_session_model()
    assert shown_ids(at) == state.default_session_model().encode(TEXT)
    assert not ok(at.run()).warning  # said once


def test_a_load_waits_in_line_while_every_worker_is_busy(monkeypatch):
    slots, free, places = state._job_slots(), threading.Event(), []

    def busy() -> None:
        with slots.held():
            free.wait(10)

    holders = [threading.Thread(target=busy) for _ in range(slots.size)]
    for holder in holders:
        holder.start()
    say_place = model_io._say_place

    def noted(slot, place: int) -> None:
        places.append(place)
        free.set()  # told its place: the workers may finish
        say_place(slot, place)

    monkeypatch.setattr(model_io, "_say_place", noted)
    at = upload(encode_page(), *LLAMA2)
    for holder in holders:
        holder.join()
    assert places and places[0] == 1  # next in line
    assert shown(at.success[:1]).startswith("Loaded llama2.tokenizer.json.xz: ")
