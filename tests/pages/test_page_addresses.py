"""Every page comes back from its address (AppTest through app.py's router): a reload, or the link opened in
another browser, gives the same model and the same choices; a bad address gives the defaults and one warning."""

from __future__ import annotations

from apptest_helpers import APP_FILE, ok, shown
from streamlit.testing.v1 import AppTest

from bpe_core import Config, train
from viz.merges import state as merges_state
from viz.page_registry import MERGES
from viz.state import MODEL_KEY

BANANA_LINK = {"preset": "banana_bandana", "merges": "6"}  # the textbook corpus and its own settings


def open_address(page: str, params: dict[str, str]) -> AppTest:
    """A new session opening ``page`` at an address with ``params``, as a reload or a shared link does. (AppTest
    runs the default page first: app.py's first run takes the model from the address there, as it would on any
    page; then the page itself reads the address.)"""
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update(params)
    ok(at.run())
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(page)
    return ok(at.run())


def test_merges_comes_back_with_the_model_tab_and_token_of_its_address():
    at = open_address(MERGES.path, {**BANANA_LINK, "tab": "tree", "token": "ana_", "step": "4"})
    expected = train("banana_bandana_", Config(split="none"), merges=6)
    assert at.session_state[MODEL_KEY].merges == expected.merges  # retrained from the link, the same merges
    assert at.session_state[merges_state.TAB_KEY].endswith("Merge tree")
    assert at.selectbox(key=merges_state.TREE_TOKEN_KEY).value == "ana_"
    assert at.session_state[merges_state.STEP_KEY] == 4  # kept for the closed step tab
    assert dict(at.query_params) == {**BANANA_LINK, "tab": "tree", "step": "4", "token": "ana_"}
    assert not at.warning


def test_the_address_follows_what_is_chosen():
    at = open_address(MERGES.path, {**BANANA_LINK, "tab": "steps"})
    at.slider(key=merges_state.STEP_KEY).set_value(5).run()
    ok(at)
    assert dict(at.query_params) == {**BANANA_LINK, "tab": "steps", "step": "5"}


def test_a_hostile_address_gives_the_defaults_and_one_warning():
    at = open_address(MERGES.path, {"tab": "<img src=x onerror=alert(1)>", "step": "-1", "tokenizer": "gpt5"})
    assert len(at.warning) == 1
    said = shown(at.warning)
    assert said.startswith("Ignored in the address: tab=<img src=x onerror=alert(1)>: no such tab; step=-1")
    assert "tokenizer=gpt5: no such tokenizer" in said
    assert at.session_state[merges_state.TAB_KEY].endswith("Step by step")  # the defaults
    assert at.selectbox(key=merges_state.SOURCE_KEY).value == "model"
    assert dict(at.query_params) == {"tab": "steps", "step": "1"}  # the address is corrected
