"""Compare: what a bigger vocabulary buys, and what the pre-tokenizer changes, on your own text."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.trace import STOP_MERGES, STOP_PREFIX, STOP_VOCAB_SIZE
from drawing import escape
from drawing.describe import describe_config, model_size
from pages.compare import state as compare_state
from pages.compare import tabs as compare_tabs
from pages.compare.parts import TabInputs
from pages.compare.views import setup
from pages.compare.views.data import ComparedSize, default_sizes
from pages.train import training
from session import result_scroll, share_link, state
from session.model_about import UPLOAD
from session.page_registry import COMPARE, TRAIN
from session.training_settings import MAX_SIZE, TrainSettings

SIZE_STOPS = (STOP_MERGES, STOP_VOCAB_SIZE, STOP_PREFIX)  # a model stopped by its size can be trained further
RAN_OUT_KEY = "bpe_compare_ran_out"  # the corpus ran out of pairs below a size asked: said once, after the rerun


def extendable(tok: Tokenizer) -> TrainSettings | None:
    """The settings that trained the session's model further, if it can be: trained here on a corpus the session
    has (not files, not a loaded tokenizer) and stopped by its size, not because the corpus ran out of pairs."""
    about = state.model_about()
    trained_here = about.settings is not None and about.corpus_source != UPLOAD
    if not trained_here or not state.current_corpus() or tok.stop_reason not in SIZE_STOPS:
        return None
    return about.settings


def train_further(column, tok: Tokenizer, settings: TrainSettings, sizes: list[int]) -> None:
    """Train the session's model up to the largest size asked, on the same corpus and settings, and keep the
    sizes for it: its first k merges are those of the smaller model, so every smaller size compares the same."""
    wanted = replace(settings, stop_by="vocab_size", vocab_size=max(sizes))
    corpus = state.current_corpus()
    with column:
        if training.train_and_keep(state.model_about().corpus_source, wanted, wanted.to_config(), corpus, corpus):
            model = state.current_model()
            reached = len(model.vocab)
            compare_state.keep_sizes(model, [min(size, reached) for size in sizes])
            if reached < max(sizes):
                st.session_state[RAN_OUT_KEY] = setup.ran_out(reached, len(model.merges))
            st.rerun()


def choose_sizes(column, tok: Tokenizer) -> list[ComparedSize]:
    """Two to four vocabulary sizes in ``column`` (a number box each, + and - step by a twentieth of the range),
    with the merges that reach them; a size beyond the model trains it further."""
    scale = compare_state.vocabulary_scale(tok)
    settings = extendable(tok)
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
        on_change=result_scroll.ask_to_scroll,
        args=(compare_state.TOKENS_AT_SIZES_KEY,),
    )
    compare_state.prepare_size_widgets(tok, [scale.after(k) for k in default_sizes(len(tok.merges), count)])
    row = column.container(horizontal=True, wrap=True)  # a box is cheaper to draw than a slider (~10 ms each)
    largest = MAX_SIZE if settings else scale.largest
    for index in range(count):
        state.keep_in_range(compare_state.size_key(index), scale.smallest, largest)
        row.number_input(
            f"Size {index + 1}",
            scale.smallest,
            largest,
            step=scale.step,
            key=compare_state.size_key(index),
            width=setup.SIZE_BOX_WIDTH,
            on_change=result_scroll.ask_to_scroll,
            args=(compare_state.TOKENS_AT_SIZES_KEY,),
        )
    column.caption(setup.size_note(scale.largest, settings is not None))
    if ran_out := st.session_state.pop(RAN_OUT_KEY, None):
        column.info(ran_out)
    sizes = compare_state.remember_sizes(tok)
    if settings is not None and max(sizes) > scale.largest:
        train_further(column, tok, settings, sizes)
    return [scale.reaching(size) for size in sizes]


def show_tokens_at_sizes(column, tok: Tokenizer, text: str, sizes: list[ComparedSize]) -> None:
    """The text's tokens at each size, under the size boxes: choosing a size shows its result where it was chosen,
    brought on screen if it fell under a phone's edge."""
    try:
        counts = [(size.vocabulary, len(compare_state.cached_ids(tok, size.merges, text))) for size in sizes]
    except ValueError:  # a text this model cannot encode: the open tab says why
        return
    column.container(key=compare_state.TOKENS_AT_SIZES_KEY).markdown(setup.tokens_at_sizes(counts))


# -- page --------------------------------------------------------------------------------

st.title(COMPARE.title)
tok, corpus = state.current_model(), state.current_corpus()
scale = compare_state.vocabulary_scale(tok)
choices = compare_state.choices(compare_tabs.TAB_LABELS, (scale.smallest, scale.largest))
# Before any widget: the address's choices on a first visit, then the open tab as it was on the last visit
ignored = compare_state.take_link(choices, st.query_params.to_dict(), tok)
state.keep_choices(choices)
st.caption(
    f"Session model: {escape.markdown(tok.name or 'trained here')}, {model_size(tok)}, "
    f"{escape.markdown(describe_config(tok.config, short=True))}."
)
link_slot = st.container()  # Copy link, filled once the page is drawn
share_link.warn_ignored(ignored)
top = st.container()  # filled once the tabs say which one is open: the sizes only beside the tabs that use them
st.html(setup.TABS_CSS.format(key=compare_state.TAB_KEY))
tabs = st.tabs(list(compare_tabs.TAB_LABELS.values()), key=compare_state.TAB_KEY, on_change="rerun")
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
sizes = [] if sizes_column is None else choose_sizes(sizes_column, tok)
if sizes and text:
    show_tokens_at_sizes(sizes_column, tok, text, sizes)
result_scroll.scroll_if_asked(compare_state.TOKENS_AT_SIZES_KEY, block="nearest")  # after a size's change
with tabs[open_index]:
    compare_tabs.TABS[open_index][4](TabInputs(tok, corpus, text, sizes))
with link_slot:
    open_label = list(compare_tabs.TAB_LABELS.values())[open_index]
    share_link.show_address(*compare_state.address(choices, open_label, tok))
