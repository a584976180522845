"""The Train page's form: the corpus picker and the settings, every widget keeping its value for the session
(``persist_state``) on other pages and while folded."""

from __future__ import annotations

from typing import Final, cast

import streamlit as st

from bpe_core.languages import SOURCE
from bpe_core.settings_table import COUNT, MAIN, MORE, SETTINGS, STOP_BY, SWITCH, TEXT, TEXTS, Setting
from drawing import escape
from pages.train import state as train_state
from pages.train.views import form
from pages.train.views.corpus_files import LINES_NOTE, describe_stats, preview_html, training_input
from pages.train.views.sizes import PASTE_MIN_FREQUENCY, PASTE_SIZE_NOTE
from session.training_settings import TrainSettings, pieces_config

WIDGETS = train_state.SETTING_WIDGETS
NOT_SIZES = tuple(row.name for row in SETTINGS if row.name not in STOP_BY)
RADIO_ROW_CHARS = 20  # a setting's options as radio buttons on one line of its column, up to this many letters
KEPT: Final = "session"  # persist_state: a widget keeps its value for the session, on other pages and while folded
# A setting that does not apply (the marker's placement with no marker) is shown disabled, its label faded by
# Streamlit below AA contrast: the label keeps the text's colour, the greyed control says it is off.
READABLE_LABELS_CSS = '<style>[class*="st-key-train_"] [data-testid="stWidgetLabel"] p{color:#3c4050;opacity:1}</style>'


def render_corpus(settings: TrainSettings) -> tuple[str, str, str | list[str]]:
    """The corpus picker; returns (source key, corpus text, what training reads: the text or its files' lines)."""
    st.subheader("1 · Corpus")
    source = st.selectbox(
        form.FIELD_LABELS["source"],
        list(form.SOURCE_LABELS),
        format_func=form.SOURCE_LABELS.__getitem__,
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
        if form.CORPUS_PRESETS[source].mix is not None:  # the texts' source, named beside them
            st.caption(escape.markdown(f"Whole copies of each language's text, taken in turn. {SOURCE}."))
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
    if note := train_state.size_note():  # above the boxes it changed: a toast covered a phone's title and button
        st.caption(":material/straighten: " + escape.markdown(note))
    _render_size_and_symbols(current)
    with st.expander(form.MORE_SETTINGS_LABEL, key=train_state.MORE_WIDGET, on_change="rerun") as more:
        if more.open:  # drawn only when opened: these widgets were a fifth of a later visit's drawing time
            _render_more_settings(current)


def _render_size_and_symbols(current: TrainSettings) -> None:
    """The rows always shown: when training stops (the size it names; the other is kept) and the split; the base
    symbols and the end-of-word marker (characters say that what training never saw becomes <unk>)."""
    # A setting that does not apply (the marker's placement with no marker) is disabled, its label faded by
    # Streamlit below AA contrast: the label keeps a text colour, the greyed control says it is off.
    st.html('<style>[class*="st-key-train_"] [data-testid="stWidgetLabel"] p{color:#3c4050;opacity:1}</style>')
    _lay_out([row for row in SETTINGS if row.place == MAIN and row.name in (current.stop_by, *NOT_SIZES)], current)
    if current.units == "chars" and current.unknown == "unk":
        st.caption(escape.markdown(form.CHARS_UNKNOWN_NOTE))


def _render_more_settings(current: TrainSettings) -> None:
    """The folded rows: tie-break, space marker, minimum frequency; special tokens, unknown symbols, race size."""
    _lay_out([row for row in SETTINGS if row.place == MORE], current)


def _lay_out(rows: list[Setting], current: TrainSettings) -> None:
    """The settings' widgets, three to a row, in the table's order, each a third of the row (a number box narrower
    than that hides its − and +)."""
    for start in range(0, len(rows), 3):
        line = rows[start : start + 3]
        for column, row in zip(st.columns(len(line)), line):
            _widget(column, row, disabled=row.applies is not None and not row.applies(current))


def _widget(column, row: Setting, disabled: bool) -> None:
    """One setting's widget, by its kind: a few choices as radio buttons named in words (more as a list), a number
    box within the row's range, a checkbox (or two named radio buttons), a text box."""
    common = {"key": WIDGETS[row.name], "disabled": disabled, "persist_state": KEPT}
    if row.kind == COUNT:
        low, high = cast(tuple[int, int], row.bounds)  # every count's row has its bounds
        column.number_input(row.label, min_value=low, max_value=high, step=1, **common)
    elif row.kind in (TEXT, TEXTS):
        column.text_input(row.label, placeholder=row.placeholder, **common)
    elif row.kind == SWITCH and row.switch_words == ("0", "1"):
        column.checkbox(row.label, **common)
    else:
        options = row.choices or (False, True)
        fits_a_row = len(options) <= 3 and sum(len(row.word(option)) for option in options) <= RADIO_ROW_CHARS
        widget = column.radio if fits_a_row else column.selectbox
        extra = {"horizontal": True} if widget == column.radio else {}
        widget(row.label, options, format_func=row.word, **common, **extra)
