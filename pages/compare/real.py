"""Compare's Real tokenizers tab: the session's model beside the published tokenizers picked, each drawn as soon
as it is loaded, then their counts (yours at every size compared), a chart and the cost of four kinds of text."""

from __future__ import annotations

import streamlit as st

from bpe_core.pretrained import OPEN_MODELS, load_pretrained
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing import escape
from drawing.token_legend import render_legend
from pages.compare import state as compare_state
from pages.compare.parts import TabInputs, show_token_strip, size_select
from pages.compare.views.aligned_html import aligned_html, row_key, wide_screen_hides
from pages.compare.views.disagreement import disagreement_sentence, line_up, rows_of
from pages.compare.views.figures import tokenizers_figure
from pages.compare.views.real_tokenizers import (
    COST_TABLE_TITLE,
    DEFAULT_REAL,
    REAL_TOKENIZERS,
    cost_rows,
    cost_table_html,
    counts_table_html,
    fewest_tokens_sentence,
    lined_up,
    loading_line,
    size_title,
    tokenizer_rows,
)
from session import state

MINE = "Your model"  # the session's model among the published tokenizers


def real_tokenizers_section(inputs: TabInputs) -> None:
    tok, text, sizes = inputs.tok, inputs.text, inputs.sizes
    if not text:
        st.info(
            f"Type some text above to compare it with GPT-2, GPT-4, GPT-4o, gpt-oss and {len(OPEN_MODELS)} open models."
        )
        return
    size = size_select("Your model at", sizes, compare_state.REAL_SIZE_KEY)
    chosen = choose_published()
    mine = tok.prefix(size.merges)
    drawn = 1 + len(chosen)  # strips: yours and each published one
    strips = {MINE: show_token_strip(mine, text, MINE, drawn)}  # at once: the user's own needs no loading
    published: dict[str, AnyTokenizer] = {}
    for index, name in enumerate(chosen, start=1):  # each drawn as soon as it is loaded (GPT-2 and GPT-4 are quick)
        title = REAL_TOKENIZERS[name]
        # the seconds tick in the browser; a tokenizer already loaded is drawn before the spinner's delay shows it
        with st.spinner(loading_line(title, index, len(chosen)), show_time=True):
            published[name] = load_pretrained(name)
            tokens = compare_state.published_tokens(published[name], text)  # the first spells the vocabulary
        strips[title] = show_token_strip(published[name], text, title, drawn, tokens)
    models, encoders = lined_up(MINE, mine, published, compare_state.published_tokens)
    st.html(render_legend([token for tokens in strips.values() for token in tokens], text))
    where_they_disagree(text, {compare_state.MINE_NAME: mine, **published})
    # the counts: your model at every size compared ("500, 5000 and GPT-4" in one chart), then the published ones
    counts = {
        size_title(MINE, size.vocabulary): (len(compare_state.cached_ids(tok, size.merges, text)), size.vocabulary)
        for size in sizes
    }
    counts |= {title: (len(strips[title]), models[title].vocab_size) for title in models if title != MINE}
    rows = tokenizer_rows(counts, len(text))
    st.markdown(escape.markdown(fewest_tokens_sentence({title: len(tokens) for title, tokens in strips.items()})))
    st.plotly_chart(tokenizers_figure(rows), key=compare_state.REAL_CHART, config={"displayModeBar": False})
    st.html(counts_table_html(rows))  # static tables: a card per tokenizer on a phone, nothing to scroll
    st.markdown(COST_TABLE_TITLE)
    st.html(cost_table_html(cost_rows(encoders)))


def choose_published() -> list[str]:
    """The published tokenizers chosen, by name: one choice for this tab and Languages."""
    state.start_widget(compare_state.REAL_CHOICE_KEY, list(DEFAULT_REAL))  # or the address's choice
    return st.multiselect(
        "Published tokenizers",
        list(REAL_TOKENIZERS),
        format_func=REAL_TOKENIZERS.__getitem__,
        key=compare_state.REAL_CHOICE_KEY,
    )


MAX_LINED_UP_CHARS = 3_000  # the aligned view draws the text's first this-many characters


def where_they_disagree(text: str, shown: dict[str, AnyTokenizer]) -> None:
    """Two to four of the tokenizers shown (by name: the session's model is ``MINE_NAME``), lined up under the text
    once, the stretches they cut differently marked; on a phone, one of them under the text at a time."""
    st.markdown("**Where they cut differently**")
    titles = {name: MINE if name == compare_state.MINE_NAME else REAL_TOKENIZERS[name] for name in shown}
    if compare_state.LINE_UP_KEY in st.session_state:  # chosen before (or by the address): those still shown
        kept = [name for name in st.session_state[compare_state.LINE_UP_KEY] if name in shown]
    else:  # the published ones first: the session's model, splitting on spaces, differs almost everywhere
        published = [name for name in shown if name != compare_state.MINE_NAME]
        kept = published[:3] if len(published) >= 2 else list(shown)[:3]
    st.session_state[compare_state.LINE_UP_KEY] = kept
    chosen = st.multiselect(
        "Line up",
        list(shown),
        format_func=titles.__getitem__,
        max_selections=4,
        key=compare_state.LINE_UP_KEY,
        persist_state="session",
    )
    part = text[:MAX_LINED_UP_CHARS]
    rows, left_out = rows_of(part, {titles[name]: shown[name] for name in chosen})
    for title in left_out:
        st.caption(
            escape.markdown(
                f"{title} rewrites the text before cutting it (its normalizer) in a way that "
                "cannot be lined up with it: left out here."
            )
        )
    if len(rows) < 2:
        st.caption("Choose two to four of the tokenizers above to see where they cut this text differently.")
        return
    lined = list(rows)
    with st.container(key=compare_state.LINE_UP_PHONE_BOX):  # a phone shows one row under the text: this one
        st.html(wide_screen_hides(compare_state.LINE_UP_PHONE_BOX))
        state.default_unless_offered(compare_state.LINE_UP_PHONE_KEY, lined, lined[0])
        phone_title = st.segmented_control("Under the text", lined, key=compare_state.LINE_UP_PHONE_KEY)
    stretches = line_up(len(part), list(rows.values()))
    st.markdown(escape.markdown(disagreement_sentence(lined, stretches)))
    if len(part) < len(text):
        st.caption(f"The first {MAX_LINED_UP_CHARS:,} characters of your {len(text):,}.")
    phone_row = lined.index(phone_title) if phone_title in lined else 0
    st.html(row_key(lined) + aligned_html(part, lined, stretches, phone_row))
