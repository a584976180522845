"""Compare's Real tokenizers tab: the session's model beside the published tokenizers picked, each drawn as soon
as it is loaded, then their counts (yours at every size compared), a chart and the cost of four kinds of text."""

from __future__ import annotations

import streamlit as st

from app_pages.sections.compare_parts import TabInputs, show_token_strip, size_select
from bpe_core.pretrained import OPEN_MODELS, load_pretrained
from viz import escape, state
from viz.compare import state as compare_state
from viz.compare.figures import tokenizers_figure
from viz.compare.real_tokenizers import (
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
from viz.token_legend import render_legend

MINE = "Your model"  # the session's model among the published tokenizers


def real_tokenizers_section(inputs: TabInputs) -> None:
    tok, text, sizes = inputs.tok, inputs.text, inputs.sizes
    if not text:
        st.info(
            f"Type some text above to compare it with GPT-2, GPT-4, GPT-4o, gpt-oss and {len(OPEN_MODELS)} open models."
        )
        return
    size = size_select("Your model at", sizes, compare_state.REAL_SIZE_KEY)
    state.start_widget(compare_state.REAL_CHOICE_KEY, list(DEFAULT_REAL))  # or the address's choice
    chosen = st.multiselect(
        "Published tokenizers",
        list(REAL_TOKENIZERS),
        format_func=REAL_TOKENIZERS.get,
        key=compare_state.REAL_CHOICE_KEY,
    )
    mine = tok.prefix(size.merges)
    strips = {MINE: show_token_strip(mine, text, MINE)}  # at once: the user's own needs no loading
    loading, published = st.empty(), {}
    for index, name in enumerate(chosen, start=1):  # each drawn as soon as it is loaded (GPT-2 and GPT-4 are quick)
        title = REAL_TOKENIZERS[name]
        loading.caption(loading_line(title, index, len(chosen)))
        published[name] = load_pretrained(name)
        strips[title] = show_token_strip(
            published[name], text, title, compare_state.published_tokens(published[name], name, text)
        )
    loading.empty()
    models, encoders = lined_up(MINE, mine, published, compare_state.published_tokens)
    st.html(render_legend([token for tokens in strips.values() for token in tokens], text))
    # the counts: your model at every size compared ("500, 5000 and GPT-4" in one chart), then the published ones
    counts = {
        size_title(MINE, size.vocabulary): (
            len(compare_state.cached_ids(tok, inputs.fingerprint, size.merges, text)),
            size.vocabulary,
        )
        for size in sizes
    }
    counts |= {title: (len(strips[title]), models[title].vocab_size) for title in models if title != MINE}
    rows = tokenizer_rows(counts, len(text))
    st.markdown(escape.markdown(fewest_tokens_sentence({title: len(tokens) for title, tokens in strips.items()})))
    st.plotly_chart(tokenizers_figure(rows), key=compare_state.REAL_CHART, config={"displayModeBar": False})
    st.html(counts_table_html(rows))  # static tables: a card per tokenizer on a phone, nothing to scroll
    st.markdown(COST_TABLE_TITLE)
    st.html(cost_table_html(cost_rows(encoders)))
