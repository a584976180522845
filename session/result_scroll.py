"""A result scrolled into view after the press that made it: on a laptop (1400x900) and on a phone, what a press
changes was drawn under a form, a question or a row of controls that filled the screen, and the press looked as if
nothing had happened (Train's result, Learn's verdict, the class's reveal).

A page asks with ``ask_to_scroll(key)`` when the press comes (a button's branch or a widget's on_change), and calls
``scroll_if_asked(key)`` after drawing the container of that key. That mounts an invisible component (Streamlit's
components v2 run in the page's own document, with no frame) whose constant script scrolls the container into view.
It is mounted only on the run after a press, so the page never jumps on its other runs; the key is passed as data,
never as HTML or script.
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

_JS = """
export default function ({data, parentElement}) {
  const target = parentElement.ownerDocument.querySelector(".st-key-" + CSS.escape(data.key));
  if (!target) return;
  target.style.scrollMarginTop = "4rem";  // clear of the app's header, which stays over the top of the page
  target.style.scrollMarginBottom = "1rem";  // brought up from below: clear of the window's edge
  requestAnimationFrame(() => target.scrollIntoView({block: data.block}));
}
"""
_HTML = '<span class="bpe-scroll-to"></span>'
_CSS = ".stElementContainer:has(.bpe-scroll-to) { display: none; }"  # leaves no gap in the page

_scroller = st.components.v2.component("bpe_scroll_to", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)

_PRESSES_KEY = "bpe_scroll_presses"  # {container key: how many presses asked to scroll to it}
_ASKED_KEY = "bpe_scroll_asked"  # {container key: the press whose result is still to be scrolled to}


def ask_to_scroll(key: str) -> None:
    """A press whose result is drawn in the container ``key``: the run that draws it (this one, or the next when
    the press reruns the page) scrolls to it."""
    presses = st.session_state.setdefault(_PRESSES_KEY, {})
    presses[key] = presses.get(key, 0) + 1
    st.session_state.setdefault(_ASKED_KEY, {})[key] = presses[key]


def scroll_if_asked(key: str, block: Literal["start", "nearest"] = "start") -> None:
    """Scroll the container ``key`` into view once if a press asked for it: its top under the header (``start``),
    or by as little as brings it all on screen (``nearest``: what is above it, the question, stays in view if it
    can). A new press's number mounts the script again, so the same result is scrolled to after each press."""
    if press := st.session_state.get(_ASKED_KEY, {}).pop(key, 0):
        _scroller(data={"key": key, "block": block}, key=f"bpe_scroll_to_{key}_{press}")
