"""HTML and JavaScript payloads, from every way text gets in, shown as text on every page and never run.

The payloads travel through: a corpus (trained through a shared link, so the link's ``text`` parameter is
exercised too), the Encode and Compare text boxes, and an uploaded tokenizer.json whose vocabulary and
merges hold them. After each step every page is visited and the whole DOM is checked: no dialog fired,
no element made from a payload (``img[src=x]``, a ``javascript:`` link, an inline event handler), and
the payload text is on screen literally.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from support.browser import click_nav, exception_texts, open_app, open_section, open_tab, wait_for_app
from support.page_tabs import COMPARE_TABS, MERGES_TABS

from bpe_core import Config, train
from bpe_core.formats import to_hf_json

pytestmark = pytest.mark.browser

PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "[click](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
]
# Repeated so that training merges whole payloads into tokens (they then show in merge lists and trees).
PAYLOAD_CORPUS = "\n".join(PAYLOADS * 8)
PAYLOAD_TEXT = " ".join(PAYLOADS)
MAIN = '[data-testid="stMain"]'
PAGES = ["Start", "Train", "Merges", "Encode / Decode", "Compare", "Learn", "Class"]

# Elements a payload would create if it were parsed as HTML or markdown, anywhere in the document
# (SVG links from plotly use xlink:href, so every attribute is looked at, not only href).
_INJECTED_JS = """
() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const value = (attr.value || '').trim().toLowerCase();
      const scripted = /href$|^src$|action$/.test(attr.name) && value.startsWith('javascript:');
      if (scripted) found.push(el.outerHTML.slice(0, 120));
      if (attr.name.startsWith('on') && value.includes('alert(')) found.push(el.outerHTML.slice(0, 120));
    }
    if (el.tagName === 'IMG' && el.getAttribute('src') === 'x') found.push(el.outerHTML.slice(0, 120));
    if (el.tagName === 'SCRIPT' && (el.textContent || '').includes('alert(1)')) found.push('<script>alert(1)');
  }
  return found;
}
"""


def visible_text(page) -> str:
    """The main area's text, with the space glyphs the pages use turned back into spaces."""
    return re.sub("[·␣]", " ", page.locator(MAIN).inner_text())


def assert_nothing_injected(page, where: str) -> None:
    page.wait_for_timeout(300)  # let an injected onerror handler fire if there were one
    assert page.dialogs == [], f"{where}: a dialog fired: {page.dialogs}"
    assert page.evaluate(_INJECTED_JS) == [], where
    assert exception_texts(page) == [], where
    assert page.page_errors == [], where


def fill_and_commit(page, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label)
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page)


def sweep_every_page(page, screenshot, tag: str) -> dict[str, str]:
    """Visit every page (and every Compare tab) with payload text in the boxes; return each page's text."""
    texts = {}
    for title in PAGES:
        click_nav(page, title)
        if title == "Encode / Decode":
            fill_and_commit(page, "Text to encode", PAYLOAD_TEXT)
            page.locator(".bpe-scroll .tok").first.hover()  # the hover title is an attribute, never HTML
        if title == "Compare":
            fill_and_commit(page, "Your text", PAYLOAD_TEXT)
        for tab in {"Compare": COMPARE_TABS, "Merges": MERGES_TABS}.get(title, []):
            open_tab(page, tab)
            assert_nothing_injected(page, f"{tag}: {title} / {tab}")
            texts[f"{title} / {tab}"] = visible_text(page)
        assert_nothing_injected(page, f"{tag}: {title}")
        texts[title] = visible_text(page)
        screenshot(page, f"{tag}-{title.split()[0].lower()}", whole=True)
    return texts


def test_payloads_in_a_trained_corpus_show_as_text_everywhere(app_server, page, screenshot):
    link = urlencode({"preset": "paste", "text": PAYLOAD_CORPUS, "split": "none", "eow": "", "merges": 300})
    open_app(page, app_server, "?" + link)
    assert "Textbook" not in page.locator(MAIN).inner_text().split("3 · Result")[-1][:200]
    texts = sweep_every_page(page, screenshot, "corpus")
    # The merges reach whole payloads: the Train page's chips and the Merges page show them literally.
    merges = " ".join(text for where, text in texts.items() if where.startswith("Merges"))  # all its tabs
    assert any(payload in merges for payload in PAYLOADS)
    for where in ("Train", "Encode / Decode", "Compare / Side by side", "Compare / Real tokenizers"):
        assert all(payload in texts[where] for payload in PAYLOADS), where


def test_payloads_in_an_uploaded_tokenizer_show_as_text_everywhere(app_server, page, screenshot, tmp_path):
    model = train(PAYLOAD_CORPUS, Config(split="none"), merges=300)
    assert any("alert(1)" in token and len(token) > 20 for token in model.vocab)
    name = "<img src=x onerror=alert(1)>[click](javascript:alert(1)).json"  # the file name is shown too
    path = tmp_path / name
    path.write_text(json.dumps(to_hf_json(model)), encoding="utf-8")

    open_app(page, app_server, "Train")
    open_section(page, "Save or load a tokenizer")
    page.locator(f'{MAIN} input[type="file"]').last.set_input_files(str(path))
    wait_for_app(page)
    assert f"Loaded {name}" in visible_text(page)
    texts = sweep_every_page(page, screenshot, "tokenizer")
    for where in ("Train", "Merges", "Encode / Decode", "Compare"):
        assert name in texts[where], where
    assert "img src=x on" in texts["Merges / Merge tree"]  # the tree's token picker, with spaces drawn as ␣
    assert all(payload in texts["Encode / Decode"] for payload in PAYLOADS)


def test_streamlit_markdown_syntax_in_a_file_name_shows_literally(app_server, page):
    """Streamlit's own Markdown (emoji shortcodes, Material icons, colour directives) and CommonMark's (bold,
    LaTeX, entities) in a file name are shown as typed: drawing.escape leaves nothing for the Markdown to read."""
    name = ":smile: :material/delete: :red[alarm] **bold** $x^2$ &amp; # end.json"
    model_file = json.dumps(to_hf_json(train("aaab aab", Config(split="none"), merges=2))).encode()
    open_app(page, app_server, "Train")
    open_section(page, "Save or load a tokenizer")
    page.locator(f'{MAIN} input[type="file"]').last.set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": model_file}]
    )
    wait_for_app(page)
    for title in ("Train", "Compare"):
        click_nav(page, title)
        text = page.locator(MAIN).inner_text()
        assert name in text, title
        assert "😄" not in text, title
        assert page.locator(f'{MAIN} [data-testid="stIconMaterial"]').filter(has_text="delete").count() == 0, title
        assert_nothing_injected(page, title)
