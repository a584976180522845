"""The ← and → keys step through the merges: an invisible component whose constant script either presses the page's
"◀ Previous" and "Next ▶" buttons (the Step by step view) or moves an animated plotly chart's slider one frame (the
pair race), unless the keys are typing in a box or moving a slider (an input too). The labels and the chart's widget
key are passed as data (never as HTML), so the page decides what the keys move."""

from __future__ import annotations

import streamlit as st

# One listener per page (a rerun mounts the component again): a call first removes the listener an earlier left.
# A chart steps by its slider's own animate call (frame name and options), so a key does what a click on the
# slider's next tick does; plotly is the one Streamlit's chart loaded (window.Plotly).
_JS = """
let stopEarlier;

export default function ({data, parentElement}) {
  const {previous, next, chart} = data;
  const doc = parentElement.ownerDocument;
  stopEarlier?.();
  const busy = (el) => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el?.isContentEditable;
  const press = (label) => {
    const button = [...doc.querySelectorAll("button")].find((el) => el.innerText.trim() === label);
    button?.click();
  };
  const moveChart = (by) => {
    const plot = doc.querySelector(`.st-key-${CSS.escape(chart)} .js-plotly-plot`);
    const slider = plot?.layout?.sliders?.[0];
    const plotly = doc.defaultView.Plotly;
    if (!slider?.steps?.length || !plotly) return;
    const to = Math.min(Math.max((slider.active ?? 0) + by, 0), slider.steps.length - 1);
    plotly.animate(plot, ...slider.steps[to].args).catch(() => {});  // rejected when a newer frame interrupts it
  };
  const step = (by) => (chart ? moveChart(by) : press(by < 0 ? previous : next));
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || busy(event.target)) return;
    if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "ArrowRight") step(1);
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


def step_chart_with_arrow_keys(chart_key: str) -> None:
    """Let ← and → move the slider of the animated plotly chart drawn with ``key=chart_key`` one frame."""
    _step_keys(data={"chart": chart_key})
