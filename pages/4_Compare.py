"""Compare: what a bigger vocabulary buys, and what the pre-tokenizer changes, on your own text.

Merge lists are prefixes of each other, so the session model cut to its first
``k`` merges (``tok.prefix(k)``) stands for every smaller vocabulary: one
training answers the question for all sizes.
"""

from __future__ import annotations

import hashlib
import html
import json
from dataclasses import replace

import streamlit as st

from bpe_core import Config, Token, Tokenizer, load_gpt2, train
from viz import state
from viz.compare_data import (
    chars_per_token,
    compare_merge_lists,
    default_sizes,
    size_table,
    tokens_by_merge_count,
    vocabulary_usage,
)
from viz.compare_figures import compression_figure, usage_figure
from viz.readable import readable_symbol
from viz.token_html import render_legend, render_tokens
from viz.train_view import markdown_escape

DEFAULT_TEXT = (
    "Tokenizers don't read words, they read pieces. Unbelievably, a bigger vocabulary "
    "means fewer and longer pieces for the same sentence!"
)
PRETOKENIZER_CORPUS_CHARS = 200_000  # both trainings use at most this much of the corpus, for speed
STRIP_MAX_CHARS = 5_000  # token strips draw the first this-many characters
LIST_LIMIT = 500  # rows shown of a long token table (merges only one side makes, tokens never used)

FINGERPRINT_KEY = "bpe_compare_fingerprint"  # (model, digest) of the last model seen here
SIZES_KEY = "bpe_compare_sizes"  # (digest, [sizes]) chosen for that model
TAB_KEY = "compare_tab"
TEXT_KEY = "compare_text"
COUNT_KEY = "compare_size_count"

TABS = [  # (material icon, label): the icon font ships with Streamlit, emoji fonts may be missing
    ("show_chart", "Compression"),
    ("compare_arrows", "Side by side"),
    ("content_cut", "Pre-tokenizers"),
    ("smart_toy", "Against GPT-2"),
    ("bar_chart", "Vocabulary usage"),
]

PRESETS = {
    "Words + </w>  vs  GPT-2 byte-level": (
        Config(split="whitespace", end_of_word="</w>"),
        Config(split="gpt2", units="bytes"),
    ),
    "Tie-break: first  vs  hf": "tie_break",
    "Custom": "custom",
}
END_OF_WORD_CHOICES = {"none": None, "</w>": "</w>", "_": "_"}


# -- cached work ---------------------------------------------------------------------


def model_fingerprint(tok: Tokenizer) -> str:
    """A stable digest of the model, computed once per model object and kept in the session."""
    stored = st.session_state.get(FINGERPRINT_KEY)
    if stored is not None and stored[0] is tok:
        return stored[1]
    payload = json.dumps([tok.config.to_dict(), tok.vocab, tok.merges, tok.name], ensure_ascii=False)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    st.session_state[FINGERPRINT_KEY] = (tok, digest)
    return digest


@st.cache_data(max_entries=16, show_spinner="Counting tokens for every vocabulary size...")
def cached_curve(_tok: Tokenizer, fingerprint: str, text: str) -> list[int]:
    return tokens_by_merge_count(_tok, text)


@st.cache_resource(max_entries=8, show_spinner="Training...")
def cached_training(corpus: str, config_json: str, merges: int) -> Tokenizer:
    return train(corpus, Config.from_dict(json.loads(config_json)), merges=merges)


@st.cache_data(max_entries=8, show_spinner="Encoding...")
def cached_ids(_tok: Tokenizer, fingerprint: str, merges: int, text: str) -> list[int]:
    return _tok.prefix(merges).encode(text)


# -- small renderers -----------------------------------------------------------------


def describe_config(config: Config) -> str:
    marker = f", marker {config.end_of_word}" if config.end_of_word else ""
    return f"split {config.split}, {config.units}{marker}, tie-break {config.tie_break}"


def show_token_strip(tok: Tokenizer, text: str, heading: str) -> list[Token]:
    """Draw ``text`` encoded by ``tok`` under a heading with the token count; return the tokens."""
    tokens = tok.encode_with_spans(text)
    ratio = chars_per_token(text, [len(tokens)])[0]
    st.markdown(
        f"{html.escape(heading)} — **{len(tokens):,} tokens** ({ratio:.2f} characters per token)",
        unsafe_allow_html=True,
    )
    st.html(
        render_tokens(
            tokens, text, byte_level=tok.config.units == "bytes", end_of_word=tok.config.end_of_word,
            created_at=tok.created_at, max_chars=STRIP_MAX_CHARS,
        )
    )
    return tokens


