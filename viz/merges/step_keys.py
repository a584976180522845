"""The ← and → keys step through the merges: an invisible component whose constant script presses the page's
"◀ Previous" and "Next ▶" buttons, unless the keys are typing in a box or moving a slider (an input too). The
labels are passed as data (never as HTML), so the page decides which buttons the keys press."""

from __future__ import annotations

import streamlit as st

# One listener per page (a rerun mounts the component again): a call first removes the listener an earlier left.
_JS = """
let stopEarlier;

export default function ({data, parentElement}) {
  const {previous, next} = data;
  const doc = parentElement.ownerDocument;
  stopEarlier?.();
  const busy = (el) => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el?.isContentEditable;
  const press = (label) => {
    const button = [...doc.querySelectorAll("button")].find((el) => el.innerText.trim() === label);
    button?.click();
  };
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || busy(event.target)) return;
    if (event.key === "ArrowLeft") press(previous);
    else if (event.key === "ArrowRight") press(next);
    else return;
    event.preventDefault();
  };
  doc.addEventListener("keydown", onKey);
  stopEarlier = () => doc.removeEventListener("keydown", onKey);
  return stopEarlier;
}
"""
_HTML = '<span class="bpe-step-keys"></span>'
_CSS = ".stElementContainer:has(.bpe-step-keys) { display: none; }"

_step_keys = st.components.v2.component("bpe_step_keys", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)


def step_with_arrow_keys(previous_label: str, next_label: str) -> None:
    """Let ← press the button labelled ``previous_label`` and → the one labelled ``next_label``."""
    _step_keys(data={"previous": previous_label, "next": next_label})
