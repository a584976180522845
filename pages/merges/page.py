"""Merges: watch BPE training happen, one merge at a time.

The page shows the session's model or a published tokenizer (``bpe_core.pretrained.PUBLISHED``).
Tabs, only the open one drawn: a step scrubber with the corpus as cut after that step, the pair-frequency
race (animated), the merge tree of any token, an overview of all merges and the winning count per step.
The tabs are drawn by ``tabs.py``; their figures come from ``views/``, cached in ``state.py``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.pretrained import load_pretrained
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.describe import model_size
from drawing.escape import markdown
from drawing.published import PRETRAINED_NOTES, PRETRAINED_TITLES, loading_message, source_labels
from pages.merges import state as merges_state
from pages.merges import tabs as merges_tabs
from pages.merges.views.labels import tie_break_rule
from session import model_io, share_link, state


def choose_tokenizer(where) -> tuple[AnyTokenizer, str]:
    """The tokenizer the page shows (chosen in ``where``) and what the page says of it (a published one's note, its
    size and tie-break rule)."""
    model = state.current_model()
    name = state.model_name(model)
    labels = {"model": source_labels(name or "Trained model", bool(name))["model"], **PRETRAINED_TITLES}
    source = where.selectbox(
        "Tokenizer",
        merges_state.TOKENIZERS,
        key=merges_state.SOURCE_KEY,
        format_func=labels.get,
        persist_state="session",
    )
    shown: AnyTokenizer
    if source == "model":
        shown = model
    else:
        with st.spinner(loading_message(source)):  # if slow only
            shown = load_pretrained(source)
    rule = markdown(tie_break_rule(shown.config.tie_break))
    about = f"{model_io.model_title(state.model_name(shown))}: {model_size(shown)}, tie-break: {rule}."
    return shown, f"{PRETRAINED_NOTES[source]}\n\n{about}" if source != "model" else about


def show_about(about: str, presenting: bool) -> None:
    """What the tokenizer is; presenting, with "Load a tokenizer", which the header then leaves out."""
    st.caption(about)
    if presenting:
        model_io.load_section("merges")


CHOICES = merges_state.choices(merges_state.TAB_LABELS)


def address_bar(tab_name: str) -> None:
    """The address bar and the Copy link button: the model's link and this page's choices."""
    share_link.show_address(*state.page_address(CHOICES, {merges_state.TAB_KEY: merges_state.TAB_LABELS[tab_name]}))


@st.fragment
def open_tab(tab_name: str, section, tok: AnyTokenizer) -> None:
    """One tab: a move of its widgets reruns only it (and its address), not the page."""
    # on top (presenting, under the section: the projector's first screen is the section's), filled once the section
    # has read and kept its widgets' values
    link_slot = st.container() if not state.presenting() else None
    section(tok)
    with link_slot or st.container():
        address_bar(tab_name)


# Before any widget: the address's choices on a first visit, then the open tab as it was on the last visit
ignored = merges_state.take_link(CHOICES, st.query_params.to_dict())
state.keep_choices(CHOICES)
presenting = state.presenting()
# presenting, the tokenizer beside the title and the rest of the header at the page's foot, so that a projector's
# first screen (853x480) shows the step view; else the title, Load a tokenizer, the tokenizer and what it is
title, pick = st.columns([1, 2], vertical_alignment="bottom") if presenting else [st.container()] * 2
title.title("Merges")
share_link.warn_ignored(ignored)
if not presenting:
    model_io.load_section("merges")
model, about = choose_tokenizer(pick)
if not presenting:
    show_about(about, presenting)
if not model.steps:
    st.info("This model has no merges yet. Train one with at least one merge on the Train page.")
    address_bar(merges_state.TABS[0][0])
else:
    tabs = st.tabs(list(merges_state.TAB_LABELS.values()), key=merges_state.TAB_KEY, on_change="rerun")
    for tab, name in zip(tabs, merges_state.TAB_LABELS):
        with tab:
            if tab.open:
                open_tab(name, merges_tabs.SECTIONS[name], model)
if presenting:
    show_about(about, presenting)