def token_difference(count: int, reference: int) -> str:
    """``"3 fewer tokens (12%)"``, ``"2 more tokens (5%)"`` or ``"exactly as many tokens"``."""
    if count == reference:
        return "exactly as many tokens"
    share = f" ({abs(count - reference) / reference:.0%})" if reference else ""
    return f"{abs(count - reference):,} {'fewer' if count < reference else 'more'} tokens{share}"


def copy_widget_value(source_key: str, target_key: str) -> None:
    """Keep a slider and its typed twin in step."""
    st.session_state[target_key] = st.session_state[source_key]


# -- size controls ---------------------------------------------------------------------


def choose_sizes(total_merges: int, fingerprint: str) -> list[int]:
    """Two to four numbers of merges, each a slider with a typed twin; remembered per model."""
    saved_for, saved = st.session_state.get(SIZES_KEY, (None, []))
    count = st.segmented_control(
        "Vocabulary sizes to compare", [2, 3, 4], default=3, key=COUNT_KEY, required=True,
        help="Each size is a number of merges: the model cut to its first k merges.",
    )
    defaults = default_sizes(total_merges, count)
    sizes = []
    for index in range(count):
        slider_key, typed_key = f"compare_size_{index}", f"compare_size_typed_{index}"
        if saved_for != fingerprint or slider_key not in st.session_state:
            start = saved[index] if saved_for == fingerprint and index < len(saved) else defaults[index]
            st.session_state[slider_key] = st.session_state[typed_key] = start
        slider_column, typed_column = st.columns([4, 1], vertical_alignment="bottom")
        slider_column.slider(
            f"Size {index + 1}: merges", 0, total_merges, key=slider_key,
            on_change=copy_widget_value, args=(slider_key, typed_key),
        )
        typed_column.number_input(
            f"Size {index + 1} typed", 0, total_merges, step=1, key=typed_key, label_visibility="collapsed",
            on_change=copy_widget_value, args=(typed_key, slider_key),
        )
        sizes.append(st.session_state[slider_key])
    st.session_state[SIZES_KEY] = (fingerprint, sizes)
    return sizes


# -- sections -------------------------------------------------------------------------


def compression_section(tok: Tokenizer, fingerprint: str, corpus: str, text: str, sizes: list[int]) -> None:
    st.caption(
        "How many tokens the text needs with the first k merges, for every k. The model cut to its first "
        "k merges is exactly what a training of k merges would have learned, so one training gives all sizes."
    )
    curves = {}
    if corpus:
        curves["training corpus"] = (corpus, cached_curve(tok, fingerprint, corpus))
    if text:
        curves["your text"] = (text, cached_curve(tok, fingerprint, text))
    if not curves:
        st.info("No training corpus is known for this model: type some text above to draw its curve.")
        return
    st.plotly_chart(compression_figure(curves, marked_sizes=sizes), key="compare_curves")
    rows = size_table(curves, sizes)
    formats = {column: st.column_config.NumberColumn(format="%.2f" if column.endswith("chars/token") else "localized")
               for column in rows[0]}
    st.dataframe(rows, hide_index=True, width="content", column_config=formats)
    if tok.config.split == "whitespace":
        st.caption("This model's split drops whitespace; characters per token still counts it in the text length.")


def side_by_side_section(tok: Tokenizer, text: str, sizes: list[int]) -> None:
    if not text:
        st.info("Type some text above to see it cut at each size.")
        return
    strips = []
    for size in sizes:
        cut = tok.prefix(size)
        strips.append(show_token_strip(cut, text, f"{size:,} merges (vocabulary of {len(cut.vocab):,})"))
    st.html(render_legend(strips[0], text))  # the fewest merges shows every kind of box


