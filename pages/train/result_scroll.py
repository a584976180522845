"""After a press of Train, the result scrolled into view: at 1400x900 and on a phone the form fills the screen, and
the result drawn under it looked as if nothing had happened.

``scroll_to`` mounts an invisible component (Streamlit's components v2 run in the page's own document, with no
frame) whose constant script scrolls the element of a given key into view. It is mounted only on the run after a
press, so the page never jumps on its other runs; the key is passed as data, never as HTML or script.
"""

from __future__ import annotations

import streamlit as st

_JS = """
export default function ({data, parentElement}) {
  const target = parentElement.ownerDocument.querySelector(".st-key-" + CSS.escape(data.key));
  if (!target) return;
  target.style.scrollMarginTop = "4rem";  // clear of the app's header, which stays over the top of the page
  requestAnimationFrame(() => target.scrollIntoView({block: "start"}));
}
"""
_HTML = '<span class="bpe-scroll-to"></span>'
_CSS = ".stElementContainer:has(.bpe-scroll-to) { display: none; }"  # leaves no gap in the page

_scroller = st.components.v2.component("bpe_scroll_to", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)


def scroll_to(key: str, press: int) -> None:
    """Scroll the container of ``key`` into view once, for the press numbered ``press`` (a new number mounts the
    script again, so the same result is scrolled to after each press)."""
    _scroller(data={"key": key, "press": press}, key=f"bpe_scroll_to_{press}")
