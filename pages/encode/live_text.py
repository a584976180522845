"""A text box that updates the page as the user types, not only on blur or Ctrl+Enter.

``st.text_area`` sends its text to the script only when it loses focus or on Ctrl+Enter (it has no ``live=``
as ``st.text_input`` has). ``commit_while_typing`` mounts an invisible component beside it whose constant
script waits for a pause in the typing and then presses Ctrl+Enter for the user, so the box keeps its focus,
caret and the characters typed while the page reruns. The box is found by its label, passed as data (never as
HTML). Text longer than ``LIVE_MAX_CHARS`` keeps the box's own commit-on-blur/Ctrl+Enter, and a caption says so.
"""

from __future__ import annotations

import streamlit as st

LIVE_MAX_CHARS = 5_000  # longer text waits for Ctrl+Enter or a click outside the box
PAUSE_MS = 300  # this long without a keystroke sends the text

# One listener per label on the whole document (a box can be redrawn); a call for a label first removes the
# listener an earlier call left, since Streamlit may run this function again on a rerun without cleaning up.
_JS = """
const listeners = new Map();

export default function ({data, parentElement}) {
  const {label, limit, pause} = data;
  const doc = parentElement.ownerDocument;
  listeners.get(label)?.();
  let timer;
  const isBox = (el) => el instanceof HTMLTextAreaElement && el.getAttribute("aria-label") === label;
  const commit = (box) => {
    if (box.isConnected && box.value.length <= limit) {
      box.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", code: "Enter", ctrlKey: true, bubbles: true}));
    }
  };
  const onInput = (event) => {
    if (!isBox(event.target) || event.isComposing) return;  // an IME's compositionend sends the finished text
    clearTimeout(timer);
    timer = setTimeout(commit, pause, event.target);
  };
  doc.addEventListener("input", onInput, true);
  doc.addEventListener("compositionend", onInput, true);
  const stop = () => {
    clearTimeout(timer);
    doc.removeEventListener("input", onInput, true);
    doc.removeEventListener("compositionend", onInput, true);
    if (listeners.get(label) === stop) listeners.delete(label);
  };
  listeners.set(label, stop);
  return stop;
}
"""

# The component shows nothing: its element is hidden so that it leaves no gap in the page either.
_HTML = '<span class="bpe-live-text"></span>'
_CSS = ".stElementContainer:has(.bpe-live-text) { display: none; }"

_live_commit = st.components.v2.component("bpe_live_text", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)


def long_text_note(text: str) -> str:
    """What to say under a box holding ``text``: nothing, unless it is too long to follow the typing.

    >>> long_text_note("Hello")
    ''
    >>> long_text_note("x" * 5_001)
    'Text over 5,000 characters updates when you press Ctrl+Enter or click outside the box.'
    """
    if len(text) <= LIVE_MAX_CHARS:
        return ""
    return f"Text over {LIVE_MAX_CHARS:,} characters updates when you press Ctrl+Enter or click outside the box."


def commit_while_typing(label: str, text: str) -> None:
    """Make the text area labelled ``label`` (now holding ``text``) send its text after each pause in typing."""
    _live_commit(data={"label": label, "limit": LIVE_MAX_CHARS, "pause": PAUSE_MS})
    if note := long_text_note(text):
        st.caption(note)


def load_early() -> None:
    """Mount the component for no box (an empty label matches none), so the browser has its code before the
    first page that types."""
    commit_while_typing("", "")
