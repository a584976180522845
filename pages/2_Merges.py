"""Merges: watch BPE training happen, one merge at a time.

Sections: the pair-frequency race (animated), a step scrubber with the corpus
as cut after that step, the merge tree of any token, an overview of all merges
and the winning count per step. Figures come from ``viz.merge_figures``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from viz import merge_figures as mf
from viz import model_io
from viz.state import current_corpus, current_model, sample_text

STEP_KEY = "merges_step"
WINDOW_START_KEY = "merges_window_start"
TREE_TOKEN_KEY = "merges_tree_token"


def model_key(tok: Tokenizer) -> int:
    """A cache key for the model's contents (stable within this server process)."""
    return hash((repr(tok.config), tuple(tok.merges), tuple(step.count for step in tok.steps), tok.name))


@st.cache_data(max_entries=16, show_spinner=False)
def race_chart(_tok: Tokenizer, key: int, first_step: int):
    return mf.race_figure(_tok.steps, first_step=first_step, tie_break=_tok.config.tie_break)


@st.cache_data(max_entries=64, show_spinner=False)
def segmented_lines(_tok: Tokenizer, key: int, step: int, lines: tuple[str, ...]):
    model = _tok.prefix(step)
    return [model.encode_with_spans(line) for line in lines]


@st.cache_data(max_entries=4, show_spinner=False)
def overview_charts(_tok: Tokenizer, key: int):
    return mf.forest_figure(_tok.steps), mf.count_curve_figure(_tok.steps)


@st.cache_data(max_entries=4, show_spinner=False)
def tree_choices(_tok: Tokenizer, key: int) -> tuple[list[str], str | None]:
    """Merged tokens in step order (each once) and the one to show first."""
    return list(dict.fromkeys(step.new_token for step in _tok.steps)), mf.default_tree_token(_tok.steps)


def init_in_range(key: str, low: int, high: int) -> None:
    """Start a step widget at ``low``, or keep its value inside the current model's range
    (the model may have changed since). Widgets then take their value from here."""
    st.session_state[key] = max(low, min(high, int(st.session_state.get(key, low))))


def move_step(delta: int, total: int) -> None:
    st.session_state[STEP_KEY] = max(1, min(total, st.session_state.get(STEP_KEY, 1) + delta))


