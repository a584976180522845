"""Merges: watch BPE training happen, one merge at a time.

The page shows the session's model or a published tokenizer (GPT-2, GPT-4, GPT-4o, six open models).
Tabs, only the open one drawn: a step scrubber with the corpus as cut after that step, the pair-frequency
race (animated), the merge tree of any token, an overview of all merges and the winning count per step.
Figures come from the ``viz.merge_*`` modules, cached in ``viz.state``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.pretrained import PRETRAINED, load_pretrained
from viz import model_io, share_link, state
from viz.escape import markdown
from viz.merges import state as merges_state
from viz.merges.labels import tie_break_rule
from viz.merges.overview import count_curve_caption, forest_caption
from viz.merges.race import DEFAULT_WINDOW, window_bounds
from viz.merges.search import matching_tokens
from viz.merges.step import corpus_lines, step_card_html, step_lines_html
from viz.merges.tree import collapsed_note, tree_figure
from viz.pipeline_view import LOAD_SECONDS, loading_message, seen_text
from viz.published import PRETRAINED_NOTES, PRETRAINED_TITLES, source_labels
from viz.readable import readable_symbol

MAX_LISTED_TOKENS = 5_000  # a model with more merged tokens is searched by text rather than listed whole


def choose_tokenizer() -> tuple[Tokenizer, tuple[str, int], str]:
    """The tokenizer the page shows, its cache key (see ``merges_state.merges_cache_key``) and its training text."""
    model = state.current_model()
    labels = {"model": source_labels(model.name or "Trained model", bool(model.name))["model"], **PRETRAINED_TITLES}
    source = st.selectbox("Tokenizer", ("model", *PRETRAINED), key=merges_state.SOURCE_KEY, format_func=labels.get)
    if source == "model":
        return model, merges_state.merges_cache_key(model), state.current_corpus()
    with st.spinner(loading_message(PRETRAINED_TITLES[source], LOAD_SECONDS.get(source, 1))):  # if slow only
        published = load_pretrained(source)
    st.caption(PRETRAINED_NOTES[source])
    return published, merges_state.published_cache_key(source), ""


def pair_race(tok: Tokenizer, key: tuple[str, int], _corpus: str) -> None:
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
        f"**{markdown(tie_break_rule(tok.config.tie_break))}**. Press ▶ Play or drag the slider under the chart. "
        f"The animation covers {DEFAULT_WINDOW} steps at a time."
    )
    state.keep_in_range(merges_state.WINDOW_START_KEY, 1, total)
    start_col, button_col = st.columns([1, 2], vertical_alignment="bottom")
    first_step = start_col.number_input("First step of the animation", 1, total, key=merges_state.WINDOW_START_KEY)
    button_col.button(
        "Centre on the step chosen in Step by step",
        on_click=merges_state.centre_race_on_step,
        args=(DEFAULT_WINDOW // 2,),
    )
    first, last = window_bounds(total, first_step)
    st.plotly_chart(merges_state.race_chart(tok, key, first_step), key="merges_race_chart")
    st.caption(f"Showing steps {first:,} to {last:,} of {total:,}.")


def step_scrubber(tok: Tokenizer, key: tuple[str, int], corpus: str) -> None:
    st.subheader("Step by step")
    total = len(tok.steps)
    state.keep_in_range(merges_state.STEP_KEY, 1, total)
    if total > 1:
        back_col, slider_col, next_col = st.columns([1.5, 7, 1.5], vertical_alignment="bottom")
        back_col.button(
            "◀ Previous", on_click=merges_state.move_step, args=(-1, total), key="merges_previous", width="stretch"
        )
        step_number = slider_col.slider("Step", 1, total, key=merges_state.STEP_KEY)
        next_col.button("Next ▶", on_click=merges_state.move_step, args=(1, total), key="merges_next", width="stretch")
    else:
        step_number = 1
    st.html(step_card_html(tok.steps[step_number - 1], tok.config.tie_break))

    source = corpus
    if not corpus.strip():
        source = state.sample_text()
        st.caption("This model came without its training text, so here is the sample text instead.")
    try:
        lines = tuple(corpus_lines(source))
        encoded = merges_state.segmented_lines(tok, key, step_number, lines)
    except (ValueError, KeyError) as error:
        st.warning(f"Could not encode the text with this model: {markdown(str(error))}")
        return
    st.markdown(
        f"**The text after step {step_number:,}**: one box per token; the token made at this step "
        "has a thick green outline."
    )
    shown = [seen_text(tok, line) for line in lines]  # the spans of a normalizing model point into its own text
    st.html(step_lines_html(tok, tok.steps[step_number - 1], shown, encoded))


def merge_tree(tok: Tokenizer, key: tuple[str, int], _corpus: str) -> None:
    st.subheader("Merge tree")
    choices, default = merges_state.tree_choices(tok, key)
    if len(choices) > MAX_LISTED_TOKENS:
        typed = st.text_input(
            "Find a token by the text it stands for",
            key=merges_state.TREE_SEARCH_KEY,
            live=True,
            placeholder="type e.g. understanding",
        )
        if typed:
            choices = matching_tokens(choices, typed, byte_level=tok.config.units == "bytes")
            if not choices:
                st.info("No token of this tokenizer contains that text.")
                return
            default = choices[0]
        else:
            choices = [default]
    merges_state.keep_tree_token(choices, default)
    token = st.selectbox(
        "Token (type to search)", choices, format_func=readable_symbol, key=merges_state.TREE_TOKEN_KEY
    )
    try:
        tree = tok.merge_tree(token)
    except KeyError as error:
        st.warning(f"No tree for that token: {markdown(str(error))}")
        return
    figure = tree_figure(tree)
    st.caption(
        f"{len(tree.leaves())} base symbols, merged bottom-up; each box is a token, joined to the two parts it was "
        f"merged from. Hover a box for its step and count.{collapsed_note(figure.layout.meta['collapsed'])}"
    )
    st.plotly_chart(figure, width="content", key="merges_tree_chart")


def overview(tok: Tokenizer, key: tuple[str, int], _corpus: str) -> None:
    forest, curve = merges_state.overview_charts(tok, key)
    st.subheader("All merges at a glance")
    st.caption(forest_caption(forest.layout.meta["shown"], forest.layout.meta["total"], tok.has_counts))
    st.plotly_chart(forest, key="merges_forest_chart")

    st.subheader("Winning count per step")
    if not tok.has_counts:
        st.info("The count curve needs training counts, which this model does not have. Train a model to see it.")
        return
    st.caption(count_curve_caption(curve.layout.meta["rising"]))
    st.plotly_chart(curve, key="merges_count_chart")


# The page's tabs, in order: (name in the address, material icon, label, the section drawn while it is open, given
# the tokenizer shown, its cache key and its training text); the first is open on a first visit
TABS = [
    ("steps", "linear_scale", "Step by step", step_scrubber),
    ("race", "leaderboard", "Pair race", pair_race),
    ("tree", "account_tree", "Merge tree", merge_tree),
    ("overview", "scatter_plot", "All merges", overview),
]
TAB_LABELS = {name: f":material/{icon}: {label}" for name, icon, label, _ in TABS}  # name in the address -> label


def address_bar(tab_name: str) -> None:
    """The address bar and the Copy link button: the model's link and this page's choices."""
    model_link, cannot_travel = share_link.model_params()
    share_link.show_address({**model_link, **merges_state.address(tab_name)}, cannot_travel)


@st.fragment
def open_tab(tab_name: str, section, tok: Tokenizer, key: tuple[str, int], corpus: str) -> None:
    """One tab: a move of its widgets reruns only it (and its address), not the page."""
    link_slot = st.container()  # on top, filled once the section has read and kept its widgets' values
    section(tok, key, corpus)
    with link_slot:
        address_bar(tab_name)


# Before any widget: a closed tab's widgets are not drawn, so their values are kept for them
state.keep_choices(merges_state.KEPT)
ignored = merges_state.take_link(st.query_params.to_dict(), TAB_LABELS, ("model", *PRETRAINED))
st.title("Merges")
if ignored:
    st.warning(markdown(f"Ignored in the address: {'; '.join(ignored)}. The page's defaults are used instead."))
model_io.load_section("merges")
model, current_key, corpus = choose_tokenizer()
st.caption(
    f"{model_io.model_title(model)}: {len(model.merges):,} merges, vocabulary of {model.vocab_size:,} tokens, "
    f"tie-break: {markdown(tie_break_rule(model.config.tie_break))}."
)
if not model.steps:
    st.info("This model has no merges yet. Train one with at least one merge on the Train page.")
    address_bar(TABS[0][0])
else:
    tabs = st.tabs(list(TAB_LABELS.values()), key=merges_state.TAB_KEY, on_change="rerun")
    for tab, (name, _, _, section) in zip(tabs, TABS):
        with tab:
            if tab.open:
                open_tab(name, section, model, current_key, corpus)
