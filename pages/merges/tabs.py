"""The Merges page's tabs, one function each (``TABS``, in order), each drawing the tokenizer shown."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import streamlit as st

from bpe_core import Step, Tokenizer
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import markdown
from drawing.notation import token_glyph_legend
from drawing.token_legend import NEWEST_TOKEN_OUTLINE
from pages.encode import state as encode_state
from pages.merges import state as merges_state
from pages.merges.step_keys import step_chart_with_arrow_keys, step_with_arrow_keys
from pages.merges.views.labels import tie_break_rule, token_pair, token_text
from pages.merges.views.overview import count_curve_caption, forest_caption
from pages.merges.views.race import DEFAULT_WINDOW, window_bounds
from pages.merges.views.search import matching_tokens, split_note_html, token_forms
from pages.merges.views.step import (
    corpus_lines,
    language_names,
    pair_languages_sentence,
    step_card_html,
    step_glyph_legend,
    step_lines_html,
)
from pages.merges.views.tree import collapsed_note, later_parts_note, tree_box_css, tree_figure
from session import model_io, state
from session.choices import address_params

MAX_LISTED_TOKENS = 5_000  # a model with more merged tokens is searched by text rather than listed whole
PREVIOUS, NEXT = "◀ Previous", "Next ▶"  # the step buttons, which ← and → press too
RACE_CHART = "merges_race_chart"  # the race chart's widget key: ← and → move its slider


def pair_race(tok: AnyTokenizer) -> None:
    presenting = state.presenting()
    if not presenting:  # presenting, the tab's name heads it
        st.subheader("Pair-frequency race")
    if not tok.has_counts:
        st.info(
            f"{model_io.model_title(state.model_name(tok))} has no training counts: a published tokenizer keeps the "
            "order of its merges, not the pair counts its training saw, so there is no race to show. Train a model on "
            "the Train page to watch the pairs compete."
        )
        return
    total = len(tok.steps)
    about = (
        f"Before each step BPE counts every adjacent pair and merges the most frequent one. Bars are the top "
        f"pairs by rank; the winner is red, pairs tied with it are striped amber, and the tie-break rule is "
        f"**{markdown(tie_break_rule(tok.config.tie_break))}**. Press ▶ Play, drag the slider under the chart or "
        f"press ← and →. The animation covers {DEFAULT_WINDOW} steps at a time; the count axis fits each step's "
        "top count unless you fix it."
    )
    if not presenting:
        st.caption(about)
    # presenting, the chart first and its settings under it: a projector's first screen shows the race and its
    # Play/Pause and slider together
    chart_slot = st.container() if presenting else None
    first_step, fixed_axis = _race_settings(total)
    first, last = window_bounds(total, first_step)
    with chart_slot or st.container():
        st.plotly_chart(merges_state.race_chart(tok, first_step, fixed_axis, presenting), key=RACE_CHART)
    step_chart_with_arrow_keys(RACE_CHART)
    _show_glyph_legend(tok, (part for step in tok.steps[first - 1 : last] for pair in step.top for part in pair[:2]))
    st.caption(f"Showing steps {first:,} to {last:,} of {total:,}.")
    if presenting:
        st.caption(about)
    winner = tok.steps[first - 1]  # the first step animated: the languages its winning pair came from
    pair = token_pair(winner.left, winner.right, tok.byte_level)
    _pair_languages_note(tok, first, f"Step {first:,}'s winner, {pair}. ")


def _race_settings(total: int) -> tuple[int, bool]:
    """The race's first step (centred on Step by step's on request) and whether its count axis stays fixed."""
    state.keep_in_range(merges_state.WINDOW_START_KEY, 1, total)
    start_col, button_col = st.columns([1, 2], vertical_alignment="bottom")
    first_step = start_col.number_input(
        "First step of the animation", 1, total, key=merges_state.WINDOW_START_KEY, persist_state="session"
    )
    button_col.button(
        "Centre on the step chosen in Step by step",
        on_click=merges_state.centre_race_on_step,
        args=(DEFAULT_WINDOW // 2,),
    )
    fixed_axis = st.toggle(
        "Fix the count axis at the highest count of the steps shown",
        key=merges_state.RACE_FIXED_AXIS_KEY,
        persist_state="session",
        help="Off, each step's bars fill the chart; on, one axis for all the steps animated shows the counts fall.",
    )
    return first_step, fixed_axis


def _pair_languages_note(tok: AnyTokenizer, step_number: int, lead: str = "") -> None:
    """Which languages step ``step_number``'s pair came from, after ``lead``, when the model was trained on a mix
    of the bundled languages (nothing else)."""
    step = tok.steps[step_number - 1]
    if (mix_source := merges_state.trained_on_mix()) and step.count:
        model = cast(Tokenizer, tok)  # trained on a mix: the session's own, never a published RankTokenizer
        shares = merges_state.pair_main_languages(model, step_number, mix_source)
        st.caption(markdown(lead + pair_languages_sentence(shares, language_names(), step.count)))


def step_scrubber(tok: AnyTokenizer) -> None:
    presenting = state.presenting()
    if not presenting:  # presenting, the tab's name heads it, and the buttons share the slider's row
        st.subheader("Step by step")
    total = len(tok.steps)
    state.keep_in_range(merges_state.STEP_KEY, 1, total)
    if total > 1:
        left, right = st.columns([2, 3], vertical_alignment="bottom") if presenting else [st.container()] * 2
        # above the slider or beside it: whole labels at any width
        buttons = left.container(horizontal=True, key=merges_state.STEP_CONTROLS_KEY)
        buttons.button(PREVIOUS, on_click=merges_state.move_step, args=(-1, total), key="merges_previous")
        buttons.button(NEXT, on_click=merges_state.move_step, args=(1, total), key="merges_next")
        step_number = right.slider("Step", 1, total, key=merges_state.STEP_KEY, persist_state="session")
    else:
        step_number = 1
    step = tok.steps[step_number - 1]
    st.html(step_card_html(step, tok.config.tie_break, tok.byte_level))
    _pair_languages_note(tok, step_number)
    _text_after_step(tok, step)
    if total > 1:  # after the text: a press brings its outlined boxes on screen once they are drawn
        step_with_arrow_keys(PREVIOUS, NEXT, merges_state.STEP_CONTROLS_KEY, merges_state.step_presses())


def _text_after_step(tok: AnyTokenizer, step: Step) -> None:
    """The training text (or the sample) cut by the merges up to ``step``, its new token outlined, and its key."""
    source = merges_state.training_text()
    if not source.strip():
        source = state.sample_text()
        st.caption("This model came without its training text, so here is the sample text instead.")
    try:
        lines = tuple(corpus_lines(source))
        encoded = merges_state.segmented_lines(tok, step.step, lines)
    except (ValueError, KeyError) as error:
        st.warning(f"Could not encode the text with this model: {markdown(str(error))}")
        _show_glyph_legend(tok, (step.left, step.right))
        return
    st.markdown(f"**The text after step {step.step:,}**: one box per token; {NEWEST_TOKEN_OUTLINE}.")
    shown = [tok.shown_text(line) for line in lines]  # the spans of a normalizing model point into its own text
    st.html(step_lines_html(tok, step, shown, encoded))
    # the card's glyphs and the boxes' (the greyed ␣ between them)
    if legend := step_glyph_legend(tok, step, shown, encoded):
        st.caption(markdown(legend))


def _show_glyph_legend(tok: AnyTokenizer, tokens: Iterable[str]) -> None:
    """What the glyphs in the tokens just shown stand for, when they hold any."""
    if legend := token_glyph_legend(tokens, tok.config):
        st.caption(markdown(legend))


def _split_note(tok: AnyTokenizer, typed: str) -> None:
    """How ``tok`` cuts a text that is not one of its tokens, with a link to Encode's "Why this split?"."""
    source = st.session_state.get(merges_state.SOURCE_KEY, "model")
    params, _ = address_params(
        encode_state.CHOICES,
        {encode_state.SOURCE_KEY: source, encode_state.TEXT_KEY: typed, encode_state.WHY_KEY: True},
    )
    model_link = state.model_about().link_params if source == "model" else {}
    shown = tok.shown_text(typed)
    title = tok.name or "the trained model"
    byte_level = tok.byte_level
    st.html(split_note_html(shown, tok.encode_with_spans(typed), title, byte_level, {**model_link, **params}))


