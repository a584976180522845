"""The page router, and the way through it for a deep link on a freshly started server.

Streamlit reads a ``pages/`` folder next to the entry point the old way (each file a page, run on its own) until
``st.navigation`` has run once in the server's process. So the first address opened after a start, if it is a page's
(``/Compare``), runs that page without ``app.py``: no sidebar line, no shared set-up, the files' names in the menu.
Each page calls :func:`reroute_once` first: on that first run it switches Streamlit to the router and reruns, and
``app.py`` routes the same address.
"""

from __future__ import annotations

import streamlit as st

from viz.page_registry import PAGES

_router_has_run = False  # once per process, as Streamlit's own switch from the folder to st.navigation


def navigation(position: str = "sidebar"):
    """``st.navigation`` over the app's pages (the first is the default); from now on app.py routes every address."""
    global _router_has_run
    _router_has_run = True
    return st.navigation([st.Page(page.path, title=page.title, icon=page.icon, default=index == 0)
                          for index, page in enumerate(PAGES)], position=position)


def reroute_once() -> None:
    """At the top of each page: if the router has not run in this process, this run is the old way's; switch and
    rerun (at most once, so a page run on its own, as in a test, still runs after that)."""
    if not _router_has_run:
        navigation(position="hidden")
        st.rerun()
