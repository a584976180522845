"""The Compare page's own session-state keys and caches, with small functions to use them.

``session.state`` owns everything the pages share (the model, the text typed on Encode and Compare, the way a widget is
kept while not drawn); this module owns what only Compare reads. The size control is drawn only beside the tabs that
use it, and Streamlit forgets the values of widgets not drawn in a run: the chosen sizes are kept in a state key for
their model (``SIZES_KEY``, ``SIZES_MODEL_KEY``) and given back to their widgets when these are drawn again, and
their count is a widget Streamlit keeps for the session (``persist_state``).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from bpe_core import Config, Token, Tokenizer, train
from bpe_core.languages import ENGLISH, bundled_languages, bundled_texts
from bpe_core.premium import token_counts
from bpe_core.rank_tokenizer import AnyTokenizer
from pages.compare.views.curves import compression_html
from pages.compare.views.data import ComparedSize, VocabularyScale, tokens_by_merge_count
from pages.compare.views.languages import ALL_SCRIPTS, scripts
from pages.compare.views.real_tokenizers import DEFAULT_REAL, REAL_TOKENIZERS
from pages.compare.views.setup import DEFAULT_TEXT
from session import state
from session.addresses import MAX_LINK_TEXT, TEXT_PARAM
from session.choices import Choice, Names, OneOf, Text, WholeNumbers
from session.model_key import MODEL_HASH, model_key

TEXT_KEY, TAB_KEY = "compare_text", "compare_tab"  # the text every tab uses, the open tab
SIZE_COUNT_KEY = "compare_size_count"  # how many sizes are compared (a widget Streamlit keeps: persist_state)
SIZE_COUNTS = range(2, 5)  # two to four sizes are compared
SIZES_KEY, SIZES_MODEL_KEY = "bpe_compare_sizes", "bpe_compare_sizes_model"  # the vocabulary sizes chosen last,
# and the key of the model they were chosen for (session.model_key)
TOKENS_AT_SIZES_KEY = "compare_tokens_at_sizes"  # the line of the text's tokens at each size, scrolled to on a change
# The tabs' own widgets: the two configurations Pre-tokenizers trains and how many merges each; the size set
# against the published tokenizers and which of them are shown; the size and text whose vocabulary usage is shown
PRETOK_PRESET_KEY, PRETOK_MERGES_KEY = "compare_pretok_preset", "compare_pretok_merges"
REAL_SIZE_KEY, REAL_CHOICE_KEY = "compare_real_size", "compare_real_choice"
USAGE_SIZE_KEY, USAGE_SOURCE_KEY = "compare_usage_size", "compare_usage_source"
USAGE_CHART, REAL_CHART = "compare_usage", "compare_real"
# Where they cut differently: the tokenizers lined up (the session's model is "model"), and the one under the text
# on a phone
LINE_UP_KEY, LINE_UP_PHONE_KEY = "compare_line_up", "compare_line_up_phone"
LINE_UP_PHONE_BOX = "compare_line_up_phone_box"  # the phone's choice, hidden on a wider screen
MINE_NAME = "model"
DEFAULT_LINE_UP = list(DEFAULT_REAL[:3])  # GPT-2, GPT-4 and GPT-4o: they disagree where it teaches something
# Languages: the language the others are measured against, the script shown, the language the user's text is in
# (none: it is not a row), the tokenizer the languages are sorted by (shown alone on a phone), and the dot plot
LANG_REFERENCE_KEY, LANG_SCRIPT_KEY, LANG_OWN_KEY = "compare_lang_reference", "compare_lang_script", "compare_lang_own"
LANG_TOKENIZER_KEY, LANG_CHART = "compare_lang_tokenizer", "compare_languages"
MAX_LANGUAGE_NAME = 60  # characters of the user's name for their text's language


def choices(tab_labels: Mapping[str, str], size_range: tuple[int, int]) -> tuple[Choice, ...]:
    """The page's choices, in the order its address gives them; ``tab_labels``: its tabs' labels by their names in
    the address (``pages/compare/tabs.py``); ``size_range``: the model's smallest and largest
    vocabulary. The sizes are kept for their model (``keep_sizes``)."""
    return (
        Choice(TAB_KEY, param="tab", kind=OneOf(tab_labels), kept=True),
        Choice(SIZES_KEY, param="sizes", kind=WholeNumbers(*size_range, SIZE_COUNTS)),
        Choice(TEXT_KEY, DEFAULT_TEXT, TEXT_PARAM, Text(MAX_LINK_TEXT)),
        Choice(REAL_CHOICE_KEY, list(DEFAULT_REAL), "real", Names(tuple(REAL_TOKENIZERS))),
        Choice(LINE_UP_KEY, DEFAULT_LINE_UP, "line", Names((MINE_NAME, *REAL_TOKENIZERS))),
        Choice(LANG_REFERENCE_KEY, ENGLISH, "ref", OneOf(tuple(language.code for language in bundled_languages()))),
        Choice(LANG_SCRIPT_KEY, ALL_SCRIPTS, "script", OneOf((ALL_SCRIPTS, *scripts()))),
        Choice(LANG_OWN_KEY, "", "own", Text(MAX_LANGUAGE_NAME)),
    )


def size_key(index: int) -> str:
    """The widget key of size ``index``."""
    return f"compare_size_{index}"


def custom_key(setting: str, side: str) -> str:
    """The widget key of one setting of custom configuration ``side`` (A or B)."""
    return f"compare_custom_{setting}_{side}"


def prepare_size_widgets(model: Tokenizer, defaults: list[int]) -> None:
    """Start each size's widget at the size chosen before for ``model``, else at ``defaults``."""
    saved_for, saved = st.session_state.get(SIZES_MODEL_KEY), st.session_state.get(SIZES_KEY, [])
    same_model = saved_for == model_key(model)
    for index, default in enumerate(defaults):
        if not same_model or size_key(index) not in st.session_state:
            start = saved[index] if same_model and index < len(saved) else default
            st.session_state[size_key(index)] = start


