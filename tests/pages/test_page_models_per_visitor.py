"""A visitor whose tabs hold more than BPE_MODELS_PER_VISITOR trained models makes room with its own: a tab whose
model was released for that visitor's newer ones says why when it comes back, and has its model again (trained from
its corpus and settings), while the visitor's least recently used goes in its place."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from support.pages import ok, session_model, shown
from support.paths import APP_FILE

from session import state
from session.model_store import ModelStore

VISITOR = "203.0.113.9"
RELEASED = (
    "Your model was released to make room on this server: your other tabs hold a newer model, and a visitor who "
    "holds more than 1 gives up its own first (the server's BPE_MODELS_PER_VISITOR sets it): it was trained again "
    "from its corpus and settings."
)


def tab_trained_on(text: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update({"preset": "paste", "text": text, "merges": "3"})
    return ok(at.run())


def test_a_tab_released_for_the_visitor_s_newer_one_says_why_and_has_its_model_again(monkeypatch):
    store = ModelStore(ceiling_bytes=2**30, per_visitor=1, visitor=lambda: VISITOR)
    monkeypatch.setattr(state, "model_store", lambda: store)
    first = tab_trained_on("the first tab's corpus, low lower lowest")
    first_vocab = dict(session_model(first).vocab)
    store.ceiling_bytes = store.held_bytes + (store.held_bytes - store.pinned_bytes) // 2  # no room for two such
    second = tab_trained_on("the second tab's corpus, new newer newest")
    assert store.get(first.session_state[state.MODEL_KEY].key) is None  # the visitor's older model went
    assert not first.warning
    ok(first.run())  # the first tab comes back
    assert shown(first.warning) == RELEASED
    assert session_model(first).vocab == first_vocab
    assert store.released_why(second.session_state[state.MODEL_KEY].key) == "owner"  # its turn to go
    ok(first.run())
    assert not first.warning  # said once
