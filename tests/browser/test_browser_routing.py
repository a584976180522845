"""A page's address opened first on a freshly started server goes through app.py's router.

The pages live in folders under ``pages/`` (``pages/<page>/page.py``), never as a ``pages/*.py`` that Streamlit would
run on its own before ``st.navigation`` has run in the process: the first run is app.py's (the router's titles in the
menu, its sidebar).
"""

from __future__ import annotations

import pytest
from browser_helpers import SIDEBAR, exception_texts, open_app, running_app, sidebar_nav_labels

pytestmark = pytest.mark.browser


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
        assert "BPE Explorer" in sidebar and "Current model: 2,000 merges" in sidebar  # app.py drew the sidebar
        assert exception_texts(page) == []


def test_a_fresh_servers_first_address_is_never_page_not_found(browser, page, tmp_path):
    """Streamlit takes a ``pages/`` folder beside app.py for its first kind of multipage app until st.navigation
    has run in the process: unless deploy/start_app.py switches that off, the first session of a fresh server asking
    for /Class is told "Page not found" over the Class page."""
    with running_app(tmp_path / "server.log") as (base_url, _):
        open_app(page, base_url, "Class")  # the first address this server is asked for
        page.wait_for_timeout(1500)  # the modal, when sent, comes with the first run
        assert page.get_by_text("Page not found").count() == 0
        assert page.locator("h1").all_inner_texts() == ["Class"]
        assert exception_texts(page) == []