def keep_sizes(model: Tokenizer, sizes: list[int]) -> None:
    """The sizes chosen, for ``model`` (a model just trained further keeps them)."""
    st.session_state.update({SIZES_MODEL_KEY: model_key(model), SIZES_KEY: sizes})
    for index in range(len(sizes)):
        st.session_state.pop(size_key(index), None)  # prepare_size_widgets starts them at the kept sizes


def remember_sizes(model: Tokenizer) -> list[int]:
    """The vocabulary sizes the size boxes hold now, kept for ``model`` across tabs and page switches."""
    sizes = [st.session_state[size_key(index)] for index in range(st.session_state[SIZE_COUNT_KEY])]
    st.session_state.update({SIZES_MODEL_KEY: model_key(model), SIZES_KEY: sizes})
    return sizes


# The work on the session's model (or a published one), cached per model (``session.model_key``)
@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs=MODEL_HASH)
def vocabulary_scale(tok: Tokenizer) -> VocabularyScale:
    """``tok``'s sizes as vocabularies, built once per model (a loaded model's has 50,000 merges or more)."""
    return VocabularyScale(tok)


@st.cache_data(max_entries=16, show_spinner="Counting tokens for every vocabulary size...", hash_funcs=MODEL_HASH)
def cached_curve(tok: Tokenizer, text: str) -> list[int]:
    return tokens_by_merge_count(tok, text)


@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs=MODEL_HASH)
def curves_html(tok: Tokenizer, texts: tuple[tuple[str, str], ...], sizes: tuple[ComparedSize, ...]) -> str:
    """The curves of ``texts`` ((name, text) pairs) with ``sizes`` marked, as HTML built once for all sessions."""
    curves = {name: (text, cached_curve(tok, text)) for name, text in texts}
    return compression_html(curves, vocabulary_scale(tok).after, [size.merges for size in sizes])


@st.cache_resource(max_entries=8, show_spinner="Training...")
def trained_model(corpus: str, config: Config, merges: int) -> Tokenizer:
    """A training of ``merges`` merges, shared by all sessions (the 8 most recent; a Config is keyed by its fields),
    run as a job."""
    return state.as_job(train, corpus, config, merges=merges)


@st.cache_data(max_entries=32, show_spinner="Counting each language's tokens...", hash_funcs=MODEL_HASH)
def model_language_counts(tok: Tokenizer, merges: int) -> dict[str, int]:
    """The tokens of each bundled text under the session's model cut to ``merges`` merges, by language code."""
    return token_counts(tok.prefix(merges), bundled_texts())


@st.cache_data(max_entries=8, show_spinner="Encoding...", hash_funcs=MODEL_HASH)
def cached_ids(tok: Tokenizer, merges: int, text: str) -> list[int]:
    return tok.prefix(merges).encode(text)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=MODEL_HASH)
def published_tokens(tok: AnyTokenizer, text: str) -> list[Token]:
    """``text`` as the published tokenizer ``tok`` cuts it, with spans: shared by all sessions."""
    return tok.encode_with_spans(text)


def take_link(page_choices: tuple[Choice, ...], query_params: dict, model: Tokenizer) -> list[str]:
    """On the session's first Compare run, put what its address asks into the widgets before they are drawn: the
    sizes for ``model``; returns the parameters ignored."""
    values, ignored = state.take_address(page_choices, query_params, "compare")
    if SIZES_KEY in values:
        st.session_state[SIZE_COUNT_KEY] = len(values[SIZES_KEY])
        keep_sizes(model, values[SIZES_KEY])
    return ignored


def address(page_choices: tuple[Choice, ...], tab_label: str, model: Tokenizer) -> tuple[dict[str, str], str]:
    """The page's state as query parameters, and what they cannot carry: the sizes if kept for ``model``."""
    sizes = st.session_state.get(SIZES_KEY) if st.session_state.get(SIZES_MODEL_KEY) == model_key(model) else None
    return state.page_address(page_choices, {TAB_KEY: tab_label, SIZES_KEY: sizes})
