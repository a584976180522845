"""The Compare page in headless Chromium: every tab draws, typing text updates the strips."""

from __future__ import annotations

import re

import pytest
from browser_helpers import (
    PHONE,
    PROJECTOR,
    VIEWPORT,
    click_nav,
    exception_texts,
    open_app,
    open_tab,
    page_width,
    wait_for_app,
    wholly_in_view,
)
from page_tabs import COMPARE_TABS

from pages.compare.views.setup import DEFAULT_TEXT

PLOT = '[data-testid="stPlotlyChart"]'
MAIN = '[data-testid="stMain"]'
SIZE_BOX = '[data-testid="stNumberInput"]'
TYPED = f"{SIZE_BOX} input"
CURVES = ".bpe-cc"  # the compression curves (HTML)
SCREEN = {"width": 1400, "height": 900}  # a laptop's window (VIEWPORT is taller)
DRAWN_JS = "(img) => img.complete && img.naturalWidth > 0"  # a picture loaded and decoded


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

    # compression curves, drawn as HTML with a picture of the lines (no plotly chart to load): three dotted markers
    # labelled with the default sizes, as vocabularies (the default model is byte-level: 256 base symbols, plus 200
    # and 2,000 merges)
    curves = main.locator(CURVES)
    curves.scroll_into_view_if_needed()
    assert page.locator(PLOT).count() == 0
    assert curves.locator(".mark").all_inner_texts() == ["256", "456", "2,256"]
    pictures = curves.locator("img.lines")
    assert pictures.count() == 2 and all(picture.evaluate(DRAWN_JS) for picture in pictures.all())
    # the pointer anywhere on a plot is over a band that gives every text's values at the nearest size
    area = curves.locator(".area").first.bounding_box()
    spot = {"x": area["x"] + area["width"] / 2, "y": area["y"] + area["height"] / 2}
    page.mouse.move(spot["x"], spot["y"])
    under = page.evaluate(
        "(p) => { const el = document.elementFromPoint(p.x, p.y); return [el.className, el.title]; }", spot
    )
    assert under[0] == "band" and re.match(
        r"vocabulary [\d,]+ \([\d,]+ merges\)\ntraining corpus: [\d,]+ tokens", under[1]
    )
    screenshot(page, "curves")
    assert_clean(page)

    open_tab(page, "Side by side")
    strips = main.locator(".bpe-tv .tok")
    assert strips.count() > 100
    assert main.get_by_text(re.compile(r"Vocabulary 2,256 \(2,000 merges\) — \d+ tokens")).count() == 1
    screenshot(page, "side-by-side")

    # typing new text updates the strips
    area = page.locator('[data-testid="stTextArea"] textarea')
    area.fill("In the beginning God created the heaven and the earth.")
    area.press("Control+Enter")
    wait_for_app(page)
    # no merge: one token a byte, and the 54 characters are ASCII
    check_view(page, screenshot, r"^Vocabulary 256 \(0 merges\) — 54 tokens", "side-by-side-typed")

    open_tab(page, "Pre-tokenizers")
    check_view(page, screenshot, r"first differ at step \d+", "pretokenizers")

    # custom: B = characters with the gpt4 split (A keeps the defaults: whitespace, chars)
    page.get_by_text("Custom", exact=True).click()
    wait_for_app(page)
    split_b = main.locator('[data-testid="stSelectbox"]').filter(has_text="Pre-tokenization").nth(1)
    split_b.click()
    page.get_by_role("option", name="gpt4", exact=True).click()
    wait_for_app(page)
    check_view(
        page,
        screenshot,
        r"B: gpt4 split · built from characters · equal counts: the pair seen first wins — \d+ tokens",
        "pretokenizers-custom",
    )

    open_tab(page, "Real tokenizers")
    typed = "In the beginning God created the heaven and the earth."
    counts = {
        title: len(tiktoken_module.get_encoding(name).encode_ordinary(typed))
        for name, title in (
            ("gpt2", "GPT-2"),
            ("cl100k_base", "GPT-4 (cl100k_base)"),
            ("o200k_base", "GPT-4o and GPT-5 (o200k_base)"),
        )
    }
    for title, count in counts.items():
        assert main.get_by_text(re.compile(f"^{re.escape(title)} — {count} tokens")).count() == 1
    assert main.locator(".bpe-counts tbody tr").count() == 7  # each tokenizer's counts: yours at 3 sizes, 4 published
    assert main.locator(".bpe-costs tbody tr").count() == 6  # the samples' characters, then each tokenizer
    screenshot(page, "real-tokenizers")
    # Keep GPT-4o alone: remove the other three chips of the published tokenizers' multiselect (the line-up below
    # has chips of its own)
    chosen = main.locator(".st-key-compare_real_choice")
    for title in ("GPT-2", "GPT-4 (cl100k_base)", "Llama 3"):
        chosen.get_by_role("button", name=f"Remove {title}", exact=True).click()
        wait_for_app(page)
    gpt4o = "GPT-4o and GPT-5 (o200k_base)"
    check_view(page, screenshot, rf"^{re.escape(gpt4o)} — {counts[gpt4o]} tokens", "gpt4o-alone")
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


