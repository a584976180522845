"""The Train page's form: the corpus picker and the settings, every widget keeping its value for the session
(``persist_state``) on other pages and while folded."""

from __future__ import annotations

import streamlit as st

from bpe_core.config import TIE_BREAKS, UNITS, UNKNOWN_MODES
from bpe_core.pretokenizers import SPLITS
from drawing import escape
from pages.train import state as train_state
from pages.train.views import form
from pages.train.views.corpus_files import LINES_NOTE, describe_stats, preview_html, training_input
from pages.train.views.sizes import PASTE_MIN_FREQUENCY, PASTE_SIZE_NOTE
from session.training_settings import MARKER_PLACEMENTS, MAX_SIZE, MAX_TOP_K, STOP_BY, TrainSettings, pieces_config

WIDGETS = train_state.SETTING_WIDGETS
KEPT = "session"  # persist_state: a widget keeps its value for the session, on other pages and while folded


def render_corpus(settings: TrainSettings) -> tuple[str, str, str | list[str]]:
    """The corpus picker; returns (source key, corpus text, what training reads: the text or its files' lines)."""
    st.subheader("1 · Corpus")
    source = st.selectbox(
        form.FIELD_LABELS["source"],
        list(form.SOURCE_LABELS),
        format_func=form.SOURCE_LABELS.get,
        key=train_state.SOURCE_WIDGET,
        on_change=train_state.on_train_source_change,
        persist_state=KEPT,
    )
    training_text: str | list[str]
    if source == form.PASTE:
        corpus = training_text = st.text_area(
            "Your text",
            key=train_state.PASTE_WIDGET,
            height=180,
            persist_state=KEPT,
            placeholder="Paste or type any text, e.g. low lower lowest",
        )
        if settings.min_frequency == PASTE_MIN_FREQUENCY:
            st.caption(PASTE_SIZE_NOTE)
    elif source == form.UPLOAD:
        st.file_uploader(
            "Text files (UTF-8)",
            type=["txt"],
            accept_multiple_files=True,
            key=train_state.FILES_WIDGET,
            on_change=train_state.on_train_files,
            help=f"{form.FIELD_HELP['files']}, each at most {st.get_option('server.maxUploadSize')} MB.",
        )
        st.caption(LINES_NOTE)
        upload = train_state.train_upload()
        for message in upload["errors"]:
            st.error(escape.markdown(message))
        if upload["names"]:
            st.caption(escape.markdown("Using: " + ", ".join(upload["names"])))
        corpus, training_text = "\n".join(upload["texts"]), training_input(upload["texts"])
    else:
        corpus = training_text = train_state.preset_corpus(source)
        st.html(preview_html(corpus))
    if corpus:
        config = pieces_config(settings)
        try:
            stats = train_state.corpus_size(training_text, config)
        except ValueError as error:  # e.g. a lone surrogate pasted in
            st.error(escape.markdown(f"This text can't be used: {error}"))
        else:
            st.caption(describe_stats(stats, settings.split))
        if hint := form.split_hint(corpus, settings):
            st.info(hint, icon=":material/translate:")
            st.button(form.NO_SPACES_RECIPE_LABEL, on_click=train_state.apply_recipe, args=(form.NO_SPACES_RECIPE,))
    return source, corpus, training_text


def render_settings(current: TrainSettings, source: str) -> None:
    st.subheader("2 · Settings")
    st.caption(escape.markdown(form.settings_caption(current, source)))
    with st.container(horizontal=True):
        for label, changes in form.SETTING_PRESETS.items():
            st.button(label, on_click=train_state.apply_recipe, args=(changes,))
    # What each widget does is one folded list, not a tooltip per widget: those drew a fifth slower.
    with st.expander(form.GLOSSARY_LABEL, key=train_state.GLOSSARY_WIDGET, on_change="rerun") as glossary:
        if glossary.open:
            st.markdown(form.settings_glossary())
    _render_size_and_symbols(current)
    with st.expander(form.MORE_SETTINGS_LABEL, key=train_state.MORE_WIDGET, on_change="rerun") as more:
        if more.open:  # drawn only when opened: these widgets were a fifth of a later visit's drawing time
            _render_more_settings(current)


def _render_size_and_symbols(current: TrainSettings) -> None:
    """The two rows always shown: when training stops and the split; the base symbols and the end-of-word marker
    (characters say that what training never saw becomes <unk>)."""
    size = st.columns(3)
    _choice(size[0], "stop_by", STOP_BY)
    _number(size[1], *(("merges", 0) if current.stop_by == "merges" else ("vocab_size", 1)))  # the other is kept
    size[2].selectbox(form.FIELD_LABELS["split"], SPLITS, key=WIDGETS["split"], persist_state=KEPT)
    symbols = st.columns(3)
    _choice(symbols[0], "units", UNITS)
    symbols[1].text_input(
        form.FIELD_LABELS["end_of_word"], key=WIDGETS["end_of_word"], placeholder="none", persist_state=KEPT
    )
    _choice(symbols[2], "marker_placement", MARKER_PLACEMENTS, disabled=not current.end_of_word.strip())
    if current.units == "chars" and current.unknown == "unk":
        st.caption(escape.markdown(form.CHARS_UNKNOWN_NOTE))


def _render_more_settings(current: TrainSettings) -> None:
    """The folded rows: tie-break, space marker, minimum frequency; special tokens, unknown symbols, race size."""
    rules = st.columns(3)
    _choice(rules[0], "tie_break", TIE_BREAKS)
    rules[1].checkbox(
        form.FIELD_LABELS["space_marker"],
        key=WIDGETS["space_marker"],
        disabled=current.units != "chars",
        persist_state=KEPT,
    )
    _number(rules[2], "min_frequency", 1)
    extras = st.columns([3, 3, 2])  # the special tokens and the unknown choice need the room
    extras[0].text_input(
        form.FIELD_LABELS["special_tokens"],
        key=WIDGETS["special_tokens"],
        placeholder="e.g. <|endoftext|>",
        persist_state=KEPT,
    )
    _choice(extras[1], "unknown", UNKNOWN_MODES, disabled=current.units != "chars")
    _number(extras[2], "top_k", 0)


def _number(column, name: str, low: int) -> None:
    """A whole-number setting from ``low`` up (the race's size has its own ceiling)."""
    column.number_input(
        form.FIELD_LABELS[name],
        min_value=low,
        step=1,
        key=WIDGETS[name],
        max_value=MAX_TOP_K if name == "top_k" else MAX_SIZE,
        persist_state=KEPT,
    )


def _choice(column, name: str, options, disabled: bool = False) -> None:
    """A setting chosen among a few options, as a row of radio buttons named in words."""
    column.radio(
        form.FIELD_LABELS[name],
        options,
        key=WIDGETS[name],
        horizontal=True,
        disabled=disabled,
        format_func=lambda option: form.CHOICE_LABELS.get(option, option),
        persist_state=KEPT,
    )
