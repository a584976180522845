"""The text being looked at is one text: typed on Encode it is on Compare, and the other way round, after any
number of page visits."""

from streamlit.testing.v1 import AppTest
from support.pages import ok
from support.paths import APP_FILE

from pages.compare import state as compare_state
from pages.encode import state as encode_state
from session.page_registry import COMPARE, ENCODE, MERGES


def open_page(at: AppTest, page) -> AppTest:
    return ok(at.switch_page(page.path).run())


def test_text_typed_on_encode_is_on_compare_and_back():
    at = open_page(ok(AppTest.from_file(APP_FILE, default_timeout=120).run()), ENCODE)
    ok(at.text_area(key=encode_state.TEXT_KEY).set_value("hug pug").run())
    at = open_page(at, COMPARE)
    assert at.text_area(key=compare_state.TEXT_KEY).value == "hug pug"
    ok(at.text_area(key=compare_state.TEXT_KEY).set_value("Токенизатор").run())
    at = open_page(open_page(at, MERGES), ENCODE)
    assert at.text_area(key=encode_state.TEXT_KEY).value == "Токенизатор"


def test_each_page_starts_with_its_own_example_until_something_is_typed():
    at = open_page(ok(AppTest.from_file(APP_FILE, default_timeout=120).run()), ENCODE)
    encode_example = at.text_area(key=encode_state.TEXT_KEY).value
    at = open_page(at, COMPARE)
    compare_example = at.text_area(key=compare_state.TEXT_KEY).value
    assert encode_example and compare_example and encode_example != compare_example
