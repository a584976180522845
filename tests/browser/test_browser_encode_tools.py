"""Encode's tools, context window and prompt's end in a real browser, at the desktop (1400x900), phone and projector
sizes: the tools' tokens striped apart from the format's, their count apart, Cut to fit past the window, the likely
next tokens of a text ending in a space as chips, nothing overflowing."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from support.browser import exception_texts, open_app, open_section, wait_for_app
from support.browser_pages import TOKEN_BOXES, chat_counts
from support.screens import DESKTOP, PHONE, SMALL_SCREENS, overlapping_elements, page_on, page_width

pytestmark = pytest.mark.browser

HI = json.dumps([["user", "Hi!"]], separators=(",", ":"))
TOOL = json.dumps([{"type": "function", "function": {"name": "get_weather", "description": "Get the weather"}}])

_TOOL_BOXES_JS = """
() => Array.from(document.querySelectorAll('.bpe-scroll .tok.tool')).map(
  (el) => [el.classList.contains('fmt'), getComputedStyle(el).borderBottomColor, getComputedStyle(el).backgroundImage])
"""


def test_a_sample_of_tools_is_striped_apart_and_counted_apart(app_server, page, screenshot):
    page.set_viewport_size(DESKTOP)
    open_app(page, app_server, f"Encode?mode=chat&chat=qwen3&messages={HI}")
    page.wait_for_selector(TOKEN_BOXES)
    wait_for_app(page)  # the first look at the prompt's end indexes Qwen3's vocabulary: a second or two
    open_section(page, "Tools (JSON)")
    page.get_by_role("button", name="Load a sample").click()
    wait_for_app(page)
    tool_boxes = page.evaluate(_TOOL_BOXES_JS)
    assert tool_boxes and all(
        not fmt and colour == "rgb(21, 101, 192)" and "gradient" in image for fmt, colour, image in tool_boxes
    )
    values = [int(value.replace(",", "")) for value in chat_counts(page)]
    assert len(values) == 4 and values[0] == sum(values[1:])  # in all = messages + tools + format
    assert page.get_by_text("Tools (JSON): 2 functions").count() == 1
    assert page.get_by_text(f"{values[0]:,} of 32,768 tokens").count() == 1
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page, "desktop", whole=True)


def test_cut_to_fit_brings_a_long_prompt_into_the_window(app_server, page, screenshot):
    page.set_viewport_size(DESKTOP)
    open_app(page, app_server, f"Encode?mode=chat&chat=cl100k_base&messages={HI}")
    page.wait_for_selector(TOKEN_BOXES)
    text = page.get_by_label("Message 1: text")
    text.fill("word " * 9_000)  # word, 8,999 ␣word and ␣: 9,001 tokens, and GPT-4's 7 for the format
    text.press("Control+Enter")
    wait_for_app(page)
    assert chat_counts(page)[0] == "9,008"
    cut = page.get_by_role("button", name="Cut to fit (8,192 tokens)")
    screenshot(page, "past-the-window")
    cut.click()
    wait_for_app(page)
    assert chat_counts(page)[0] == "8,192" and cut.count() == 0
    assert page.get_by_text("0 left for the reply").count() == 1


@pytest.mark.parametrize("size", ["phone", "projector"])
def test_small_screens_fit_the_tools_and_the_window(browser, app_server, size, screenshot):
    viewport, extra, touch = SMALL_SCREENS[size]
    with page_on(browser, viewport, touch) as page:
        open_app(page, app_server, f"Encode?mode=chat&chat=llama3&messages={HI}&tools={quote(TOOL)}&open=tools{extra}")
        page.wait_for_selector(".bpe-scroll .tok.tool")
        assert page_width(page) <= viewport["width"]
        assert overlapping_elements(page) == [] and exception_texts(page) == []
        screenshot(page, f"{size}-whole", whole=True)


def test_a_text_ending_in_a_space_shows_the_likely_next_tokens_on_a_phone(browser, app_server, screenshot):
    with page_on(browser, PHONE, touch=True) as page:
        open_app(page, app_server, "Encode?tokenizer=gpt2&input=The%20answer%20is%20")
        page.wait_for_selector(".bpe-next .chip")
        chips = page.locator(".bpe-next .chip").all_inner_texts()
        assert chips[:3] == ["␣t", "␣a", "␣the"]  # GPT-2's first merges: Ġ t, Ġ a, Ġthe
        assert page.get_by_text("This text ends in the middle of what the tokenizer would merge").count() == 1
        assert page_width(page) <= PHONE["width"] and overlapping_elements(page) == []
        screenshot(page, "phone", whole=True)
