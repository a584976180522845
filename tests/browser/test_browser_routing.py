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
