"""The Merges page's address, and the link every page offers: worked out by hand."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bpe_core.pretrained import PRETRAINED
from pages.merges.state import MAX_TOKEN_CHARS, SOURCE_KEY, STEP_KEY, TAB_KEY, TAB_LABELS, TREE_TOKEN_KEY, choices
from session.addresses import page_link
from session.choices import address_params, read_address

CHOICES = choices(TAB_LABELS)


def merges_params(tab: str, step: int | None, token: str | None, tokenizer: str) -> dict[str, str]:
    """The address of the page's widgets holding these (the tab by its name in the address)."""
    values = {TAB_KEY: TAB_LABELS[tab], STEP_KEY: step, TREE_TOKEN_KEY: token, SOURCE_KEY: tokenizer}
    return address_params(CHOICES, values)[0]


def read_merges_params(params: dict[str, str]) -> SimpleNamespace:
    """What the address ``params`` gives the page's widgets (the tab by its name), and the warnings."""
    values, warnings = read_address(CHOICES, params)
    tab = next((name for name, label in TAB_LABELS.items() if label == values.get(TAB_KEY)), None)
    return SimpleNamespace(
        tab=tab,
        step=values.get(STEP_KEY),
        token=values.get(TREE_TOKEN_KEY),
        tokenizer=values.get(SOURCE_KEY),
        warnings=warnings,
    )


def test_the_page_s_state_becomes_parameters_and_comes_back():
    params = merges_params("tree", 7, "ban</w>", "gpt2")
    assert params == {"tab": "tree", "step": "7", "token": "ban</w>", "tokenizer": "gpt2"}
    link = read_merges_params(params)
    assert (link.tab, link.step, link.token, link.tokenizer, link.warnings) == ("tree", 7, "ban</w>", "gpt2", [])


def test_defaults_stay_out_of_the_address():
    assert merges_params("steps", None, None, "model") == {"tab": "steps"}
    assert merges_params("race", 1, "", "model") == {"tab": "race", "step": "1"}


@pytest.mark.parametrize(
    ("params", "warning"),
    [
        ({"tab": "<script>"}, "tab=<script>: choose one of steps, race, tree, overview"),
        ({"step": "0"}, "step=0: choose a whole number from 1 to 1,000,000"),
        ({"step": "-3"}, "step=-3: choose a whole number from 1 to 1,000,000"),
        (
            {"step": "٣"},
            "step=٣: choose a whole number from 1 to 1,000,000",
        ),  # a digit, but not one int() should be trusted with
        ({"step": "1e9x"}, "step=1e9x: choose a whole number from 1 to 1,000,000"),
        ({"token": "x" * (MAX_TOKEN_CHARS + 1)}, f"token: choose a text of at most {MAX_TOKEN_CHARS} characters"),
        (
            {"tokenizer": "../../etc/passwd"},
            "tokenizer=../../etc/passwd: choose one of model, " + ", ".join(PRETRAINED),
        ),
    ],
)
def test_a_bad_parameter_is_dropped_with_a_warning(params, warning):
    link = read_merges_params({**params, "tab": params.get("tab", "race")})
    assert link.warnings == [warning]
    assert link.step is None and link.token is None and link.tokenizer is None
    assert link.tab == (None if "tab" in params else "race")  # the good parameters still count


def test_unknown_parameters_are_not_the_page_s_business():
    link = read_merges_params({"preset": "banana", "merges": "6"})  # the model's, for Train
    assert link.warnings == [] and link.tab is None


def test_the_link_replaces_the_page_s_query_and_encodes_its_values():
    assert page_link("http://h:1/Merges?tab=race#top", {"token": "a&b=c", "tab": "tree"}) == (
        "http://h:1/Merges?token=a%26b%3Dc&tab=tree"
    )
    assert page_link("http://h:1/Encode", {}) == "http://h:1/Encode"
