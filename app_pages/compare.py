"""Compare: what a bigger vocabulary buys, and what the pre-tokenizer changes, on your own text."""

from __future__ import annotations

import streamlit as st

from app_pages.sections import compare_tabs
from bpe_core import Tokenizer
from viz import escape, share_link, state
from viz.compare import setup
from viz.compare import state as compare_state
from viz.compare.data import ComparedSize, default_sizes
from viz.describe import describe_config, model_size
from viz.page_registry import COMPARE, TRAIN


def choose_sizes(column, tok: Tokenizer, fingerprint: str) -> list[ComparedSize]:
    """Two to four vocabulary sizes in ``column`` (a number box each, + and - step by a twentieth of the range),
    with the merges that reach them."""
    scale = compare_state.vocabulary_scale(tok, fingerprint)
    if not tok.merges:
        column.info("This model has no merges, so there is only one size: train one with merges.")
        column.page_link(TRAIN.path, label=f"Go to {TRAIN.title}", icon=TRAIN.icon)
        return [scale.reaching(scale.smallest)]
    state.start_widget(compare_state.SIZE_COUNT_KEY, 3)  # or as many as the address gave
    count = column.segmented_control(
        "Vocabulary sizes to compare",
        [2, 3, 4],
        required=True,
        key=compare_state.SIZE_COUNT_KEY,
        persist_state="session",
        help=setup.SIZES_HELP,
    )
    compare_state.prepare_size_widgets(fingerprint, [scale.after(k) for k in default_sizes(len(tok.merges), count)])
    row = column.container(horizontal=True, wrap=True)  # a box is cheaper to draw than a slider (~10 ms each)
    for index in range(count):
        row.number_input(
            f"Size {index + 1}",
            scale.smallest,
            scale.largest,
            step=scale.step,
            key=compare_state.size_key(index),
            width=setup.SIZE_BOX_WIDTH,
        )
    return [scale.reaching(size) for size in compare_state.remember_sizes(fingerprint)]


# -- page --------------------------------------------------------------------------------

st.title(COMPARE.title)
tok, corpus = state.current_model(), state.current_corpus()
fingerprint = state.fingerprint(tok)
tab_labels = {name: f":material/{icon}: {label}" for name, icon, label, _, _ in compare_tabs.TABS}  # by address name
ignored = compare_state.take_link(
    st.query_params.to_dict(), tab_labels, compare_state.vocabulary_scale(tok, fingerprint), fingerprint
)
st.caption(
    f"Session model: {escape.markdown(tok.name or 'trained here')}, {model_size(tok)}, "
    f"{escape.markdown(describe_config(tok.config, short=True))}."
)
link_slot = st.container()  # Copy link, filled once the page is drawn
share_link.warn_ignored(ignored)
top = st.container()  # filled once the tabs say which one is open: the sizes only beside the tabs that use them
tabs = st.tabs(list(tab_labels.values()), key=compare_state.TAB_KEY, on_change="rerun")
open_index = next(index for index, tab in enumerate(tabs) if tab.open)  # only the open tab is drawn
text_column, sizes_column = top.columns(2, gap="medium") if compare_tabs.TABS[open_index][3] else (top, None)
state.restore_text(compare_state.TEXT_KEY, setup.DEFAULT_TEXT)
text = text_column.text_area(
    "Your text",
    height=150,
    key=compare_state.TEXT_KEY,
    max_chars=state.TEXT_MAX_CHARS,
    on_change=state.share_text,
    args=(compare_state.TEXT_KEY,),
    help=setup.TEXT_HELP,
)
sizes = [] if sizes_column is None else choose_sizes(sizes_column, tok, fingerprint)
with tabs[open_index]:
    compare_tabs.TABS[open_index][4](compare_tabs.TabInputs(tok, fingerprint, corpus, text, sizes))
with link_slot:
    open_name = compare_tabs.TABS[open_index][0]
    share_link.show_address(*compare_state.address(open_name, fingerprint, text, setup.DEFAULT_TEXT))
