"""Each page's address, built from the choices it declares and read back: the widgets' values and the parameters
are written by hand."""

from __future__ import annotations

import pytest

from bpe_core.pretrained import PRETRAINED
from pages.classroom.state import class_params, read_class_link
from pages.compare import state as compare_state
from pages.compare import tabs as compare_tabs
from pages.encode import state as encode_state
from pages.learn import state as learn_state
from pages.merges import state as merges_state
from pages.start import state as start_state
from session.choices import Choice, OneOf, WholeNumber, address_params, read_address

ROUND_TRIPS = {  # page: (its choices, what its widgets hold, its address)
    "start": (
        start_state.CHOICES,
        {start_state.TEXT_KEY: "Tokenization is surprisingly unintuitive", start_state.MERGES_KEY: 5},
        {"input": "Tokenization is surprisingly unintuitive", "learned": "5"},
    ),
    "merges": (
        merges_state.choices(merges_state.TAB_LABELS),
        {
            merges_state.TAB_KEY: ":material/leaderboard: Pair race",
            merges_state.STEP_KEY: 12,
            merges_state.TREE_TOKEN_KEY: "ban</w>",
            merges_state.SOURCE_KEY: "gpt2",
        },
        {"tab": "race", "step": "12", "token": "ban</w>", "tokenizer": "gpt2"},
    ),
    "encode": (
        encode_state.CHOICES,
        {
            encode_state.SOURCE_KEY: "prefix",
            encode_state.PREFIX_MERGES_KEY: 40,
            encode_state.TEXT_KEY: "low lower",
            encode_state.WHY_KEY: True,
            encode_state.TABLE_KEY: True,
            encode_state.CUT_KEY: True,
            encode_state.CUT_TOKENS_KEY: 7,
            encode_state.MODE_KEY: True,
            encode_state.CHAT_MODEL_KEY: "qwen3",
            encode_state.READY_KEY: False,
            encode_state.MESSAGES_KEY: [
                {"role": "system", "content": "Be brief"},
                {"role": "user", "content": "Hi 🙂"},
            ],
            # the tools' editor holds them indented; the address, compact
            encode_state.TOOLS_KEY: (
                '[\n  {\n    "type": "function",\n    "function": {\n      "name": "f"\n    }\n  }\n]'
            ),
            encode_state.TOOLS_OPEN_KEY: True,
        },
        {
            "tokenizer": "prefix",
            "prefix": "40",
            "input": "low lower",
            "open": "why,table,cut,tools",
            "cut": "7",
            "mode": "chat",
            "chat": "qwen3",
            "reply": "off",
            "messages": '[["system","Be brief"],["user","Hi 🙂"]]',
            "tools": '[{"type":"function","function":{"name":"f"}}]',
        },
    ),
    "compare": (
        compare_state.choices(compare_tabs.TAB_LABELS, (6, 2_062)),
        {
            compare_state.TAB_KEY: ":material/smart_toy: Real tokenizers",
            compare_state.SIZES_KEY: [300, 1000],
            compare_state.TEXT_KEY: "Hi",
            compare_state.REAL_CHOICE_KEY: ["gpt2", "llama3"],
            compare_state.LINE_UP_KEY: ["model", "llama3"],
            compare_state.LANG_REFERENCE_KEY: "hin",
            compare_state.LANG_SCRIPT_KEY: "Latin (Uyghur Latin alphabet)",
            compare_state.LANG_OWN_KEY: "Scots",
        },
        {
            "tab": "real",
            "sizes": "300,1000",
            "input": "Hi",
            "real": "gpt2,llama3",
            "line": "model,llama3",
            "ref": "hin",
            "script": "Latin (Uyghur Latin alphabet)",
            "own": "Scots",
        },
    ),
    "learn": (
        learn_state.CHOICES,
        {learn_state.EXAMPLE_KEY: "hello", learn_state.EXERCISE_KEY: "count", learn_state.STEP_KEY: 4},
        {"example": "hello", "exercise": "count", "step": "4"},
    ),
}


@pytest.mark.parametrize("page", ROUND_TRIPS)
def test_a_page_s_address_comes_back_to_the_same_choices(page):
    choices, values, params = ROUND_TRIPS[page]
    assert {choice.param for choice in choices if choice.param} == set(params)  # every parameter it declares
    assert address_params(choices, values) == (params, "")
    assert read_address(choices, params) == (values, [])


def test_the_class_s_address_comes_back_and_never_names_a_student():
    params = class_params("ABC23")
    assert params == {"join": "ABC23"}
    assert read_class_link(params) == ("ABC23", [])
    assert read_class_link({**params, "student": "s" * 16}) == (
        "ABC23",
        ["student=ssssssssssssssss: an address does not say who you are (this browser remembers it)"],
    )


def test_defaults_stay_out_and_a_dependent_parameter_waits_for_its_choice():
    choices = (
        Choice("kind", "plain", "kind", OneOf(("plain", "counted"))),
        Choice("count", param="count", kind=WholeNumber(1, 9), only_with=("kind", "counted")),
    )
    assert address_params(choices, {"kind": "plain", "count": 4}) == ({}, "")
    assert address_params(choices, {"count": 4}) == ({}, "")  # the kind at its default
    assert address_params(choices, {"kind": "counted", "count": 4}) == ({"kind": "counted", "count": "4"}, "")


def test_a_bad_parameter_is_dropped_with_one_warning_and_the_rest_is_taken():
    choices = ROUND_TRIPS["encode"][0]
    values, warnings = read_address(choices, {"tokenizer": "gpt5", "prefix": "٣", "open": "why,why", "input": "hi"})
    assert values == {encode_state.TEXT_KEY: "hi"}
    assert warnings == [
        "tokenizer=gpt5: choose one of model, prefix, " + ", ".join(PRETRAINED),
        "prefix=٣: choose a whole number from 0 to 1,000,000",
        "open=why,why: choose from ids, why, decode, table, cut, tools, each at most once, separated by commas",
    ]


def test_a_conversation_too_long_for_a_link_stays_out_and_a_bad_one_is_warned_about():
    choices = ROUND_TRIPS["encode"][0]
    long = {encode_state.MODE_KEY: True, encode_state.MESSAGES_KEY: [{"role": "user", "content": "x" * 2_000}]}
    assert address_params(choices, long) == ({"mode": "chat"}, "")  # the page says so (pages.encode.views.conversation)
    values, warnings = read_address(choices, {"mode": "chat", "messages": '[["user"]]'})
    assert values == {encode_state.MODE_KEY: True}
    assert warnings == ['messages=[["user"]]: not a conversation ([[role, text], ...] in JSON)']


def test_a_choice_in_the_address_without_a_kind_is_named_in_the_error():
    choices = (Choice("count", param="count"),)
    with pytest.raises(TypeError, match="count: a choice in the address"):
        read_address(choices, {"count": "4"})
    with pytest.raises(TypeError, match="count: a choice in the address"):
        address_params(choices, {"count": 4})
