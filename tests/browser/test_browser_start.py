"""The first screen in a real browser: the site's root opens on a text cut into coloured tokens, visible without
scrolling at desktop, phone and projector size; the slider re-cuts it, the text box takes one's own text; after a
press of Train, the result is in view."""

from __future__ import annotations

import pytest
from support.browser import exception_texts, open_app, wait_for_app
from support.screens import PHONE, PROJECTOR, overlapping_elements, page_width, unreachable_controls

from pages.start.views.first_screen import SAMPLE_TEXT

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 900}
SIZES = pytest.mark.parametrize(
    ("size", "path"),
    [(DESKTOP, ""), (PHONE, ""), (PROJECTOR, "?present=1")],  # a projector presents
    ids=["desktop", "phone", "projector"],
)
MAIN = '[data-testid="stMain"]'
BOXES = f"{MAIN} .bpe-tv .bpe-scroll"  # the text cut into tokens (drawing.token_html)
TRAIN_BUTTON = f'{MAIN} [data-testid="stBaseButton-primary"]'


def result_scrolled_to(page) -> bool:
    """Whether the Train result's heading is on screen in the viewport's top half: scrolled to, not merely showing
    under the button that the click brought into view (Playwright centres what it clicks)."""
    heading = page.locator(f"{MAIN} h3:has-text('Result')").first.bounding_box()
    return in_view(page, f"{MAIN} h3:has-text('Result')") and heading["y"] < page.viewport_size["height"] / 2


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as it stands (not scrolled to by the test)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0


@SIZES
def test_the_root_opens_on_tokens_in_view(app_server, page, screenshot, size, path):
    page.set_viewport_size(size)
    open_app(page, app_server, path)
    assert in_view(page, BOXES), page.locator(BOXES).first.bounding_box()
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0
    assert page.locator(f"{BOXES} .tok").count() > 10  # the text is cut, not shown whole
    assert page.locator(f"{BOXES} .k-unknown").count() == 0  # digits, é, the emoji and 東京: bytes, none unknown
    assert page_width(page) <= size["width"] and overlapping_elements(page) == []
    assert unreachable_controls(page) == []
    screenshot(page)
    assert exception_texts(page) == [] and page.page_errors == []


def test_the_slider_re_cuts_the_text_and_the_box_takes_ones_own(app_server, page, screenshot):
    page.set_viewport_size(DESKTOP)
    open_app(page, app_server)
    slider = page.get_by_role("slider", name="Merges learned")
    slider.focus()
    slider.press("Home")  # no merge: one box per byte of the text (the model is byte-level)
    wait_for_app(page)
    assert page.locator(f"{BOXES} .tok").count() == len(SAMPLE_TEXT.encode("utf-8"))
    screenshot(page, "no-merge")
    box = page.get_by_label("Type your own text (Ctrl+Enter cuts it)")
    box.fill("hello")
    box.press("Control+Enter")
    wait_for_app(page)
    assert page.locator(f"{BOXES} .tok").count() == 5  # still no merge: h e l l o
    assert "**5 tokens**" not in page.locator(MAIN).inner_text()  # Markdown drawn, not shown raw
    assert "5 tokens for 5 characters before any merge" in page.locator(MAIN).inner_text()
    assert exception_texts(page) == [] and page.page_errors == []


@SIZES
def test_the_train_result_is_in_view_after_a_press(app_server, page, screenshot, size, path):
    """The default form (the model the store already holds: no new model) and a textbook corpus (a new model: the
    page runs again) both end with the result's heading on screen."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Train" + path)
    page.locator(TRAIN_BUTTON).click()
    wait_for_app(page)
    assert result_scrolled_to(page)
    corpus = page.locator(f'{MAIN} [data-testid="stSelectbox"]').filter(has_text="Corpus").locator("input")
    corpus.scroll_into_view_if_needed()
    corpus.click()
    page.get_by_role("option", name="Textbook: banana_bandana_").click()
    wait_for_app(page)
    page.locator(TRAIN_BUTTON).click()
    wait_for_app(page)
    assert result_scrolled_to(page)
    assert "a n → an" in page.locator(MAIN).inner_text()
    screenshot(page)
    assert exception_texts(page) == [] and page.page_errors == []
