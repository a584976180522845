"""Encode's Conversation mode in a real browser, at the desktop, phone and projector sizes: the prompt's boxes with
the format's tokens striped, messages edited and added, nothing run from a message's text, nothing overflowing."""

from __future__ import annotations

import json

import pytest
from support.browser import exception_texts, open_app, wait_for_app
from support.browser_pages import TOKEN_BOXES, chat_counts
from support.screens import DESKTOP, PHONE, PROJECTOR, SMALL_SCREENS, overlapping_elements, page_on, page_width

pytestmark = pytest.mark.browser

HI = json.dumps([["system", "Be brief."], ["user", "Hi!"]], separators=(",", ":"))

_STRIPES_JS = """
() => Array.from(document.querySelectorAll('.bpe-scroll .tok')).map(
  (el) => [el.innerText, getComputedStyle(el).backgroundImage !== 'none'])
"""


def open_conversation(page, base_url: str, extra: str = "") -> None:
    open_app(page, base_url, f"Encode?mode=chat&chat=qwen3&messages={HI}{extra}")
    page.wait_for_selector(TOKEN_BOXES)


def test_the_prompt_shows_the_formats_tokens_striped_and_counts_them(app_server, page, screenshot):
    page.set_viewport_size(DESKTOP)
    open_conversation(page, app_server)
    # Qwen3's ChatML by hand: <|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n then the
    # opening of the reply; the messages' own tokens are Be | brief | . and Hi | !
    stripes = page.evaluate(_STRIPES_JS)
    plain = [text for text, striped in stripes if not striped]
    assert plain == ["Be", "␣brief", ".", "Hi", "!"]
    assert len(stripes) == 18 and chat_counts(page) == ["18", "5", "13"]
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page, "desktop", whole=True)


def test_editing_and_adding_messages_updates_the_counts(app_server, page):
    page.set_viewport_size(DESKTOP)
    open_conversation(page, app_server)
    text = page.get_by_label("Message 2: text")
    text.fill("Hi there, how are you?")
    text.press("Control+Enter")
    wait_for_app(page)
    assert chat_counts(page)[1] == "10"  # Be brief . | Hi there , how are you ?: 3 + 7
    page.get_by_role("button", name="Add a message").click()
    wait_for_app(page)
    assert page.get_by_label("Message 3: text").count() == 1
    assert json.loads(page.evaluate("() => new URL(location.href).searchParams.get('messages')"))[2] == [
        "assistant",
        "",
    ]


def test_a_messages_html_is_shown_as_text(app_server, page):
    page.set_viewport_size(DESKTOP)
    attack = json.dumps([["user", "<img src=x onerror=alert(1)>"]])
    open_app(page, app_server, f"Encode?mode=chat&chat=llama3&messages={attack}")
    page.wait_for_selector(TOKEN_BOXES)
    assert page.locator(".bpe-scroll img").count() == 0 and page.dialogs == []
    assert "<img" in page.locator(".bpe-scroll").inner_text()


@pytest.mark.parametrize("size", ["phone", "projector"])
def test_small_screens_fit_the_conversation(browser, app_server, size, screenshot):
    viewport, extra, touch = SMALL_SCREENS[size]
    with page_on(browser, viewport, touch) as page:
        open_conversation(page, app_server, extra)
        assert page_width(page) <= viewport["width"]
        assert overlapping_elements(page) == []
        assert exception_texts(page) == []
        if size == "projector":  # presenting: the first tokens inside the first screen
            assert page.locator(TOKEN_BOXES).first.bounding_box()["y"] < viewport["height"]
        screenshot(page, size)
        screenshot(page, f"{size}-whole", whole=True)


_CUT_TEXTS_JS = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.innerText)"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_the_chat_model_and_the_counts_read_whole_with_the_sidebar_kept(app_server, page, size, screenshot):
    """gpt-oss is named once (not "gpt-oss (gpt-oss (o200k_harmony))"); the counts' labels say whose tokens they
    count, on one row, none cut; the sidebar keeps its title, model line and toggle in this mode."""
    page.set_viewport_size(size)
    extra = "&present=1" if size == PROJECTOR else ""
    open_app(page, app_server, f"Encode?mode=chat&chat=o200k_harmony&messages={HI}{extra}")
    page.wait_for_selector(TOKEN_BOXES)
    assert page.get_by_role("combobox", name="Chat model").input_value() == "gpt-oss (o200k_harmony)"
    labels = page.locator('.st-key-encode_counts [data-testid="stMetricLabel"]')
    assert labels.all_inner_texts() == ["Tokens in all", "In messages", "By the format"]
    tops = {round(box["y"]) for box in (label.bounding_box() for label in labels.all())}
    assert len(tops) == 1  # one row, on a phone too
    assert page.evaluate(_CUT_TEXTS_JS, '.st-key-encode_counts [data-testid="stMetricLabel"] *') == []
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert "BPE Explorer" in sidebar.inner_text() and "Current model:" in sidebar.inner_text()
    assert sidebar.get_by_text("Presentation mode").count() == 1
    assert exception_texts(page) == [] and page_width(page) <= size["width"]
    screenshot(page)
