"""The Compare page's tabs, one function each (``TABS``, in order; Real tokenizers in ``compare_real``)."""

from __future__ import annotations

import streamlit as st

from bpe_core import Config
from bpe_core.pretokenizers import pretokenizer
from bpe_core.settings_table import setting
from drawing import escape
from drawing.describe import describe_config
from drawing.notation import token_glyph_legend
from drawing.token_legend import render_legend
from pages.compare import state as compare_state
from pages.compare.languages import languages_section
from pages.compare.parts import TabInputs, show_token_strip, size_select
from pages.compare.real import real_tokenizers_section
from pages.compare.views import setup
from pages.compare.views.curves import size_table_html
from pages.compare.views.data import compare_merge_lists, size_table, vocabulary_usage
from pages.compare.views.figures import usage_figure
from session import state

TIE_BREAK = setting("tie_break")  # the tie-break pair's two selects: its label and its words


def compression_section(inputs: TabInputs) -> None:
    tok, corpus, text, sizes = inputs
    st.caption(setup.CURVES_ABOUT)
    texts = tuple((name, value) for name, value in (("training corpus", corpus), ("your text", text)) if value)
    if not texts:
        st.info("No training corpus is known for this model: type some text above to draw its curve.")
        return
    curves = {name: (value, compare_state.cached_curve(tok, value)) for name, value in texts}
    st.html(compare_state.curves_html(tok, texts, tuple(sizes)))  # HTML and SVG: no plotly to draw
    st.html(size_table_html(size_table(curves, sizes)))  # static: a few rows, no data grid to load and draw
    if not pretokenizer(tok.config.split).keeps_whitespace:
        st.caption("This model's split drops whitespace; characters per token still counts it in the text length.")


def side_by_side_section(inputs: TabInputs) -> None:
    tok, text, sizes = inputs.tok, inputs.text, inputs.sizes
    if not text:
        st.info("Type some text above to see it cut at each size.")
        return
    strips = [show_token_strip(tok.prefix(size.merges), text, size.label, len(sizes)) for size in sizes]
    st.html(render_legend(strips[0], text))  # the fewest merges shows every kind of box


def chosen_configs(session_config: Config, preset: str) -> tuple[Config, Config] | None:
    """The two configurations to train: a preset's, or chosen in the selects (None: invalid, reported)."""
    if setup.PRETOKENIZER_PRESETS[preset] is not None:
        return setup.PRETOKENIZER_PRESETS[preset]
    columns = st.columns(2)
    if preset == setup.TIE_BREAK_PRESET:
        rules = [
            column.selectbox(
                f"{TIE_BREAK.label} {side}",
                TIE_BREAK.choices,
                index=i,
                format_func=TIE_BREAK.word,
                key=compare_state.custom_key("rule", side),
            )
            for i, (side, column) in enumerate(zip("AB", columns))
        ]
        return setup.tie_break_pair(session_config, *rules)
    configs = []
    for side, column in zip("AB", columns):
        column.markdown(f"**Configuration {side}**")
        choices = {
            row.name: column.selectbox(
                row.label, options, format_func=row.word, key=compare_state.custom_key(row.name, side)
            )
            for row, options in setup.CUSTOM_FIELDS
        }
        try:
            configs.append(setup.custom_config(choices))
        except ValueError as error:
            column.error(escape.markdown(f"Configuration {side} is not valid: {error}"))
    return (configs[0], configs[1]) if len(configs) == 2 else None


