"""The ← and → keys step through the merges: an invisible component whose constant script either presses the page's
"◀ Previous" and "Next ▶" buttons (the Step by step view) or moves an animated plotly chart's slider one frame (the
pair race), unless the keys are typing in a box or moving a slider (an input too). The labels and the chart's widget
key are passed as data (never as HTML), so the page decides what the keys move.

After a press of Previous or Next (``press``, a new number each time) the same script brings the step's result on
screen when the first outlined box is off it: on a phone the card and the text under the buttons pushed the outlined
text a screen down. It scrolls the buttons' row (``controls``, a container's key) to the top, so the buttons stay under
the thumb and the card and the text follow under them, and only if that still leaves the box off screen, the box
itself."""

from __future__ import annotations

import streamlit as st

# One listener per page (a rerun mounts the component again): a call first removes the listener an earlier left.
# A chart steps by its slider's own animate call (frame name and options), so a key does what a click on the
# slider's next tick does; plotly is the one Streamlit's chart loaded (window.Plotly).
_JS = """
let stopEarlier;
let lastPress = 0;

// The first outlined box (the token the step made) on screen, once the run has drawn it
function showStep(doc, controls, tries = 20) {
  const box = doc.querySelector(".bpe-tv .tok.new");
  const row = doc.querySelector(`.st-key-${CSS.escape(controls)}`);
  if (!box || !row) {
    if (tries > 0) setTimeout(() => showStep(doc, controls, tries - 1), 100);
    return;
  }
  const onScreen = () => {
    const r = box.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= doc.defaultView.innerHeight;
  };
  if (onScreen()) return;
  row.style.scrollMarginTop = "4rem";  // under the app's header, which stays over the page's top
  row.scrollIntoView({block: "start"});
  if (!onScreen()) box.scrollIntoView({block: "nearest"});
}

export default function ({data, parentElement}) {
  const {previous, next, chart, controls, presses} = data;
  const doc = parentElement.ownerDocument;
  stopEarlier?.();
  if (presses && presses !== lastPress) requestAnimationFrame(() => showStep(doc, controls));
  lastPress = presses ?? lastPress;
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


def step_with_arrow_keys(previous_label: str, next_label: str, controls: str, press: int) -> None:
    """Let ← press the button labelled ``previous_label`` and → the one labelled ``next_label``; after press number
    ``press`` (0: none yet), bring the step's outlined text on screen under the container ``controls`` (call this
    after drawing the text)."""
    _step_keys(data={"previous": previous_label, "next": next_label, "controls": controls, "presses": press})


def step_chart_with_arrow_keys(chart_key: str) -> None:
    """Let ← and → move the slider of the animated plotly chart drawn with ``key=chart_key`` one frame."""
    _step_keys(data={"chart": chart_key})
