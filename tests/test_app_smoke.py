"""Smoke tests: the router and every page run without an exception."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from bpe_core import Config, train

from browser_helpers import (
    REPO_ROOT,
    click_nav,
    exception_texts,
    open_app,
    sidebar_nav_labels,
)

APP_FILE = str(REPO_ROOT / "app.py")
PAGES = {
    "pages/1_Train.py": "Train",
    "pages/2_Merges.py": "Merges",
    "pages/3_Encode.py": "Encode / Decode",
    "pages/4_Compare.py": "Compare",
}


def _errors(at: AppTest) -> list[str]:
    return [e.message for e in at.exception]


def _sidebar_text(at: AppTest) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_router_runs_and_sidebar_matches_the_session_model():
    at = AppTest.from_file(APP_FILE, default_timeout=60).run()
    assert not at.exception, _errors(at)
    tok = at.session_state["bpe_model"] if "bpe_model" in at.session_state else None
    if tok is None:
        assert "No model trained yet" in _sidebar_text(at)
    else:
        assert f"{len(tok.merges):,} merges" in _sidebar_text(at)


@pytest.mark.parametrize("page_path", list(PAGES))
def test_every_page_runs(page_path):
    at = AppTest.from_file(APP_FILE, default_timeout=60).run()
    assert not at.exception, _errors(at)
    at.switch_page(page_path).run()
    assert not at.exception, _errors(at)


def test_sidebar_describes_a_trained_model():
    tok = train("banana bandana banana", Config(split="none"), merges=3)
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state["bpe_model"] = tok
    at.run()
    assert not at.exception, _errors(at)
    text = _sidebar_text(at)
    assert f"{len(tok.merges)} merges" in text, text
    assert f"vocabulary of {len(tok.vocab)} tokens" in text, text


@pytest.mark.browser
def test_browser_navigation(app_server, page, screenshot):
    open_app(page, app_server)
    labels = sidebar_nav_labels(page)
    for title in PAGES.values():
        assert title in labels, labels

    click_nav(page, "Merges")
    assert "merges" in page.url.lower()
    heading = page.locator('[data-testid="stMain"] h1').first
    assert heading.inner_text().strip() == "Merges"
    assert exception_texts(page) == []
    assert page.page_errors == []
    assert page.dialogs == []

    path = screenshot(page)
    assert path.exists() and path.stat().st_size > 0
