"""A page's address opened first on a freshly started server goes through app.py's router.

The pages live in folders under ``pages/`` (``pages/<page>/page.py``), never as a ``pages/*.py`` that Streamlit would
run on its own before ``st.navigation`` has run in the process: the first run is app.py's (the router's titles in the
menu, its sidebar).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support.browser import SIDEBAR, exception_texts, open_app, running_app, sidebar_nav_labels
from support.screens import PHONE, PROJECTOR, VIEWPORT

from pages.start.views.first_screen import HEADING as START_HEADING

pytestmark = pytest.mark.browser
PAGE_NOT_FOUND = "Page not found"  # Streamlit's dialog


def test_a_deep_link_on_a_fresh_server_is_routed(browser, page, tmp_path):
    with running_app(tmp_path / "server.log") as (base_url, _):
        open_app(page, base_url, "Encode")  # the first address this server is asked for
        assert page.url.rstrip("/").endswith("/Encode")
        assert sidebar_nav_labels(page) == [
            "Start",
            "Train",
            "Merges",
            "Encode / Decode",
            "Compare",
            "Learn",
            "Class",
        ]  # the router's titles
        assert page.locator("h1").all_inner_texts() == ["Encode / Decode"]
        sidebar = page.locator(SIDEBAR).inner_text()
        assert "BPE Explorer" in sidebar and "2,000 of them made by merges" in sidebar  # app.py drew the sidebar
        assert exception_texts(page) == []


def test_a_fresh_servers_first_address_is_never_page_not_found(browser, page, tmp_path):
    """Streamlit takes a ``pages/`` folder beside app.py for its first kind of multipage app until st.navigation
    has run in the process: unless deploy/start_app.py switches that off, the first session of a fresh server asking
    for /Class is told "Page not found" over the Class page."""
    with running_app(tmp_path / "server.log") as (base_url, _):
        open_app(page, base_url, "Class")  # the first address this server is asked for
        page.wait_for_timeout(1500)  # the modal, when sent, comes with the first run
        assert page.get_by_text(PAGE_NOT_FOUND).count() == 0
        assert page.locator("h1").all_inner_texts() == ["Class"]
        assert exception_texts(page) == []


@pytest.mark.parametrize("size", [VIEWPORT, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_an_address_in_any_letter_case_opens_its_page(browser, page, tmp_path, size):
    """/encode, /start (the default page, served at the root) and /COMPARE open their page with the address's query
    parameters, and the address bar then shows the page's own address; the first is the server's first session."""
    page.set_viewport_size(size)
    with running_app(tmp_path / "server.log") as (base_url, _):
        for typed, title, shown in [
            ("encode", "Encode / Decode", "/Encode"),
            ("start", START_HEADING, "/"),
            ("TRAIN", "Train", "/Train"),
            ("COMPARE?present=1", "Compare", "/Compare"),
        ]:
            tab = page.context.new_page()  # a new visitor's first run, as a typed address is
            tab.set_viewport_size(size)
            open_app(tab, base_url, typed)
            assert tab.locator("h1").all_inner_texts() == [title]
            assert urlsplit(tab.url).path == shown
            assert tab.get_by_text(PAGE_NOT_FOUND).count() == 0
            assert exception_texts(tab) == []
        assert "present=1" in tab.url  # the query parameters went along
        assert tab.locator(SIDEBAR).get_attribute("data-collapsed") == "true"


def test_an_address_no_page_has_is_still_not_found(app_server, page):
    open_app(page, app_server, "Nowhere")
    assert page.get_by_text(PAGE_NOT_FOUND).count() == 1
    assert page.locator("h1").all_inner_texts() == [START_HEADING]  # the default page, Start