def typed_sizes(page) -> list[str]:
    return [box.input_value() for box in page.locator(f"{MAIN} {TYPED}").all()]


@pytest.mark.browser
def test_compare_sizes_only_where_used_and_kept(app_server, page, screenshot):
    open_app(page, app_server)
    click_nav(page, "Compare")
    main = page.locator(MAIN)
    assert typed_sizes(page) == ["256", "456", "2256"]
    main.get_by_role("radio", name="4", exact=True).click()  # four sizes
    wait_for_app(page)
    box = main.locator(TYPED).nth(1)
    box.fill("500")
    box.press("Enter")
    wait_for_app(page)
    # the fourth starts where the fourth of four default sizes is: all 2,000 merges, vocabulary 2,256
    assert typed_sizes(page) == ["256", "500", "2256", "2256"]
    assert page.locator(f"{CURVES} .mark").all_inner_texts() == ["256", "500", "2,256", "2,256"]
    main.locator(SIZE_BOX).first.locator('[data-testid="stNumberInputStepUp"]').click()  # 2,000 new tokens: + 100
    wait_for_app(page)
    assert page.locator(f"{CURVES} .mark").all_inner_texts() == ["356", "500", "2,256", "2,256"]

    open_tab(page, "Pre-tokenizers")  # it trains its own pair: no size control
    assert main.get_by_text("Vocabulary sizes to compare").count() == 0
    assert typed_sizes(page) == ["500"]  # only its merges for both trainings
    click_nav(page, "Encode / Decode")
    click_nav(page, "Compare")  # back on Pre-tokenizers
    assert typed_sizes(page) == ["500"]
    open_tab(page, "Vocabulary usage")
    assert main.get_by_role("radio", name="4", exact=True).get_attribute("aria-checked") == "true"
    assert typed_sizes(page) == ["356", "500", "2256", "2256"]
    assert_clean(page)

    # a phone: each tab fits the width (the tab bar scrolls inside its box), the size boxes two to a row
    # with their + and -, the charts shrink to the window
    page.set_viewport_size(PHONE)
    for tab in COMPARE_TABS:
        open_tab(page, tab)
        assert page_width(page) <= PHONE["width"], tab
        for chart in page.locator(f"{PLOT}, {CURVES} .panel, .bpe-st").all():
            assert chart.bounding_box()["width"] <= PHONE["width"], tab
        if tab == "Compression":  # the size table becomes one card per size: nothing to scroll sideways
            table = page.locator(".bpe-st")
            assert table.evaluate("(box) => box.scrollWidth <= box.clientWidth")
            assert table.locator("td").first.evaluate("(cell) => getComputedStyle(cell, '::before').content") == (
                '"vocabulary"'
            )
        if tab != "Pre-tokenizers":
            boxes = [box.bounding_box() for box in main.locator(SIZE_BOX).all()]
            assert len(boxes) == 4 and main.locator(f"{SIZE_BOX} button").count() == 8, tab  # + and - each
            assert boxes[0]["y"] == boxes[1]["y"] < boxes[2]["y"] == boxes[3]["y"], tab
            assert (
                boxes[1]["x"] > boxes[0]["x"] + boxes[0]["width"]
                and boxes[1]["x"] + boxes[1]["width"] <= PHONE["width"]
            )
        screenshot(page, f"phone-{tab.split()[0].lower()}", whole=True)
        assert_clean(page)
    page.set_viewport_size(VIEWPORT)


