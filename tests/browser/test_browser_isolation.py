"""Two people using the app at once never see each other's text or model.

Each user is a separate browser context (its own cookies and Streamlit session). User A trains on a corpus
with a made-up word; user B's pages never contain that word anywhere in the DOM (text, titles, charts), and
B still has the default model. Then B trains on a corpus with its own made-up word, and A's pages show A's
model, never B's word.
"""

from __future__ import annotations

import pytest
from support.browser import click_nav, exception_texts, open_app, open_tab
from support.browser_pages import choose_corpus, train
from support.page_tabs import MERGES_TABS
from support.screens import VIEWPORT

pytestmark = pytest.mark.browser

PAGES = ["Start", "Train", "Merges", "Encode / Decode", "Compare"]
SIDEBAR_CAPTION = '[data-testid="stSidebar"] [data-testid="stCaptionContainer"]'


def corpus_with(word: str) -> str:
    return " ".join([f"{word} zebra {word}s lowly"] * 40)


def new_user(browser):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.page_errors = []
    page.on("pageerror", lambda err: page.page_errors.append(str(err)))
    return context, page


def train_on(page, base_url: str, text: str) -> str:
    """Paste ``text`` on the Train page, train, and return the sidebar's model line."""
    open_app(page, base_url, "Train")
    choose_corpus(page, "Paste your own text")
    box = page.get_by_role("textbox", name="Your text")
    box.fill(text)
    box.press("Control+Enter")
    train(page)
    return page.locator(SIDEBAR_CAPTION).first.inner_text()


def every_page_html(page) -> dict[str, str]:
    """The whole document of each page (text, attributes, chart SVG; every tab of Merges), plus the address bar."""
    seen = {}
    for title in PAGES:
        click_nav(page, title)
        seen[title] = page.content() + page.url
        for tab in MERGES_TABS if title == "Merges" else []:
            open_tab(page, tab)
            seen[title] += page.content()
        assert exception_texts(page) == [] and page.page_errors == [], title
    return seen


def test_two_users_never_see_each_others_corpus_or_model(app_server, browser, screenshot):
    context_a, user_a = new_user(browser)
    context_b, user_b = new_user(browser)
    try:
        open_app(user_b, app_server)  # B is already there when A trains
        default_line = user_b.locator(SIDEBAR_CAPTION).first.inner_text()

        a_line = train_on(user_a, app_server, corpus_with("zqxalpha"))
        assert a_line != default_line
        own = every_page_html(user_a)
        assert "zqxalpha" in own["Train"] and "zqxalpha" in own["Merges"]  # the pages that show the corpus

        user_b.reload()
        for title, html in every_page_html(user_b).items():
            assert "zqxalpha" not in html, f"user B sees A's corpus on {title}"
        assert user_b.locator(SIDEBAR_CAPTION).first.inner_text() == default_line
        screenshot(user_b, "user-b")

        train_on(user_b, app_server, corpus_with("qvzbravo"))
        seen_by_a = every_page_html(user_a)
        for title, html in seen_by_a.items():
            assert "qvzbravo" not in html, f"user A sees B's corpus on {title}"
        assert "zqxalpha" in seen_by_a["Train"] and "zqxalpha" in seen_by_a["Merges"]  # A keeps its model
        assert user_a.locator(SIDEBAR_CAPTION).first.inner_text() == a_line
        screenshot(user_a, "user-a")
    finally:
        context_a.close()
        context_b.close()
