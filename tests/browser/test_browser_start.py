"""The first screen in a real browser: the site's root opens on a text cut into coloured tokens, visible without
scrolling at desktop, phone and projector size; the slider re-cuts it, Play steps it through the merges, the text box
takes one's own text and re-cuts it as it is typed; after a press of Train, the result is in view."""

from __future__ import annotations

import contextlib
import re

import pytest
from browser_helpers import (
    PHONE,
    PROJECTOR,
    exception_texts,
    open_app,
    overlapping_elements,
    page_width,
    unreachable_controls,
    wait_for_app,
)
from playwright.sync_api import Error as PlaywrightError

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
    box = page.get_by_label("Type your own text: the tokens follow as you type")
    box.fill("hello")  # no press: the box sends what it holds after a pause in typing
    page.wait_for_function(f"() => document.querySelectorAll('{BOXES} .tok').length === 5", timeout=15_000)
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


def box_count(page) -> int:
    return page.locator(f"{BOXES} .tok").count()


def merges_said(page) -> int:
    """The merges the counts under the boxes name ("... after 2,000 merges", or none before any merge)."""
    sentence = page.locator(MAIN).get_by_text(" for ", exact=False).filter(has_text="character").first.inner_text()
    found = re.search(r"after ([\d,]+) merge", sentence)
    return int(found.group(1).replace(",", "")) if found else 0


@SIZES
def test_typing_re_cuts_the_text_with_no_press(app_server, page, screenshot, size, path):
    """One line of one's own text is cut as it is typed: no Enter, no click outside, and the box keeps the focus.
    "And God said" is three tokens after the default model's 2,000 merges (tests/pages/test_page_start.py)."""
    page.set_viewport_size(size)
    open_app(page, app_server, path)
    box = page.get_by_label("Type your own text: the tokens follow as you type")
    box.click()
    box.press("Control+a")
    box.press_sequentially("And God said", delay=40)
    page.wait_for_function(f"() => document.querySelectorAll('{BOXES} .tok').length === 3", timeout=15_000)
    wait_for_app(page)
    assert box_count(page) == 3 and box.evaluate("element => element === document.activeElement")
    assert "3 tokens for 12 characters after 2,000 merges" in page.locator(MAIN).inner_text()
    assert page_width(page) <= size["width"] and overlapping_elements(page) == []
    screenshot(page)
    assert exception_texts(page) == [] and page.page_errors == []


def watch_play(page) -> list[tuple[str, int]]:
    """The bar's line and the boxes, read every tenth of a second while Play runs, until the slider is back."""
    bar = page.locator(f'{MAIN} [data-testid="stProgress"]')
    frames = []
    page.wait_for_timeout(200)
    while bar.count():
        with contextlib.suppress(PlaywrightError):  # the bar went between the two reads
            frames.append((bar.first.inner_text(timeout=1000), box_count(page)))
        page.wait_for_timeout(100)
    return frames


@SIZES
def test_play_grows_the_tokens_to_the_whole_model_and_stop_stops_it(app_server, page, screenshot, size, path):
    """Play shows the text re-cut at the slider's stops, a few a second: the boxes never grow in number as merges
    are added (a later merge only joins tokens), they fall from one per byte, and the play ends on the whole model,
    within a few seconds. A second play, stopped, leaves the slider where the boxes were."""
    page.set_viewport_size(size)
    open_app(page, app_server, path)
    whole = box_count(page)
    page.get_by_role("button", name="Play").click()
    page.locator(f'{MAIN} [data-testid="stProgress"]').wait_for(timeout=5000)
    screenshot(page, "playing")
    assert page.get_by_role("button", name="Stop").is_visible()
    assert not page.get_by_role("button", name="Play").is_visible()  # Stop stands in its place
    frames = watch_play(page)
    wait_for_app(page)
    counts = [count for _, count in frames]
    assert len(set(counts)) >= 4 and counts == sorted(counts, reverse=True), frames
    assert counts[0] > whole and box_count(page) == whole and merges_said(page) == 2000
    assert all(line.startswith("Playing: ") and " of 2,000 merges learned" in line for line, _ in frames)
    screenshot(page, "played")
    page.get_by_role("button", name="Play").click()
    page.locator(f'{MAIN} [data-testid="stProgress"]').wait_for(timeout=5000)
    page.get_by_role("button", name="Stop").click()  # at once: the play had seconds to go
    wait_for_app(page)
    assert merges_said(page) < 2000 and page.locator(f'{MAIN} [data-testid="stProgress"]').count() == 0
    assert page.get_by_role("slider", name="Merges learned").get_attribute("aria-valuetext") == f"{merges_said(page)}"
    screenshot(page, "stopped")
    assert exception_texts(page) == [] and page.page_errors == []