@pytest.mark.browser
def test_a_size_beyond_the_model_trains_it_further_in_place(app_server, page, screenshot):
    """The default model stops at vocabulary 2,256; asking for 5,000 trains the sample further, the three sizes stay
    and the curves mark 5,000: "500, 5000 and GPT-4" answered without a trip to Train."""
    open_app(page, app_server)
    click_nav(page, "Compare")
    boxes = page.locator(f"{MAIN} {TYPED}")
    for index, size in ((0, "500"), (2, "5000")):
        boxes.nth(index).fill(size)
        boxes.nth(index).press("Enter")
        wait_for_app(page)
    assert typed_sizes(page) == ["500", "456", "5000"]
    assert page.locator(f"{CURVES} .mark").all_inner_texts() == ["500", "456", "5,000"]
    assert (
        "a vocabulary of 5,000 tokens, 4,744 of them made by merges"
        in page.locator('[data-testid="stSidebar"]').inner_text()
    )
    open_tab(page, "Real tokenizers")  # GPT-4 beside the sizes, in one table
    names = page.locator(f'{MAIN} .bpe-counts td[data-column="Tokenizer"]').all_inner_texts()
    assert {"Your model at 500", "Your model at 5,000", "GPT-4 (cl100k_base)"} <= set(names)
    screenshot(page, "real-5000")
    assert_clean(page)


@pytest.mark.browser
@pytest.mark.parametrize("size", [VIEWPORT, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_every_tab_is_on_screen_and_opens_with_a_tap(app_server, page, screenshot, size):
    """Five tabs are wider than a phone: they wrap to a second row instead of scrolling sideways past the screen's
    edge, so Real tokenizers and Vocabulary usage are in sight and open with one tap."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Compare" + ("?present=1" if size == PROJECTOR else ""))
    tabs = page.get_by_role("tab")
    for box in (tab.bounding_box() for tab in tabs.all()):
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    tabs.last.evaluate("el => el.scrollIntoView({block: 'center'})")
    screenshot(page, "tabs")
    page.get_by_role("tab", name=re.compile("Real tokenizers")).click()
    wait_for_app(page)
    assert page.get_by_role("tab", name=re.compile("Real tokenizers")).get_attribute("aria-selected") == "true"
    assert page_width(page) <= size["width"]
    assert_clean(page)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("size", "path"), [(SCREEN, ""), (PHONE, ""), (PROJECTOR, "?present=1")], ids=["desktop", "phone", "projector"]
)
def test_a_size_chosen_shows_its_result_on_screen(app_server, page, screenshot, size, path):
    """A size typed in its box, the box at the window's lower edge: the text's tokens at each size, under the boxes,
    are on screen. The default text is ASCII and the model byte-level, so vocabulary 256 (no merge) cuts it into
    one token a character."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Compare" + path)
    box = page.locator(f"{MAIN} {TYPED}").nth(1)
    box.evaluate("element => element.scrollIntoView({block: 'end'})")
    box.fill("1000")
    box.press("Enter")
    wait_for_app(page)
    page.wait_for_timeout(300)  # the scroll waits for the next frame
    line = page.locator(".st-key-compare_tokens_at_sizes")
    assert re.fullmatch(
        rf"Your text: {len(DEFAULT_TEXT)} tokens at vocabulary 256\s· \d+ at 1,000\s· \d+ at 2,256\.", line.inner_text()
    )
    assert wholly_in_view(page, line), line.bounding_box()
    assert page_width(page) <= size["width"]
    screenshot(page)
    assert_clean(page)