def pretokenizer_section(inputs: TabInputs) -> None:
    tok, corpus, text = inputs.tok, inputs.corpus, inputs.text
    preset_column, merges_column = st.columns([3, 1])
    preset = preset_column.radio(
        "Compare", list(setup.PRETOKENIZER_PRESETS), horizontal=True, key=compare_state.PRETOK_PRESET_KEY
    )
    merges = merges_column.number_input(
        "Merges for both trainings", 1, 5_000, value=500, step=100, key=compare_state.PRETOK_MERGES_KEY
    )
    configs = chosen_configs(tok.config, preset)
    training_text = (corpus or state.sample_text())[: setup.PRETOKENIZER_CORPUS_CHARS]
    st.caption(setup.training_text_caption(len(training_text), bool(corpus)))
    if configs is None:
        return
    try:
        models = [compare_state.trained_model(training_text, config, merges) for config in configs]
    except ValueError as error:
        st.error(escape.markdown(f"Training failed: {error}"))
        return
    names = [f"{side}: {describe_config(model.config, short=True)}" for side, model in zip("AB", models)]
    for name, model, column in zip(names, models, st.columns(2)):
        column.markdown(f"**{escape.markdown(name)}**  \n{escape.markdown(model.stop_message)}")
    diff = compare_merge_lists(models[0].merges, models[1].merges)
    alert = st.success if diff.first_difference is None else st.markdown
    byte_level = (models[0].byte_level, models[1].byte_level)
    alert(setup.merge_lists_sentence(diff, len(models[0].merges), byte_level))
    for side, only, model, column in zip("AB", (diff.only_a, diff.only_b), models, st.columns(2)):
        column.markdown(setup.only_heading(side, len(only)))
        rows = setup.merge_rows(only, setup.LIST_LIMIT, model.byte_level)
        column.dataframe(rows, hide_index=True, height=240, width="stretch")
        listed = (part for _, merge in only[: setup.LIST_LIMIT] for part in merge)
        if legend := token_glyph_legend(listed, model.config):
            column.caption(escape.markdown(legend))
    if text:
        strips = [show_token_strip(model, text, name, len(models)) for name, model in zip(names, models)]
        st.html(render_legend(strips[0] + strips[1], text))


def usage_section(inputs: TabInputs) -> None:
    tok, corpus, text, sizes = inputs
    merges = size_select("Model at", sizes, compare_state.USAGE_SIZE_KEY).merges
    sources = {"your text": text, "training corpus": corpus}
    source = st.radio(
        "Text", [name for name, value in sources.items() if value], horizontal=True, key=compare_state.USAGE_SOURCE_KEY
    )
    if source is None:
        st.info("Type some text above to see which tokens it uses.")
        return
    try:
        ids = compare_state.cached_ids(tok, merges, sources[source])
    except ValueError as error:
        st.error(escape.markdown(f"Could not encode the text: {error}"))
        return
    usage = vocabulary_usage(tok.prefix(merges), ids)
    for column, (label, value, note, help_text) in zip(st.columns(3), setup.usage_metrics(usage)):
        column.metric(label, value, note, help=help_text, delta_color="off", delta_arrow="off")
    byte_level = tok.byte_level
    st.plotly_chart(usage_figure(usage, byte_level), key=compare_state.USAGE_CHART)
    st.caption(setup.STEPPING_STONES)
    with st.expander(f"Merged tokens this text never uses ({len(usage.unused_merged):,})"):
        if usage.unused_merged:
            shown = usage.unused_merged[: setup.LIST_LIMIT]
            st.dataframe(setup.unused_rows(shown, len(shown), byte_level), hide_index=True, height=240, width="stretch")
            if legend := token_glyph_legend((token for _, token in shown), tok.config):
                st.caption(escape.markdown(legend))
        else:
            st.write("None: the text uses every merged token.")
        if len(usage.unused_merged) > setup.LIST_LIMIT:
            st.caption(f"The first {setup.LIST_LIMIT:,} in step order.")


# The page's tabs, in order: (name in the address, material icon (its font ships with Streamlit, emoji fonts may
# not), label, whether the size boxes sit beside the text, the section drawn while it is open); the first is open on
# a first visit
TABS = [
    ("curves", "show_chart", "Compression", True, compression_section),
    ("side", "compare_arrows", "Side by side", True, side_by_side_section),
    ("pretok", "content_cut", "Pre-tokenizers", False, pretokenizer_section),
    ("real", "smart_toy", "Real tokenizers", True, real_tokenizers_section),
    ("usage", "bar_chart", "Vocabulary usage", True, usage_section),
    ("languages", "translate", "Languages", True, languages_section),
]
TAB_LABELS = {name: f":material/{icon}: {label}" for name, icon, label, _, _ in TABS}  # name in the address -> label
