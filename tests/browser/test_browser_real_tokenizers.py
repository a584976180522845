"""Compare's Real tokenizers tab on a server that has loaded no published tokenizer yet: the user's own model shows
at once, a line says which tokenizer is loading, and each appears as it loads."""

from __future__ import annotations

import pytest
from browser_helpers import running_app, wait_for_app

pytestmark = pytest.mark.browser

# What the page shows while Gemma 3 (the slowest, ~2-3 s on a fresh server) loads: the user's strip, the line.
_WHILE_LOADING_JS = """() => {
  const text = document.querySelector('[data-testid=stMain]')?.innerText || '';
  return text.includes('Your model —') && text.includes('Loading Gemma 3 (2 of 2)') && !text.includes('Gemma 3 —');
}"""


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    with running_app(tmp_path_factory.mktemp("fresh") / "server.log") as (url, _):
        yield url


def test_the_users_model_shows_while_the_published_ones_load(fresh_server, page):
    page.goto(f"{fresh_server}/Compare?tab=real&real=gpt2,gemma3&input=Hello%20world", wait_until="domcontentloaded")
    page.wait_for_function(_WHILE_LOADING_JS, timeout=60_000)
    wait_for_app(page)
    text = page.locator("[data-testid=stMain]").inner_text()
    assert "GPT-2 —" in text and "Gemma 3 —" in text and "Loading" not in text
