"""Smoke tests: the router and every page run without an exception, and the sidebar names the model."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from streamlit.testing.v1 import AppTest
from support.browser import click_nav, exception_texts, open_app, sidebar_nav_labels
from support.pages import ok, session_model
from support.paths import APP_FILE

from bpe_core import Config, train
from pages.start.views.first_screen import HEADING as START_HEADING
from session import state
from session.page_registry import PAGES, START


def sidebar_text(at: AppTest) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_the_router_opens_start_with_the_default_model_and_the_sidebar_names_it():
    at = ok(AppTest.from_file(APP_FILE, default_timeout=60).run())
    assert [title.value for title in at.title] == [START_HEADING]  # Start's heading: the site's name
    vocabulary = len(session_model(at).vocab)
    assert sidebar_text(at) == f"Current model: a vocabulary of {vocabulary:,} tokens, 2,000 of them made by merges"


@pytest.mark.parametrize("page", PAGES, ids=[page.title for page in PAGES])
def test_every_page_runs_under_its_title(page):
    at = ok(AppTest.from_file(APP_FILE, default_timeout=60).run())
    ok(at.switch_page(page.path).run())
    assert [title.value for title in at.title] == [START_HEADING if page is START else page.title]


def test_sidebar_describes_a_trained_model():
    # "banana bandana banana" as one piece: base symbols b a n ␣ d and <unk> (6), three merges (9)
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state[state.MODEL_KEY] = train("banana bandana banana", Config(split="none"), merges=3)
    ok(at.run())
    assert sidebar_text(at) == "Current model: a vocabulary of 9 tokens, 3 of them made by merges"


@pytest.mark.browser
def test_browser_navigation(app_server, page, screenshot):
    open_app(page, app_server)
    assert sidebar_nav_labels(page) == ["Start", "Train", "Merges", "Encode / Decode", "Compare", "Learn", "Class"]

    click_nav(page, "Merges")
    address = urlparse(page.url)
    assert address.path == "/Merges"
    assert parse_qs(address.query) == {"tab": ["steps"], "step": ["1"]}  # the default model needs no parameter
    heading = page.locator('[data-testid="stMain"] h1').first
    assert heading.inner_text().strip() == "Merges"
    assert exception_texts(page) == []
    assert page.page_errors == []
    assert page.dialogs == []
    screenshot(page)
