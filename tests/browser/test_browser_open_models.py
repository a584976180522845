"""The open models in a real browser, at desktop and phone size: Encode with Llama 2 (▁, byte fallback, NFKC-free
ﬁ) and Llama 3 (whole-word hits, cuts), a Gemma 3 merge tree, Compare with all of them, and an .xz upload."""

from __future__ import annotations

import re

import pytest
from support.browser import choose_option, click_nav, exception_texts, open_app, open_section, open_tab, wait_for_app
from support.paths import REPO_ROOT
from support.screens import PHONE, VIEWPORT

from bpe_core.pretrained import PRETRAINED, PUBLISHED
from pages.compare.views.real_tokenizers import DEFAULT_REAL

pytestmark = pytest.mark.browser

MAIN = '[data-testid="stMain"]'
CHART = '[data-testid="stPlotlyChart"]'
TOKEN_BOXES = ".bpe-scroll .tok"


def clean(page) -> None:
    assert exception_texts(page) == [] and page.page_errors == [] and page.dialogs == []


def both_sizes(page, screenshot, whole: bool = True) -> None:
    """A screenshot at desktop size, then at phone size (and back)."""
    screenshot(page, "desktop", whole=whole)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(700)
    screenshot(page, "phone", whole=whole)
    page.set_viewport_size(VIEWPORT)


def encode_with(page, base_url: str, title: str, text: str) -> None:
    open_app(page, base_url)
    click_nav(page, "Encode / Decode")
    page.wait_for_selector(TOKEN_BOXES)
    choose_option(page, "Tokenizer", title)
    box = page.get_by_label("Text to encode")
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page)


def box_texts(page) -> list[str]:
    return page.locator(".bpe-scroll").first.locator(".tok").all_inner_texts()


def test_encode_llama2_spaces_as_low_lines_and_byte_fallback(app_server, page, screenshot):
    encode_with(page, app_server, "Llama 2", "ﬁne 🦙 day, tokenizers 🙂")
    texts = box_texts(page)
    assert texts[:3] == ["▁", "ﬁ", "ne"] and ["<0xF0>", "<0x9F>", "<0xA6>", "<0x99>"] == texts[4:8]  # HF's tokens
    assert page.get_by_text("spaces became ▁ (4×); ▁ put in front of the text", exact=False).count() == 1
    assert page.locator(".bpe-scroll .char-group").count() == 1  # the four bytes of 🦙 in one dashed box
    clean(page)
    both_sizes(page, screenshot)


def test_encode_llama3_cuts_and_whole_word_hits(app_server, page, screenshot):
    encode_with(page, app_server, "Llama 3", "Hi tokenizers, the whole-word hits are underlined.")
    scroll = page.locator(".bpe-scroll").first
    assert scroll.locator(".cut").count() >= 5 and scroll.locator(".tok.hit").count() >= 3
    first = scroll.locator(".tok.hit").first
    assert "whole-word hit (ignore_merges)" in first.get_attribute("data-details")
    assert page.get_by_text("pieces were already tokens and were taken whole", exact=False).count() == 1
    clean(page)
    both_sizes(page, screenshot)


def test_gemma3_merge_tree_found_by_typing(app_server, page, screenshot):
    open_app(page, app_server)
    click_nav(page, "Merges")
    choose_option(page, "Tokenizer", "Gemma 3")
    open_tab(page, "Merge tree")
    search = page.get_by_label("Find a token by the text it stands for")
    search.fill(" tokenizer")
    wait_for_app(page)
    tree = page.locator(CHART).first
    tree.scroll_into_view_if_needed()
    labels = tree.locator("g.annotation text").all_text_contents()
    assert labels and labels[0] == "▁tokenizer"
    clean(page)
    screenshot(page, "desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(700)
    page.locator(CHART).first.scroll_into_view_if_needed()
    screenshot(page, "phone")


def test_compare_real_tokenizers_with_all_of_them(app_server, page, screenshot):
    open_app(page, app_server)
    click_nav(page, "Compare")
    page.get_by_role("tab", name=re.compile("Real tokenizers")).click()
    wait_for_app(page)
    main = page.locator(MAIN)
    for name in PRETRAINED:
        if name in DEFAULT_REAL:  # there already
            continue
        field = main.get_by_role("combobox", name="Published tokenizers")
        field.click()
        field.fill(PUBLISHED[name].title)
        page.get_by_role("option", name=PUBLISHED[name].title, exact=True).click()
        wait_for_app(page)
    page.keyboard.press("Escape")
    wait_for_app(page)
    for published in PUBLISHED.values():
        assert main.get_by_text(re.compile(f"^{re.escape(published.title)} — \\d+ tokens")).count() == 1
    chart = page.locator(CHART).first
    chart.scroll_into_view_if_needed()
    shown = 3 + len(PRETRAINED)  # your model at its 3 sizes, and every published tokenizer
    assert len(chart.locator("g.annotation text").all_text_contents()) == shown
    clean(page)
    screenshot(page, "desktop", whole=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(900)
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["width"] <= PHONE["width"]
    screenshot(page, "phone")
    screenshot(page, "phone-whole", whole=True)


def test_an_xz_tokenizer_json_uploads_in_the_browser(app_server, page, screenshot):
    open_app(page, app_server)
    click_nav(page, "Encode / Decode")
    page.wait_for_selector(TOKEN_BOXES)
    open_section(page, "Load a tokenizer")
    path = REPO_ROOT / "bpe_core" / "data" / "open" / "llama2.tokenizer.json.xz"
    page.locator(f'{MAIN} [data-testid="stExpander"] input[type="file"]').set_input_files(str(path))
    wait_for_app(page)
    page.get_by_text("Loaded llama2.tokenizer.json.xz: a vocabulary of 32,000 tokens", exact=False).wait_for()
    assert page.get_by_text("spaces became ▁", exact=False).count() == 1  # the session's model is now Llama 2's
    clean(page)
    screenshot(page)
