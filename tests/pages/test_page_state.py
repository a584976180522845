"""The page registry and the state modules: each page's keys in its own module, every kept choice kept.

The state functions need a running script, so they run inside AppTest's scripts (``AppTest.from_function``); the
expected values are worked out by hand.
"""

from __future__ import annotations

import pytest
from apptest_helpers import ok
from browser_helpers import REPO_ROOT
from streamlit.testing.v1 import AppTest

from pages.compare import state as compare_state
from pages.compare import tabs as compare_tabs
from pages.encode import state as encode_state
from pages.merges import state as merges_state
from pages.train import state as train_state
from session import page_registry
from session.choices import kept_keys

PAGE_CHOICES = {  # each page's choices, as it declares them
    "train": train_state.CHOICES,
    "merges": merges_state.choices(merges_state.TAB_LABELS),
    "encode": encode_state.CHOICES,
    "compare": compare_state.choices(compare_tabs.TAB_LABELS, (1, 100)),
}


def test_every_page_file_is_registered_once():
    files = sorted(path.relative_to(REPO_ROOT).as_posix() for path in (REPO_ROOT / "pages").glob("*/page.py"))
    assert sorted(page.path for page in page_registry.PAGES) == files
    assert [page.url_path for page in page_registry.PAGES] == [
        "Start",
        "Train",
        "Merges",
        "Encode",
        "Compare",
        "Learn",
        "Class",
    ]
    assert not list((REPO_ROOT / "pages").glob("*.py"))  # Streamlit would run such a file on its own, beside the router


@pytest.mark.parametrize("page", PAGE_CHOICES)
def test_a_page_keeps_only_its_own_widgets(page):
    kept = kept_keys(PAGE_CHOICES[page])
    assert kept and len(set(kept)) == len(kept)
    assert all(key.startswith(f"{page}_") for key in kept)  # a page's widget keys carry its name


def test_the_tokenizer_file_sections_are_kept_on_their_pages():
    assert [key for page in PAGE_CHOICES for key in kept_keys(PAGE_CHOICES[page]) if key.endswith("section_open")] == [
        "train_section_open",
        "merges_section_open",
        "encode_section_open",
    ]


def run(script) -> AppTest:
    return ok(AppTest.from_function(script, default_timeout=30).run())


def test_the_merges_step_moves_within_the_model():
    def script():
        import streamlit as st

        from pages.merges import state as merges_state

        merges_state.move_step(-1, 5)  # from the first step: stays there
        st.text(st.session_state[merges_state.STEP_KEY])
        merges_state.move_step(10, 5)  # past the last: the last
        st.text(st.session_state[merges_state.STEP_KEY])
        merges_state.move_step(-2, 5)
        st.text(st.session_state[merges_state.STEP_KEY])

    assert [element.value for element in run(script).text] == ["1", "5", "3"]


def test_the_race_centres_on_the_kept_step():
    def script():
        import streamlit as st

        from pages.merges import state as merges_state

        merges_state.centre_race_on_step(10)  # no step chosen yet: the first
        st.text(st.session_state[merges_state.WINDOW_START_KEY])
        st.session_state[merges_state.STEP_KEY] = 25  # the step tab is closed: persist_state keeps its value
        merges_state.centre_race_on_step(10)
        st.text(st.session_state[merges_state.WINDOW_START_KEY])

    assert [element.value for element in run(script).text] == ["1", "15"]


def test_a_kept_choice_comes_back_after_its_widget_was_dropped():
    def script():
        import streamlit as st

        from session import state
        from session.choices import Choice

        tab = Choice("merges_tab", kept=True)
        st.session_state.setdefault("merges_tab", "Pair race")
        state.keep_choices([tab])
        st.session_state.pop("merges_tab")  # as Streamlit drops a widget's value when a run does not draw it
        state.keep_choices([tab])
        st.text(st.session_state["merges_tab"])

    assert run(script).text[0].value == "Pair race"


def test_encode_keeps_one_prefix_per_session():
    def script():
        import streamlit as st

        from bpe_core import Config, train
        from pages.encode import state as encode_state

        model = train("banana banana", Config(split="none"), merges=4)
        first = encode_state.encode_prefix(model, 2)
        again, longer = encode_state.encode_prefix(model, 2), encode_state.encode_prefix(model, 3)
        st.text(f"{len(first.merges)} {again is first} {longer is first}")

    assert run(script).text[0].value == "2 True False"


def test_compare_sizes_are_kept_for_their_model_only():
    def script():
        import streamlit as st

        from bpe_core import Config, train
        from pages.compare import state as compare_state

        def banana(merges):
            return train("banana", Config(split="none"), merges=merges)

        st.session_state[compare_state.SIZE_COUNT_KEY] = 2
        compare_state.prepare_size_widgets(banana(2), [10, 20])
        st.session_state[compare_state.size_key(1)] = 15  # the user changed the second size
        compare_state.remember_sizes(banana(2))
        for index in range(2):
            del st.session_state[compare_state.size_key(index)]  # another page: the boxes are not drawn
        compare_state.prepare_size_widgets(banana(2), [10, 20])  # the same model trained again: its sizes
        st.text(f"{st.session_state[compare_state.size_key(0)]} {st.session_state[compare_state.size_key(1)]}")
        compare_state.prepare_size_widgets(banana(1), [30, 40])  # another model starts at its defaults
        st.text(f"{st.session_state[compare_state.size_key(0)]} {st.session_state[compare_state.size_key(1)]}")

    assert [element.value for element in run(script).text] == ["10 15", "30 40"]


def test_train_fills_its_form_once_from_the_link():
    def script():
        import streamlit as st

        from pages.train import state as train_state

        source = train_state.init_train_form({"preset": "banana", "merges": "3"})
        st.text(f"{source} {train_state.train_widget_settings().merges}")
        st.session_state[train_state.SETTING_WIDGETS["merges"]] = 7  # the user changed it
        st.text(
            "{} {}".format(train_state.init_train_form({"preset": "low"}), train_state.train_widget_settings().merges)
        )

    assert [element.value for element in run(script).text] == ["banana 3", "banana 7"]
