"""Compare's Languages tab: the token premium of every bundled language (the same preamble in 58 languages) under
the published tokenizers chosen and the session's model at each size compared, and of the user's own text once
they name its language; a dot plot and a table sorted by one tokenizer (the one a phone shows), filtered by script."""

from __future__ import annotations

import streamlit as st

from bpe_core.languages import SOURCE, bundled_texts
from bpe_core.premium import token_count, token_counts
from bpe_core.pretrained import load_pretrained
from drawing import escape
from pages.compare import state as compare_state
from pages.compare.parts import TabInputs
from pages.compare.real import MINE, choose_published
from pages.compare.views.languages import (
    ALL_SCRIPTS,
    YOURS,
    costliest_sentence,
    dot_key_html,
    dot_styles,
    language_labels,
    premium_figure,
    premiums_by_tokenizer,
    scripts,
    shown_languages,
    tables_html,
)
from pages.compare.views.real_tokenizers import REAL_TOKENIZERS, loading_line, size_title
from session import state

ABOUT = (
    "The same text, the preamble of the Universal Declaration of Human Rights, in {count} languages: how many tokens "
    "does each take? Its **premium** is its tokens divided by the tokens of the language it is compared with: a "
    "premium of 3× means the same content costs three times as much (of a model's context, of its price per token)."
)
OWN_HELP = (
    "Name the language of your text above to add it as a row. Its premium is fair when it says what the preamble "
    "says: paste the preamble in a language missing here."
)


def languages_section(inputs: TabInputs) -> None:
    st.markdown(ABOUT.format(count=len(bundled_texts())))
    chosen = choose_published()
    own_sizes = {size_title(MINE, size.vocabulary): size.merges for size in inputs.sizes}
    titles = [*own_sizes, *(REAL_TOKENIZERS[name] for name in chosen)]
    texts, labels = own_row(inputs.text)
    choices = st.columns(3)
    state.default_unless_offered(compare_state.LANG_TOKENIZER_KEY, titles, titles[len(own_sizes) % len(titles)])
    sort_title = choices[0].selectbox(
        "Sorted by",
        titles,
        key=compare_state.LANG_TOKENIZER_KEY,
        help="A phone or a projector shows this tokenizer's column alone.",
    )
    reference = choices[1].selectbox(
        "Compared with",
        [code for code in labels if code != YOURS],
        format_func=lambda code: labels[code].name,
        key=compare_state.LANG_REFERENCE_KEY,
        persist_state="session",
    )
    script = choices[2].selectbox(
        "Script", [ALL_SCRIPTS, *scripts()], key=compare_state.LANG_SCRIPT_KEY, persist_state="session"
    )
    counts = model_counts(inputs, own_sizes, texts) | published_counts(chosen, texts)
    try:
        premiums = premiums_by_tokenizer(counts, texts, reference)
    except ValueError as error:
        st.error(escape.markdown(f"Your text cannot be a row: {error}."))
        return
    codes = shown_languages(premiums[sort_title], labels, script)
    st.markdown(escape.markdown(costliest_sentence(sort_title, premiums[sort_title], labels, reference)))
    styles = dot_styles(titles, list(own_sizes))
    st.html(dot_key_html(styles))
    figure = premium_figure(premiums, codes, labels, reference, sort_title, styles)
    st.plotly_chart(figure, key=compare_state.LANG_CHART, config={"displayModeBar": False})
    st.html(tables_html(premiums, sort_title, codes, labels))
    st.caption(escape.markdown(f"The texts: {SOURCE}."))


def own_row(text: str) -> tuple[dict[str, str], dict]:
    """The texts to measure and their labels: the bundled ones, and the user's text once they name its language."""
    state.start_widget(compare_state.LANG_OWN_KEY, "")  # or the address's name
    own_name = st.text_input(
        "Your text above as a row, in the language",
        key=compare_state.LANG_OWN_KEY,
        max_chars=compare_state.MAX_LANGUAGE_NAME,
        placeholder="e.g. Scots",
        help=OWN_HELP,
        persist_state="session",
    )
    texts = bundled_texts()
    if own_name.strip() and not text.strip():
        st.info("Type your text above to add it as a row.")
        return texts, language_labels()
    labels = language_labels(own_name)
    if YOURS in labels:
        texts[YOURS] = text
    return texts, labels


def model_counts(inputs: TabInputs, sizes: dict[str, int], texts: dict[str, str]) -> dict[str, dict[str, int]]:
    """The session's model's tokens of each text at each size (``sizes``: merges by title)."""
    counts = {}
    for title, merges in sizes.items():
        counts[title] = compare_state.model_language_counts(inputs.tok, merges)
        if YOURS in texts:
            counts[title] = counts[title] | {YOURS: token_count(inputs.tok.prefix(merges), texts[YOURS])}
    return counts


def published_counts(chosen: list[str], texts: dict[str, str]) -> dict[str, dict[str, int]]:
    """Each chosen published tokenizer's tokens of each text, a line saying which one loads (each loads once per
    server; the counts are kept with each)."""
    loading, counts = st.empty(), {}
    for index, name in enumerate(chosen, start=1):
        loading.caption(loading_line(REAL_TOKENIZERS[name], index, len(chosen)))
        counts[REAL_TOKENIZERS[name]] = token_counts(load_pretrained(name), texts)
    loading.empty()
    return counts
