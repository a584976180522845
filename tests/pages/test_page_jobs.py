"""Training runs as a job under the server's budget: a training that needs more memory or time than one job may
take stops, the page says which ceiling and what to change, and the session keeps the model it had."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from support.pages import ok, session_model
from support.paths import APP_FILE

from session import state
from session.model_store import ModelStore

# The sample as raw bytes with no split: tens of seconds and hundreds of MB for 20,000 merges
HEAVY_LINK = {"preset": "sample", "units": "bytes", "split": "none", "eow": "", "merges": "20000"}


def opened_with(params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update(params)
    return ok(at.run())


@pytest.fixture(autouse=True)
def default_model_made():
    """The server's default model exists before a test narrows the budget (it is made once, for every session)."""
    ok(AppTest.from_file(APP_FILE, default_timeout=120).run())


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("BPE_JOB_MEMORY_MB", "64", "Training failed: it needed more than its memory ceiling of 64 MB: ask for less"),
        ("BPE_JOB_SECONDS", "0.5", "Training failed: it took longer than its time ceiling of 0.5 s: ask for less"),
    ],
)
def test_a_training_past_a_ceiling_stops_in_words_and_keeps_the_model(monkeypatch, variable, value, said):
    monkeypatch.setenv(variable, value)
    at = opened_with(HEAVY_LINK)
    shown = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert said in shown and f"(the server's {variable} sets the ceiling)" in shown
    model = session_model(at)
    assert model is state.default_model()  # the model the session had: the default one


def test_a_budget_that_makes_no_sense_is_said_and_keeps_the_model(monkeypatch):
    monkeypatch.setenv("BPE_JOB_SECONDS", "soon")
    at = opened_with({"preset": "paste", "text": "a corpus no other test trains", "merges": "3"})  # none stored
    shown = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert "Training failed: BPE_JOB_SECONDS=soon: not a number of seconds above 0" in shown
    assert session_model(at) is state.default_model()


def test_a_budget_too_small_for_the_first_model_is_said_on_every_page(monkeypatch):
    """The default model is made once per server: with a fresh store and no cached copy, a job cannot train
    the sample in a hundredth of a second, and the visitor reads why instead of a traceback."""
    monkeypatch.setattr(state, "model_store", lambda: ModelStore(ceiling_bytes=2**30))
    monkeypatch.setattr(state, "default_model", state.default_model.__wrapped__)  # not the server's cached copy
    monkeypatch.setenv("BPE_JOB_SECONDS", "0.01")
    at = opened_with({})
    shown = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert "This server could not make its first model (the sample corpus, 2,000 merges)" in shown
    assert "time ceiling of 0.01 s" in shown and not at.exception
    assert state.MODEL_KEY not in at.session_state  # no page ran without a model
