"""Train: pick a corpus and settings, train a BPE tokenizer, and see what it learned. Every widget of the form
keeps its value for the session, on other pages too (``persist_state``); ``train_state.init_train_form`` fills it once."""

from __future__ import annotations

import streamlit as st

from bpe_core import Config, Tokenizer
from bpe_core.config import TIE_BREAKS, UNITS, UNKNOWN_MODES
from bpe_core.pretokenize import SPLITS
from viz import escape, model_io, state
from viz.describe import describe_config, text_digest
from viz.page_registry import TRAIN
from viz.train import form as ts
from viz.train import state as train_state
from viz.train import summary
from viz.train.corpus_files import LINES_NOTE, describe_stats, preview_html, training_input
from viz.training_settings import (
    MARKER_PLACEMENTS,
    MAX_SIZE,
    MAX_TOP_K,
    STOP_BY,
    TrainSettings,
    pieces_config,
    settings_like,
)

WIDGETS = train_state.SETTING_WIDGETS
KEPT = "session"  # persist_state: a widget keeps its value for the session, on other pages and while folded


def render_corpus(settings: TrainSettings) -> tuple[str, str, str | list[str]]:
    """The corpus picker; returns (source key, corpus text, what training reads: the text or its files' lines)."""
    st.subheader("1 · Corpus")
    source = st.selectbox(ts.FIELD_LABELS["source"], list(ts.SOURCE_LABELS), format_func=ts.SOURCE_LABELS.get,
                          key=train_state.SOURCE_WIDGET, on_change=train_state.on_train_source_change, persist_state=KEPT)
    training_text: str | list[str]
    if source == ts.PASTE:
        corpus = training_text = st.text_area("Your text", key=train_state.PASTE_WIDGET, height=180, persist_state=KEPT,
                                              placeholder="Paste or type any text, e.g. low lower lowest")
    elif source == ts.UPLOAD:
        st.file_uploader("Text files (UTF-8)", type=["txt"], accept_multiple_files=True,
                         key=train_state.FILES_WIDGET, on_change=train_state.on_train_files,
                         help=f"{ts.FIELD_HELP['files']}, each at most {st.get_option('server.maxUploadSize')} MB.")
        st.caption(LINES_NOTE)
        upload = train_state.train_upload()
        for message in upload["errors"]:
            st.error(escape.markdown(message))
        if upload["names"]:
            st.caption(escape.markdown("Using: " + ", ".join(upload["names"])))
        corpus, training_text = "\n".join(upload["texts"]), training_input(upload["texts"])
    else:
        preset = ts.CORPUS_PRESETS[source]
        corpus = training_text = state.sample_text() if preset.text is None else preset.text
        st.html(preview_html(corpus))
    if corpus:
        config = pieces_config(settings)
        try:
            stats = train_state.corpus_size(training_text, config)
        except ValueError as error:  # e.g. a lone surrogate pasted in
            st.error(escape.markdown(f"This text can't be used: {error}"))
        else:
            st.caption(describe_stats(stats, settings.split))
        if hint := ts.split_hint(corpus, settings):
            st.info(hint, icon=":material/translate:")
            st.button(ts.NO_SPACES_RECIPE_LABEL, on_click=train_state.apply_recipe, args=(ts.NO_SPACES_RECIPE,))
    return source, corpus, training_text


def render_settings(current: TrainSettings, source: str) -> None:
    st.subheader("2 · Settings")
    st.caption(escape.markdown(ts.settings_caption(current, source)))
    with st.container(horizontal=True):
        for label, changes in ts.SETTING_PRESETS.items():
            st.button(label, on_click=train_state.apply_recipe, args=(changes,))
    # What each widget does is one folded list, not a tooltip per widget: those drew a fifth slower.
    with st.expander(ts.GLOSSARY_LABEL, key=train_state.GLOSSARY_WIDGET, on_change="rerun") as glossary:
        if glossary.open:
            st.markdown(ts.settings_glossary())

    def number(column, name, low):
        column.number_input(ts.FIELD_LABELS[name], min_value=low, step=1, key=WIDGETS[name],
                            max_value=MAX_TOP_K if name == "top_k" else MAX_SIZE, persist_state=KEPT)

    def choice(column, name, options, disabled=False):
        column.radio(ts.FIELD_LABELS[name], options, key=WIDGETS[name], horizontal=True, disabled=disabled,
                     format_func=lambda option: ts.CHOICE_LABELS.get(option, option), persist_state=KEPT)

    size = st.columns(3)
    choice(size[0], "stop_by", STOP_BY)
    number(size[1], *(("merges", 0) if current.stop_by == "merges" else ("vocab_size", 1)))  # the other is kept
    size[2].selectbox(ts.FIELD_LABELS["split"], SPLITS, key=WIDGETS["split"], persist_state=KEPT)
    symbols = st.columns(3)
    choice(symbols[0], "units", UNITS)
    symbols[1].text_input(ts.FIELD_LABELS["end_of_word"], key=WIDGETS["end_of_word"], placeholder="none",
                          persist_state=KEPT)
    choice(symbols[2], "marker_placement", MARKER_PLACEMENTS, disabled=not current.end_of_word.strip())
    with st.expander(ts.MORE_SETTINGS_LABEL, key=train_state.MORE_WIDGET, on_change="rerun") as more:
        if more.open:  # drawn only when opened: these widgets were a fifth of a later visit's drawing time
            rules = st.columns(3)
            choice(rules[0], "tie_break", TIE_BREAKS)
            rules[1].checkbox(ts.FIELD_LABELS["space_marker"], key=WIDGETS["space_marker"],
                             disabled=current.units != "chars", persist_state=KEPT)
            number(rules[2], "min_frequency", 1)
            extras = st.columns([3, 3, 2])  # the special tokens and the unknown choice need the room
            extras[0].text_input(ts.FIELD_LABELS["special_tokens"], key=WIDGETS["special_tokens"],
                                 placeholder="e.g. <|endoftext|>", persist_state=KEPT)
            choice(extras[1], "unknown", UNKNOWN_MODES, disabled=current.units != "chars")
            number(extras[2], "top_k", 0)


