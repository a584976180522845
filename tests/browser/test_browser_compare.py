"""The Compare page in headless Chromium: every tab draws, typing text updates the strips."""

from __future__ import annotations

import re

import pytest

from browser_helpers import click_nav, exception_texts, open_app, open_tab, wait_for_app

PLOT = '[data-testid="stPlotlyChart"]'
MAIN = '[data-testid="stMain"]'


def assert_clean(page) -> None:
    assert exception_texts(page) == []
    assert page.page_errors == []
    assert page.dialogs == []


def check_view(page, screenshot, pattern: str, name: str) -> None:
    """The view shows one text matching ``pattern`` and no error; a screenshot keeps it."""
    assert page.locator(MAIN).get_by_text(re.compile(pattern)).count() == 1
    screenshot(page, name)
    assert_clean(page)


@pytest.mark.browser
def test_compare_page_tabs(app_server, page, screenshot, tiktoken_module):
    page.set_viewport_size({"width": 1400, "height": 2200})  # Streamlit scrolls inside: show whole tabs
    open_app(page, app_server)
    click_nav(page, "Compare")
    main = page.locator(MAIN)
    assert main.locator("h1").first.inner_text().strip() == "Compare"

    # compression curves: one chart, three dotted markers labelled with the default sizes
    page.wait_for_selector(PLOT)
    chart = page.locator(PLOT).first
    chart.scroll_into_view_if_needed()
    for label in ("0", "200", "2,000"):
        assert chart.locator("text.annotation-text", has_text=re.compile(f"^{label}$")).count() == 1
    chart.hover(position={"x": 300, "y": 200})
    page.wait_for_timeout(400)
    assert "merges" in page.locator(".hoverlayer").text_content()
    screenshot(page, "curves")
    assert_clean(page)

    open_tab(page, "Side by side")
    strips = main.locator(".bpe-tv .tok")
    assert strips.count() > 100
    assert main.get_by_text(re.compile(r"2,000 merges \(vocabulary of 2,062\) — \d+ tokens")).count() == 1
    screenshot(page, "side-by-side")

    # typing new text updates the strips
    area = page.locator('[data-testid="stTextArea"] textarea')
    area.fill("In the beginning God created the heaven and the earth.")
    area.press("Control+Enter")
    wait_for_app(page)
    check_view(page, screenshot, r"^0 merges \(vocabulary of \d+\) — 55 tokens", "side-by-side-typed")

    open_tab(page, "Pre-tokenizers")
    check_view(page, screenshot, r"first differ at step \d+", "pretokenizers")

    # custom: B = characters with the gpt4 split (A keeps the defaults: whitespace, chars)
    page.get_by_text("Custom", exact=True).click()
    wait_for_app(page)
    split_b = main.locator('[data-testid="stSelectbox"]').filter(has_text="Pre-tokenizer").nth(1)
    split_b.click()
    page.get_by_role("option", name="gpt4", exact=True).click()
    wait_for_app(page)
    check_view(page, screenshot, r"B: gpt4 split · characters · ties: first occurrence — \d+ tokens",
               "pretokenizers-custom")

    open_tab(page, "Real tokenizers")
    typed = "In the beginning God created the heaven and the earth."
    counts = {title: len(tiktoken_module.get_encoding(name).encode_ordinary(typed))
              for name, title in (("gpt2", "GPT-2"), ("cl100k_base", "GPT-4 (cl100k_base)"),
                                  ("o200k_base", "GPT-4o (o200k_base)"))}
    for title, count in counts.items():
        assert main.get_by_text(re.compile(f"^{re.escape(title)} — {count} tokens")).count() == 1
    assert main.locator('[data-testid="stDataFrame"]').count() == 2  # each tokenizer's counts; languages and code
    screenshot(page, "real-tokenizers")
    # Keep GPT-4o alone: remove the other three chips of the multiselect.
    for title in ("GPT-2", "GPT-4 (cl100k_base)", "Llama 3"):
        main.get_by_role("button", name=f"Remove {title}", exact=True).click()
        wait_for_app(page)
    check_view(page, screenshot, rf"^GPT-4o \(o200k_base\) — {counts['GPT-4o (o200k_base)']} tokens", "gpt4o-alone")
    assert main.get_by_text(re.compile(r"^GPT-2 — ")).count() == 0

    open_tab(page, "Vocabulary usage")
    page.wait_for_selector(PLOT)
    bars = page.locator(PLOT).first
    bars.scroll_into_view_if_needed()
    base_unused = bars.locator("g.trace.bars").nth(1).locator("g.point path").first.bounding_box()
    page.mouse.move(base_unused["x"] + base_unused["width"] / 2, base_unused["y"] + base_unused["height"] / 2)
    page.wait_for_timeout(400)
    assert "base symbols" in page.locator(".hoverlayer").text_content()
    screenshot(page, "usage")
    assert_clean(page)
