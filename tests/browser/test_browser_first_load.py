"""A server's very first page load: the sidebar lists the app's pages, and never the files of pages/.

Until some session has run ``st.navigation``, Streamlit treats a ``pages/`` folder beside the entrypoint as a
legacy multipage app: on the first load after a start it listed ``app | Train | Merges | Encode | Compare`` for
a moment. The test starts its own server, so that its load is that first one.
"""

from __future__ import annotations

import pytest

from browser_helpers import running_app, wait_for_app
from viz.page_registry import PAGES

pytestmark = pytest.mark.browser

# Every menu the sidebar shows while the page loads (Streamlit's own list or the app's links), in order: a
# MutationObserver sees each change to the page, however briefly it lasts.
RECORD_MENUS_JS = """(() => {
  window.__menus = [];
  const read = () => Array.from(document.querySelectorAll(
      '[data-testid="stSidebarNav"] a, [data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]'))
    .map((link) => link.innerText.trim().split('\\n').pop().trim()).join(' | ');
  new MutationObserver(() => {
    const menu = read();
    if (menu && window.__menus[window.__menus.length - 1] !== menu) window.__menus.push(menu);
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""


def test_the_first_load_after_a_start_lists_only_the_apps_pages(tmp_path, page, screenshot):
    with running_app(tmp_path / "server.log") as (base_url, _):
        page.add_init_script(RECORD_MENUS_JS)
        page.goto(base_url, wait_until="domcontentloaded")
        wait_for_app(page)
        assert page.evaluate("window.__menus") == [" | ".join(page_info.title for page_info in PAGES)]
        assert page.page_errors == [] and page.dialogs == []
        screenshot(page)