def centre_window_on_step() -> None:
    st.session_state[WINDOW_START_KEY] = max(1, st.session_state.get(STEP_KEY, 1) - mf.DEFAULT_WINDOW // 2)


@st.fragment
def pair_race(tok: Tokenizer, key: int) -> None:
    st.subheader("Pair-frequency race")
    if not tok.has_counts:
        st.info(
            "This model has no training counts (it was loaded from a merge list, as GPT-2 published it), so "
            "there is no race to show. Train a model on the Train page to watch the pairs compete."
        )
        return
    total = len(tok.steps)
    st.caption(
        f"Before each step BPE counts every adjacent pair and merges the most frequent one. Bars are the top "
        f"pairs by rank; the winner is red, pairs tied with it are striped amber, and the tie-break rule is "
        f"**{mf.tie_break_rule(tok.config.tie_break)}**. Press ▶ Play or drag the slider under the chart. "
        f"The animation covers {mf.DEFAULT_WINDOW} steps at a time."
    )
    init_in_range(WINDOW_START_KEY, 1, total)
    start_col, button_col = st.columns([1, 2], vertical_alignment="bottom")
    first_step = start_col.number_input("First step of the animation", 1, total, key=WINDOW_START_KEY)
    button_col.button("Centre on the step chosen below", on_click=centre_window_on_step)
    first, last = mf.window_bounds(total, first_step)
    st.plotly_chart(race_chart(tok, key, first_step), key="merges_race_chart")
    st.caption(f"Showing steps {first:,} to {last:,} of {total:,}.")


@st.fragment
def step_scrubber(tok: Tokenizer, key: int, corpus: str) -> None:
    st.subheader("Step by step")
    total = len(tok.steps)
    init_in_range(STEP_KEY, 1, total)
    if total > 1:
        back_col, slider_col, next_col = st.columns([1.5, 7, 1.5], vertical_alignment="bottom")
        back_col.button("◀ Previous", on_click=move_step, args=(-1, total), key="merges_previous", width="stretch")
        step_number = slider_col.slider("Step", 1, total, key=STEP_KEY)
        next_col.button("Next ▶", on_click=move_step, args=(1, total), key="merges_next", width="stretch")
    else:
        step_number = 1
    step = tok.steps[step_number - 1]
    st.html(mf.step_card_html(step, tok.config.tie_break))

    source = corpus
    if not corpus.strip():
        source = sample_text()
        st.caption("This model came without its training text, so here is the sample text instead.")
    lines = tuple(mf.corpus_lines(source))
    try:
        encoded = segmented_lines(tok, key, step_number, lines)
    except (ValueError, KeyError) as error:
        st.warning(f"Could not encode the text with this model: {error}")
        return
    st.markdown(f"**The text after step {step_number:,}**: one box per token; the token made at this step has a red border.")
    st.html(mf.segmentation_html(encoded, highlight_id=step.new_id))


@st.fragment
def merge_tree(tok: Tokenizer, key: int) -> None:
    st.subheader("Merge tree")
    choices, default = tree_choices(tok, key)
    if st.session_state.get(TREE_TOKEN_KEY) not in set(choices):
        st.session_state[TREE_TOKEN_KEY] = default
    token = st.selectbox(
        "Token (type to search)",
        choices,
        format_func=mf.readable_symbol,
        key=TREE_TOKEN_KEY,
    )
    try:
        tree = tok.merge_tree(token)
    except KeyError as error:
        st.warning(f"No tree for that token: {error}")
        return
    figure = mf.tree_figure(tree)
    collapsed = figure.layout.meta["collapsed"]
    cut_note = (
        f" The tree is too big to draw whole: {'the violet box stands' if collapsed == 1 else f'the {collapsed} violet boxes stand'}"
        " for merged parts whose own trees you can pick above."
        if collapsed
        else ""
    )
    st.caption(
        f"{len(tree.leaves())} base symbols, merged bottom-up; each box is a token, joined to the two parts it was "
        f"merged from. Hover a box for its step and count.{cut_note}"
    )
    st.plotly_chart(figure, width="content", key="merges_tree_chart")


def overview(tok: Tokenizer, key: int) -> None:
    forest, curve = overview_charts(tok, key)
    st.subheader("All merges at a glance")
    shown, total = forest.layout.meta["shown"], forest.layout.meta["total"]
    note = "" if shown == total else f" Showing {shown:,} of {total:,} merges: the first ones and an even sample of the rest."
    colour = "Colour is the pair count (log scale)." if tok.has_counts else "No counts: all dots share one colour."
    st.caption(f"Each dot is a merge: when it happened and how long the new token is. {colour}{note}")
    st.plotly_chart(forest, key="merges_forest_chart")

    st.subheader("Winning count per step")
    if not tok.has_counts:
        st.info("The count curve needs training counts, which this model does not have. Train a model to see it.")
        return
    rising = curve.layout.meta["rising"]
    st.caption(
        "How often the merged pair occurred. "
        + (
            f"Triangles mark the {rising:,} steps where the count went up."
            if rising
            else "It never went up here: a pair containing the new token can occur at most as often as that token, "
            "so the top count can only stay level or fall."
        )
    )
    st.plotly_chart(curve, key="merges_count_chart")


st.title("Merges")
with st.expander("Load a tokenizer", icon=":material/upload_file:"):
    model_io.upload_tokenizer("merges")
    model_io.use_gpt2_button("merges")
model = current_model()
st.caption(
    f"{model_io.model_title(model)}: {len(model.merges):,} merges, vocabulary of {model.vocab_size:,} tokens, "
    f"tie-break: {mf.tie_break_rule(model.config.tie_break)}."
)
if not model.steps:
    st.info("This model has no merges yet. Train one with at least one merge on the Train page.")
else:
    current_key = model_key(model)
    pair_race(model, current_key)
    step_scrubber(model, current_key, current_corpus())
    merge_tree(model, current_key)
    overview(model, current_key)
