"""Compare's Languages tab in headless Chromium: the premium of 58 languages as a dot plot and a table, every
tokenizer's column on a wide screen, one tokenizer at a time on a phone or a projector; the user's text added as a
row; a model trained on the mix of languages says where each merged pair came from."""

from __future__ import annotations

import re

import pytest
from support.browser import exception_texts, open_app, wait_for_app
from support.screens import PHONE, PROJECTOR, page_width

from bpe_core.languages import bundled_languages, bundled_texts

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1400, "height": 900}
MAIN = '[data-testid="stMain"]'
PLOT = '[data-testid="stPlotlyChart"]'
ADDRESS = "Compare?tab=languages&real=gpt2,o200k_base"
GPT4O = "GPT-4o and GPT-5 (o200k_base)"


@pytest.fixture(scope="module")
def served(app_server, browser) -> str:
    """The app's address once a first session has run on it: a fresh server's very first visit, at a page's
    address, shows Streamlit's "Page not found" over the page it then opens (on main too)."""
    context = browser.new_context()
    open_app(context.new_page(), app_server)
    context.close()
    return app_server


def dearest_sentence(title: str, counts: dict[str, int]) -> str:
    """The sentence over the plot when ``title`` sorts the languages: the language it charges most."""
    dearest = max(counts, key=lambda code: (counts[code], code))
    name = next(language.name for language in bundled_languages() if language.code == dearest)
    return (
        f"Under {title}, {name} needs the most tokens for the same text: {counts[dearest]:,}, "
        f"{counts[dearest] / counts['eng']:.2f}× as many as English ({counts['eng']})."
    )


def counts_of(tiktoken_module, name: str) -> dict[str, int]:
    """tiktoken's counts of every bundled text."""
    encoding = tiktoken_module.get_encoding(name)
    return {code: len(encoding.encode_ordinary(text)) for code, text in bundled_texts().items()}


def last_row(page, table_class: str) -> list[str]:
    return page.locator(f".{table_class} tbody tr").last.locator("td").all_inner_texts()


@pytest.mark.parametrize("size", [DESKTOP, PROJECTOR, PHONE], ids=["desktop", "projector", "phone"])
def test_the_languages_tab_fits_each_screen(served, page, screenshot, tiktoken_module, size):
    page.set_viewport_size(size)
    open_app(page, served, ADDRESS)
    main = page.locator(MAIN)
    gpt2 = counts_of(tiktoken_module, "gpt2")
    assert main.get_by_text(dearest_sentence("GPT-2", gpt2)).count() == 1
    plot = page.locator(PLOT)
    assert plot.count() == 1
    plot.scroll_into_view_if_needed()
    screenshot(page, "plot")
    narrow = size != DESKTOP
    # a wide screen shows a column per tokenizer (yours at three sizes, two published), a phone or a projector one
    # tokenizer's
    assert page.locator(".bpe-lang-all").is_visible() != narrow and page.locator(".bpe-lang-one").is_visible() == narrow
    shown = "bpe-lang-one" if narrow else "bpe-lang-all"
    page.locator(f".{shown}").scroll_into_view_if_needed()
    header = page.locator(f".{shown} thead th").all_inner_texts()
    assert len(header) == (4 if narrow else 7)
    burmese = f"{gpt2['mya']:,}" if narrow else f"{gpt2['mya']:,} ({gpt2['mya'] / gpt2['eng']:.2f}×)"
    assert last_row(page, shown)[0] == "Burmese" and burmese in last_row(page, shown)
    assert page_width(page) <= size["width"] and exception_texts(page) == []
    screenshot(page, "table")


def test_a_phone_reads_one_tokenizer_at_a_time(served, page, screenshot, tiktoken_module):
    page.set_viewport_size(PHONE)
    open_app(page, served, ADDRESS)
    assert page.locator(MAIN).get_by_text(dearest_sentence("GPT-2", counts_of(tiktoken_module, "gpt2"))).count() == 1
    # on a phone a click in the box only focuses it: its Open button opens the list
    sorted_by = page.locator('[data-testid="stSelectbox"]').filter(has_text="Sorted by")
    sorted_by.scroll_into_view_if_needed()
    sorted_by.get_by_role("button", name="Open").click()
    page.get_by_role("option", name=GPT4O, exact=True).click()
    wait_for_app(page)
    o200k = counts_of(tiktoken_module, "o200k_base")
    assert page.locator(MAIN).get_by_text(dearest_sentence(GPT4O, o200k)).count() == 1
    row = page.locator(".bpe-lang-one tbody tr").filter(has_text="Burmese").locator("td").all_inner_texts()
    assert row == ["Burmese", "Myanmar", f"{o200k['mya']:,}", f"{o200k['mya'] / o200k['eng']:.2f}×"]
    assert page_width(page) <= PHONE["width"] and exception_texts(page) == []
    screenshot(page)


def test_the_user_s_text_becomes_a_row_named_by_them(served, page, screenshot):
    page.set_viewport_size(DESKTOP)
    open_app(page, served, ADDRESS + "&input=Och%20aye%20the%20noo&script=Cherokee")
    name = page.get_by_role("textbox", name="Your text above as a row, in the language")
    name.fill("Scots")
    name.press("Enter")
    wait_for_app(page)
    rows = page.locator(".bpe-lang-all tbody tr")
    languages = [rows.nth(index).locator("td").first.inner_text() for index in range(rows.count())]
    assert sorted(languages) == ["Cherokee", "Scots (your text)"]  # the script's one language, and the user's text
    assert re.search(r"[?&]own=Scots(&|$)", page.url) and "script=Cherokee" in page.url
    assert exception_texts(page) == []
    screenshot(page)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_model_trained_on_the_mix_says_where_each_merged_pair_came_from(served, page, screenshot, size):
    page.set_viewport_size(size)
    open_app(page, served, "Merges?preset=english90&step=1")  # the address trains the model on its first visit
    caption = page.locator(MAIN).get_by_text(re.compile(r"^Before this merge the pair stood [\d,]+ times in the mix"))
    assert caption.count() == 1 and "% in English" in caption.inner_text()
    caption.scroll_into_view_if_needed()
    assert page_width(page) <= size["width"] and exception_texts(page) == []
    screenshot(page)
