"""Every page comes back from its address (AppTest through app.py's router): a reload, or the link opened in
another browser, gives the same model and the same choices; a bad address gives the defaults and one warning."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from support.pages import ok, open_address, session_model, shown, shown_ids
from support.paths import APP_FILE

from bpe_core import Config, load_gpt2, train
from pages.compare import state as compare_state
from pages.encode import state as encode_state
from pages.merges import state as merges_state
from session.page_registry import COMPARE, ENCODE, MERGES
from session.presenting import presentation_css
from session.state import PRESENT_KEY

BANANA_LINK = {"preset": "banana_bandana", "merges": "6"}  # the textbook corpus and its own settings


def test_merges_comes_back_with_the_model_tab_and_token_of_its_address():
    at = open_address(MERGES.path, {**BANANA_LINK, "tab": "tree", "token": "ana_", "step": "4"})
    expected = train("banana_bandana_", Config(split="none"), merges=6)
    assert session_model(at).merges == expected.merges  # retrained from the link, the same merges
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
    assert said.startswith(
        "Ignored in the address: tab=<img src=x onerror=alert(1)>: choose one of steps, race, tree, overview; step=-1"
    )
    assert "tokenizer=gpt5: choose one of model, gpt2, " in said
    assert at.session_state[merges_state.TAB_KEY].endswith("Step by step")  # the defaults
    assert at.selectbox(key=merges_state.SOURCE_KEY).value == "model"
    assert dict(at.query_params) == {"tab": "steps", "step": "1"}  # the address is corrected


def test_encode_comes_back_with_its_text_tokenizer_and_open_sections():
    params = {"tokenizer": "gpt2", "input": "low <lower> lowest", "open": "ids,why,table"}
    at = open_address(ENCODE.path, params)
    assert at.text_area(key=encode_state.TEXT_KEY).value == "low <lower> lowest"
    assert at.selectbox(key=encode_state.SOURCE_KEY).value == "gpt2"
    assert (
        at.session_state[encode_state.IDS_OPEN_KEY] and at.expander(key=encode_state.IDS_OPEN_KEY).label == "Token ids"
    )
    assert at.session_state[encode_state.WHY_KEY] and at.session_state[encode_state.TABLE_KEY]
    assert not at.session_state[encode_state.DECODE_KEY]
    assert shown_ids(at) == load_gpt2().encode("low <lower> lowest")
    assert dict(at.query_params) == params


def test_encode_comes_back_with_its_text_cut_at_n_tokens():
    params = {"tokenizer": "gpt2", "input": "Hello world, how", "open": "cut", "cut": "3"}
    at = open_address(ENCODE.path, params)
    assert at.number_input(key=encode_state.CUT_TOKENS_KEY).value == 3
    assert at.code[-1].value == "Hello world,"  # Hello Ġworld , in GPT-2's vocabulary
    assert dict(at.query_params) == params


def test_a_text_too_long_for_a_link_is_said_so_not_cut():
    at = open_address(ENCODE.path, {"input": "short"})
    long_text = "word " * 500  # 2,500 characters
    ok(at.text_area(key=encode_state.TEXT_KEY).set_value(long_text).run())
    assert "input" not in dict(at.query_params)
    assert any(
        "Your text (2,500 characters) is longer than a link carries (2,000)" in caption.value for caption in at.caption
    )


def test_a_prefix_and_a_hostile_section_list():
    at = open_address(ENCODE.path, {"tokenizer": "prefix", "prefix": "3", "open": "why,<script>"})
    assert at.slider(key=encode_state.PREFIX_MERGES_KEY).value == 3
    assert shown(at.warning[:1]) == (  # then the round trip's own warning (a prefix of 3 merges loses characters)
        "Ignored in the address: open=why,<script>: choose from ids, why, decode, table, cut, tools, each at most "
        "once, separated by commas. "
        "The page's defaults are used instead."
    )
    assert not at.session_state[encode_state.WHY_KEY]  # the whole list is dropped, not half of it
    assert dict(at.query_params) == {"tokenizer": "prefix", "prefix": "3"}


def test_compare_comes_back_with_its_tab_sizes_text_and_tokenizers():
    params = {"tab": "real", "sizes": "7,12", "input": "bandana", "real": "gpt2,llama3", "line": "llama3,model"}
    at = open_address(COMPARE.path, {**BANANA_LINK, **params})
    assert at.session_state[compare_state.TAB_KEY].endswith("Real tokenizers")
    assert [at.number_input(key=compare_state.size_key(index)).value for index in range(2)] == [7, 12]
    assert at.text_area(key=compare_state.TEXT_KEY).value == "bandana"
    assert at.multiselect(key=compare_state.REAL_CHOICE_KEY).value == ["gpt2", "llama3"]
    assert at.multiselect(key=compare_state.LINE_UP_KEY).value == ["llama3", "model"]  # lined up in this order
    assert dict(at.query_params) == {**BANANA_LINK, **params}
    assert not at.warning


def test_compare_drops_sizes_the_model_cannot_reach():
    at = open_address(COMPARE.path, {**BANANA_LINK, "tab": "side", "sizes": "7,5000"})  # 12 tokens at most
    assert shown(at.warning) == (
        "Ignored in the address: sizes=7,5000: choose 2 to 4 whole numbers from 6 to 12, separated by commas. "
        "The page's defaults are used instead."
    )
    plain = open_address(COMPARE.path, {**BANANA_LINK, "tab": "side"})  # the same page without the bad sizes

    def sizes(of: AppTest) -> list[int]:
        return [of.number_input(key=compare_state.size_key(index)).value for index in range(3)]

    assert sizes(at) == sizes(plain)


def test_presentation_mode_comes_from_the_address_and_stays_in_it():
    at = open_address(MERGES.path, {**BANANA_LINK, "present": "1", "tab": "race"})
    assert at.session_state[PRESENT_KEY] and at.sidebar.toggle(key=PRESENT_KEY).value
    assert dict(at.query_params) == {**BANANA_LINK, "tab": "race", "present": "1"}
    assert any(presentation_css() in element.value for element in at.get("html"))
    ok(at.sidebar.toggle(key=PRESENT_KEY).set_value(False).run())  # the toggle ends it, and the address says so
    assert "present" not in dict(at.query_params)
    assert not any(presentation_css() in element.value for element in at.get("html"))


def test_every_bad_parameter_is_named_once_in_the_one_warning_the_models_too():
    """The model's parameters are every page's: a bad one is named in the one warning of the session's first page
    (AppTest's first run is the root's; a browser's, the page the address opens), a page's own in its own."""
    params = {"merges": "abc", "step": "-5", "tab": "nope"}
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update(params)
    first = shown(ok(at.run()).warning)
    assert first.count("merges=abc: choose a whole number from 0 to 100,000") == 1 and len(at.warning) == 1
    at.query_params.clear()
    at.query_params.update(params)
    said = shown(ok(at.switch_page(MERGES.path).run()).warning)
    assert len(at.warning) == 1
    for named in (
        "step=-5: choose a whole number from 1 to 1,000,000",
        "tab=nope: choose one of steps, race, tree, overview",
    ):
        assert said.count(named) == 1
    assert "merges=" not in said  # said once, not again by a later page
    at.switch_page(MERGES.path)
    assert not ok(at.run()).warning


def test_an_empty_text_in_the_address_is_an_empty_box():
    at = open_address(ENCODE.path, {"input": ""})
    assert not at.warning
    assert at.session_state[encode_state.TEXT_KEY] == ""
