"""A page comes back from its address in Chromium: a reload, and the same address in another browser, show the
same model (retrained from the link), the same tab and the same token; Copy link offers that address."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from support.browser import MAIN, SIDEBAR, choose_option, click_nav, exception_texts, open_app, open_tab, wait_for_app
from support.browser_pages import TRAIN_BUTTON, choose_corpus
from support.screens import VIEWPORT

pytestmark = pytest.mark.browser

PASTED = "low lower lowest low low newer newest"


def merges_state_seen(page) -> tuple[str, str, str]:
    """The sidebar's model line, the open tab and the token whose tree is drawn."""
    model = page.locator(SIDEBAR).inner_text().split("Current model: ", 1)[1].splitlines()[0]
    tab = page.locator(f'{MAIN} [role="tab"][aria-selected="true"]').inner_text().strip()
    token = page.get_by_role("combobox", name="Token (type to search)").input_value()
    return model, tab, token


def test_a_reload_and_another_browser_come_back_to_the_same_merges_page(app_server, page, browser, screenshot):
    page.goto(f"{app_server}/Train", wait_until="domcontentloaded")  # the root is Start
    wait_for_app(page)
    choose_corpus(page, "Paste your own text")
    box = page.locator(f"{MAIN} textarea")
    box.fill(PASTED)
    box.press("Control+Enter")
    wait_for_app(page)
    page.locator(TRAIN_BUTTON).click()
    wait_for_app(page)
    click_nav(page, "Merges")
    open_tab(page, "Merge tree")
    choose_option(page, "Token (type to search)", "low")  # l+o, then lo+w under the byte-level default
    before = merges_state_seen(page)
    address = parse_qs(urlparse(page.url).query)
    assert address["preset"] == ["paste"] and address["text"] == [PASTED]
    assert address["tab"] == ["tree"] and address["token"] == ["low"]

    page.get_by_role("button", name="Copy link").click()
    shown_link = page.locator('[data-testid="stPopoverBody"] code').inner_text().strip()
    assert shown_link == page.url
    page.keyboard.press("Escape")

    page.reload(wait_until="domcontentloaded")
    wait_for_app(page)
    assert merges_state_seen(page) == before

    elsewhere = browser.new_context(viewport=VIEWPORT).new_page()  # no cookie, no session: only the address
    try:
        elsewhere.goto(shown_link, wait_until="domcontentloaded")
        wait_for_app(elsewhere)
        assert merges_state_seen(elsewhere) == before
        assert exception_texts(elsewhere) == []
        screenshot(elsewhere, "another-browser")
    finally:
        elsewhere.context.close()
    assert exception_texts(page) == []


def test_compare_and_encode_come_back_after_a_reload(app_server, page):
    open_app(page, app_server, "Compare")
    box = page.get_by_role("textbox", name="Your text")
    box.fill("Reload me, said the phone.")
    box.press("Control+Enter")
    wait_for_app(page)
    open_tab(page, "Real tokenizers")
    page.reload(wait_until="domcontentloaded")
    wait_for_app(page)
    assert page.get_by_role("textbox", name="Your text").input_value() == "Reload me, said the phone."
    assert page.locator(f'{MAIN} [role="tab"][aria-selected="true"]').inner_text().endswith("Real tokenizers")

    click_nav(page, "Encode / Decode")  # the same text, shared; the page's own address now
    assert parse_qs(urlparse(page.url).query)["input"] == ["Reload me, said the phone."]
    page.reload(wait_until="domcontentloaded")
    wait_for_app(page)
    assert page.get_by_role("textbox", name="Text to encode").input_value() == "Reload me, said the phone."
    assert exception_texts(page) == []