def render_result(model: Tokenizer, corpus: str, about: dict) -> None:
    st.subheader("3 · Result")
    origin = model_io.model_origin(model, about) or f"Trained on: {ts.source_label(about.get('preset', ''))}"
    st.markdown(escape.markdown(origin) + "  \n" + escape.markdown(describe_config(model.config)))
    if model.stop_message:
        alert = st.warning if summary.stopped_short(model) else st.success
        alert(escape.markdown(summary.as_sentence(model.stop_message)),
              icon=":material/warning:" if alert is st.warning else ":material/check_circle:")
    for warning in model.warnings:  # e.g. the end-of-word marker also occurs in the corpus
        st.warning(escape.markdown(summary.as_sentence(warning)), icon=":material/warning:")
    ratio = train_state.cached_compression(state.fingerprint(model), text_digest(corpus), model, corpus) if corpus else None
    st.html(summary.result_html(model, ratio))  # one element: a dozen widgets and columns took longer to draw
    if not model.merges:
        st.info("No merges were made: every token is a base symbol.")
        return
    with st.expander("All merges, as a table", key=train_state.TABLE_WIDGET, on_change="rerun") as table:
        if table.open:  # drawn only when opened: the table is the slowest element of the page to draw
            st.dataframe(summary.merge_table(model), hide_index=True, height=min(38 + 35 * len(model.merges), 400),
                         width="stretch", column_config={
                             "step": st.column_config.NumberColumn("step", width="small"),
                             "count": st.column_config.NumberColumn(
                                 "count", help="How often the pair occurred when merged"),
                             "tie": st.column_config.TextColumn("tie", help="How many pairs shared the winning count")})
    if not model.has_counts:
        st.caption("This model has no training counts (its merges were published without them).")


@st.fragment
def train_button_and_result(source: str, settings: TrainSettings, config: Config | None, corpus: str,
                            training_text: str | list[str]) -> None:
    """The Train button and the result. A press reruns only this part (redrawing the unchanged form took longer than
    the press); a new model reruns the page, whose sidebar names it. The button is enabled with an empty text box:
    a click right after typing trains, as the box's blur runs the whole page (with the text) before this part."""
    train_clicked = st.button("Train", type="primary", icon=":material/play_arrow:", disabled=config is None)
    if not corpus:
        (st.warning if train_clicked else st.caption)("Choose or enter a corpus to train on.")
    ready = bool(corpus) and config is not None
    if train_clicked and ready and train_state.train_and_keep(source, settings, config, corpus, training_text):
        st.rerun()
    st.divider()
    render_result(state.current_model(), state.current_corpus(), state.model_about())


st.title(TRAIN.title)
st.caption("Pick a corpus and settings, press Train, and see which pairs BPE merged, in order.")
chosen_source = train_state.init_train_form(st.query_params.to_dict())
loaded = train_state.model_to_adopt()
if loaded is not None:
    train_state.show_train_settings(settings_like(loaded.config, len(loaded.merges), train_state.train_widget_settings()))
for warning in train_state.take_link_warnings():
    st.warning(escape.markdown(f"Ignored link parameter {warning}; the default is used instead."))

corpus_column, settings_column = st.columns([2, 3], gap="large")
with settings_column:
    render_settings(train_state.train_widget_settings(), chosen_source)
settings = train_state.train_widget_settings()
with corpus_column:
    source, corpus, training_text = render_corpus(settings)

try:
    config = settings.to_config()
except ValueError as error:
    config = None
    st.error(escape.markdown(f"These settings don't work together: {error}. Nothing can be trained until they do; "
                             "the current model is kept."))

if train_state.take_train_from_link() and corpus and config is not None:  # a shared link trains as the page opens
    train_state.train_and_keep(source, settings, config, corpus, training_text)
train_button_and_result(source, settings, config, corpus, training_text)
model_io.save_and_load_section(state.current_model(), "train")
link = state.model_about().get("link", {})
if st.query_params.to_dict() != link:  # the address bar describes the current model, so it can be shared
    st.query_params.from_dict(link)