def pretokenizer_configs(session_config: Config, preset: str) -> tuple[Config, Config] | None:
    """The two configurations to train, from a preset or from the custom selects (None: invalid, reported)."""
    choice = PRESETS[preset]
    if choice == "tie_break":
        return replace(session_config, tie_break="first"), replace(session_config, tie_break="hf")
    if choice != "custom":
        return choice
    configs = []
    for side, column in zip("AB", st.columns(2)):
        with column:
            st.markdown(f"**Configuration {side}**")
            try:
                configs.append(
                    Config(
                        split=st.selectbox("Pre-tokenizer", ["whitespace", "gpt2", "gpt4", "none"],
                                           key=f"compare_custom_split_{side}"),
                        units=st.selectbox("Units", ["chars", "bytes"], key=f"compare_custom_units_{side}"),
                        end_of_word=END_OF_WORD_CHOICES[st.selectbox(
                            "End-of-word marker", list(END_OF_WORD_CHOICES), key=f"compare_custom_marker_{side}")],
                        tie_break=st.selectbox("Tie-break", ["first", "hf"], key=f"compare_custom_tie_{side}"),
                    )
                )
            except ValueError as error:
                st.error(f"Configuration {side} is not valid: {error}")
    return tuple(configs) if len(configs) == 2 else None


def pretokenizer_section(tok: Tokenizer, corpus: str, text: str) -> None:
    preset_column, merges_column = st.columns([3, 1])
    preset = preset_column.radio("Compare", list(PRESETS), horizontal=True, key="compare_pretok_preset")
    merges = merges_column.number_input("Merges for both trainings", 1, 5_000, value=500, step=100,
                                        key="compare_pretok_merges")
    configs = pretokenizer_configs(tok.config, preset)
    source = corpus or state.sample_text()
    training_text = source[:PRETOKENIZER_CORPUS_CHARS]
    where = "the session's training corpus" if corpus else "the KJV sample (this model has no known corpus)"
    st.caption(
        f"Both are trained on the first {len(training_text):,} characters of {where} "
        f"(capped at {PRETOKENIZER_CORPUS_CHARS:,} for speed)."
    )
    if configs is None:
        return
    try:
        models = [cached_training(training_text, json.dumps(config.to_dict()), merges) for config in configs]
    except ValueError as error:
        st.error(f"Training failed: {error}")
        return
    for side, model, column in zip("AB", models, st.columns(2)):
        column.markdown(f"**{side}:** {html.escape(describe_config(model.config))}  \n{html.escape(model.stop_message)}")
    diff = compare_merge_lists(models[0].merges, models[1].merges)
    if diff.first_difference is None:
        st.success(f"The two merge lists are identical ({len(models[0].merges):,} merges).")
    else:
        agreed = diff.first_difference - 1
        before = f"agree for {agreed:,} step{'s' if agreed > 1 else ''} and " if agreed else ""
        st.markdown(
            f"The merge lists {before}first differ at **step {diff.first_difference:,}**: "
            f"A merges `{_merge_text(diff.first_a)}`, B merges `{_merge_text(diff.first_b)}`. "
            f"They share {diff.shared_tokens:,} merged tokens."
        )
    for side, only, column in zip("AB", (diff.only_a, diff.only_b), st.columns(2)):
        with column:
            more = f" (first {LIST_LIMIT:,} shown)" if len(only) > LIST_LIMIT else ""
            st.markdown(f"**{len(only):,} merged tokens only {side} makes**{more} (␣ = space)")
            rows = [
                {"step": step, "left": readable_symbol(left), "right": readable_symbol(right),
                 "new token": readable_symbol(left + right)}
                for step, (left, right) in only[:LIST_LIMIT]
            ]
            st.dataframe(rows, hide_index=True, height=240, width="stretch")
    if text:
        strips = [show_token_strip(model, text, f"{side}: {describe_config(model.config)}")
                  for side, model in zip("AB", models)]
        st.html(render_legend(strips[0] + strips[1], text))


def _merge_text(merge: tuple[str, str] | None) -> str:
    return "(nothing: the list ended)" if merge is None else f"{readable_symbol(merge[0])} + {readable_symbol(merge[1])}".replace("`", "'")


