"""Compare's Real tokenizers tab on a server that has loaded no published tokenizer yet: the user's own model shows
at once, a line says which tokenizer is loading, and each appears as it loads."""

from __future__ import annotations

import pytest
from support.browser import exception_texts, open_app, running_app, wait_for_app
from support.screens import PHONE, PROJECTOR, page_width

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1400, "height": 900}

# What the page shows while Gemma 3 (the slowest: 3 s on an idle server, 11 to 20 on a busy one) loads: the user's
# strip, and a spinner naming the tokenizer, with the seconds so far once one has passed
_WHILE_LOADING_JS = """() => {
  const text = document.querySelector('[data-testid=stMain]')?.innerText || '';
  const spinner = document.querySelector('[data-testid=stMain] [data-testid=stSpinner]')?.innerText || '';
  return text.includes('Your model —') && spinner.includes('Loading Gemma 3 (2 of 2)') && /[1-9]/.test(
    spinner.replace('Loading Gemma 3 (2 of 2)', '')) && !text.includes('Gemma 3 —');
}"""


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("fresh") / "server.log") as (url, _):
        yield url


def test_the_users_model_shows_while_the_published_ones_load(fresh_server, page):
    page.goto(f"{fresh_server}/Compare?tab=real&real=gpt2,gemma3&input=Hello%20world", wait_until="domcontentloaded")
    page.wait_for_function(_WHILE_LOADING_JS, timeout=60_000)
    spinner = page.locator("[data-testid=stMain] [data-testid=stSpinner]").inner_text()
    assert "about" not in spinner  # no promise of how long: a busy server takes several times an idle one's
    wait_for_app(page)
    text = page.locator("[data-testid=stMain]").inner_text()
    assert "GPT-2 —" in text and "Gemma 3 —" in text and "Loading" not in text


_ROWS_SHOWN_JS = """() => Array.from(document.querySelectorAll('.bpe-al .st:first-child .rw'))
  .map((row) => getComputedStyle(row).display !== 'none')"""
_DETAILS_SHOWN_JS = """(el) => getComputedStyle(el, '::after').content"""


@pytest.mark.parametrize(
    ("size", "rows_shown"),
    [(DESKTOP, [True, True, True]), (PROJECTOR, [True, True, True]), (PHONE, [True, False, False])],
    ids=["desktop", "projector", "phone"],
)
def test_where_they_cut_differently_lines_them_up_under_the_text(app_server, page, screenshot, size, rows_shown):
    """GPT-2, GPT-4 and GPT-4o under "I don't": they all cut at I, and GPT-4o keeps " don't" whole, the others
    cut it at "'t" (the page test checks this against tiktoken). A tap on that stretch shows each one's tokens; a
    phone shows one tokenizer under the text, chosen above it."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Compare?tab=real&input=I%20don't")
    differing = page.locator(".bpe-al .st.differs")
    differing.scroll_into_view_if_needed()
    assert differing.count() == 1 and page.evaluate(_ROWS_SHOWN_JS) == rows_shown
    phone_choice = page.get_by_text("Under the text", exact=True)
    assert phone_choice.is_visible() == (size == PHONE)
    differing.click()  # focused: its details show (CSS, no script)
    details = differing.evaluate(_DETAILS_SHOWN_JS)  # as CSS writes the attribute: quotes escaped, \a a new line
    assert "GPT-2: 'Ġdon' (836)" in details and 'GPT-4o and GPT-5 (o200k_base): \\"Ġdon\'t\\"' in details
    assert page_width(page) <= size["width"] and exception_texts(page) == []
    screenshot(page)
    if size == PHONE:  # another tokenizer under the text
        page.locator(".st-key-compare_line_up_phone").get_by_text("GPT-4o and GPT-5 (o200k_base)").click()
        wait_for_app(page)
        assert page.evaluate(_ROWS_SHOWN_JS) == [False, False, True]