def merge_tree(tok: AnyTokenizer) -> None:
    st.subheader("Merge tree")
    byte_level = tok.byte_level
    choices, default = merges_state.tree_choices(tok)
    searched = len(choices) > MAX_LISTED_TOKENS  # one search box: the text box, then a plain list of what it found
    label = "Token (type to search)"
    if searched:
        typed = st.text_input(
            "Find a token by the text it stands for",
            key=merges_state.TREE_SEARCH_KEY,
            live=True,
            max_chars=merges_state.MAX_TOKEN_CHARS,
            placeholder="type e.g. understanding",
        )
        # no search typed: the default, which a tokenizer with this many merged tokens has
        choices = matching_tokens(choices, typed, byte_level=byte_level) if typed else [cast(str, default)]
        if typed and not (choices and choices[0] in token_forms(typed, byte_level)):
            if not choices:
                st.info("No token of this tokenizer contains that text.")
            _split_note(tok, typed)
        if not choices:
            return
        default = choices[0]
        label = f"Token ({len(choices)} found)" if typed else "Token"
    merges_state.keep_tree_token(choices, default)
    token = st.selectbox(
        label,
        choices,
        format_func=lambda token: token_text(token, byte_level),
        key=merges_state.TREE_TOKEN_KEY,
        persist_state="session",
        filter_mode=None if searched else "fuzzy",
    )
    try:
        tree = tok.merge_tree(token)
    except KeyError as error:
        st.warning(f"No tree for that token: {markdown(str(error))}")
        return
    figure = tree_figure(tree, byte_level)
    st.caption(
        f"{len(tree.leaves())} base symbols, merged bottom-up; each box is a token, joined to the two parts it was "
        f"merged from. Hover a box for its step and count.{collapsed_note(figure.layout.meta['collapsed'])}"
        f"{later_parts_note(tree)}"
    )
    with st.container(key=merges_state.TREE_BOX_KEY):  # scrolls sideways on a screen narrower than the tree needs
        st.html(tree_box_css(figure.layout.meta["min_width"], merges_state.TREE_BOX_KEY, merges_state.TREE_CHART_KEY))
        st.plotly_chart(figure, width="content", key=merges_state.TREE_CHART_KEY)
    _show_glyph_legend(tok, tree.leaves())


def overview(tok: AnyTokenizer) -> None:
    forest, curve = merges_state.overview_charts(tok)
    st.subheader("All merges at a glance")
    st.caption(forest_caption(forest.layout.meta["shown"], forest.layout.meta["total"], tok.has_counts))
    st.plotly_chart(forest, key="merges_forest_chart")

    st.subheader("Winning count per step")
    if not tok.has_counts:
        st.info("The count curve needs training counts, which this model does not have. Train a model to see it.")
        return
    st.caption(count_curve_caption(curve.layout.meta["rising"]))
    st.plotly_chart(curve, key="merges_count_chart")


# Each tab's section, by the tab's name in the address (``state.TABS``), given the tokenizer shown
SECTIONS = {"steps": step_scrubber, "race": pair_race, "tree": merge_tree, "overview": overview}