def gpt2_section(tok: Tokenizer, text: str, sizes: list[int]) -> None:
    if not text:
        st.info("Type some text above to compare it with GPT-2.")
        return
    size = st.columns([1, 3])[0].selectbox(
        "Your model at", sizes, index=len(sizes) - 1, format_func=lambda k: f"{k:,} merges", key="compare_gpt2_size"
    )
    gpt2 = load_gpt2()
    if tok.name == gpt2.name:
        st.info("Your model is GPT-2 itself, so both strips are the same model.")
    ours = show_token_strip(tok.prefix(size), text, f"Your model, {size:,} merges")
    theirs = show_token_strip(gpt2, text, f"GPT-2, {len(gpt2.merges):,} merges")
    st.html(render_legend(ours + theirs, text))
    st.caption(f"GPT-2 needs {token_difference(len(theirs), len(ours))} than your model on this text.")


def usage_section(tok: Tokenizer, fingerprint: str, corpus: str, text: str, sizes: list[int]) -> None:
    left, right = st.columns([1, 2])
    size = left.selectbox("Model at", sizes, index=len(sizes) - 1, format_func=lambda k: f"{k:,} merges",
                          key="compare_usage_size")
    sources = {"your text": text, "training corpus": corpus}
    source = right.radio("Text", [name for name, value in sources.items() if value], horizontal=True,
                         key="compare_usage_source")
    if source is None:
        st.info("Type some text above to see which tokens it uses.")
        return
    try:
        ids = cached_ids(tok, fingerprint, size, sources[source])
    except ValueError as error:
        st.error(f"Could not encode the text: {error}")
        return
    usage = vocabulary_usage(tok.prefix(size), ids)
    metrics = st.columns(3)
    metrics[0].metric("Vocabulary entries", f"{usage.vocabulary:,}", help="Base symbols and merged tokens; special tokens left out.")
    metrics[1].metric("Used at least once", f"{usage.used:,}")
    share = usage.never_used / usage.vocabulary if usage.vocabulary else 0.0
    metrics[2].metric("Never used", f"{usage.never_used:,}", f"{share:.0%} of the vocabulary", delta_color="off",
                      delta_arrow="off")
    st.plotly_chart(usage_figure(usage), key="compare_usage")
    st.caption(
        "Many merged tokens are only stepping stones: `an` exists to build `ban`, and once `ban` exists "
        "the text may never show `an` on its own."
    )
    with st.expander(f"Merged tokens this text never uses ({len(usage.unused_merged):,})"):
        if usage.unused_merged:
            shown = usage.unused_merged[:LIST_LIMIT]
            st.dataframe([{"step": step, "token": readable_symbol(token)} for step, token in shown],
                         hide_index=True, height=240, width="stretch")
            if len(usage.unused_merged) > len(shown):
                st.caption(f"The first {len(shown):,} in step order.")
        else:
            st.write("None: the text uses every merged token.")


# -- page --------------------------------------------------------------------------------

st.title("Compare")
tok = state.current_model()
corpus = state.current_corpus()
fingerprint = model_fingerprint(tok)
total_merges = len(tok.merges)
st.caption(  # the name may be an uploaded file's name: shown literally, never as markdown
    f"Session model: {markdown_escape(tok.name or 'trained here')}, {total_merges:,} merges, "
    f"{markdown_escape(describe_config(tok.config))}."
)

text_column, sizes_column = st.columns([3, 2], gap="large")
with text_column:
    text = st.text_area("Your text", value=DEFAULT_TEXT, height=150, key=TEXT_KEY,
                        help="Used by every tab below; the curves also show it as held-out text.")
with sizes_column:
    if total_merges == 0:
        st.info("This model has no merges, so there is only one size. Train one with merges on the Train page.")
        sizes = [0]
    else:
        sizes = choose_sizes(total_merges, fingerprint)

tabs = st.tabs(
    [f":material/{icon}: {label}" for icon, label in TABS],
    key=TAB_KEY, on_change="rerun",
)
with tabs[0]:
    if tabs[0].open:
        compression_section(tok, fingerprint, corpus, text, sizes)
with tabs[1]:
    if tabs[1].open:
        side_by_side_section(tok, text, sizes)
with tabs[2]:
    if tabs[2].open:
        pretokenizer_section(tok, corpus, text)
with tabs[3]:
    if tabs[3].open:
        gpt2_section(tok, text, sizes)
with tabs[4]:
    if tabs[4].open:
        usage_section(tok, fingerprint, corpus, text, sizes)
